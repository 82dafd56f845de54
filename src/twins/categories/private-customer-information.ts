import { defineTwinCategory } from "../category.js";

/** Placeholder until this category's twin maker and answer program are written: it makes no twin, so the builder reports every private_customer_information task as missing. */
export const privateCustomerInformation = defineTwinCategory({
  name: "private_customer_information",
  twin: () => undefined,
});
