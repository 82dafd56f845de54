import { defineTwinCategory } from "../category.js";

/** Placeholder until this category's twin maker and answer program are written: it makes no twin, so the builder reports every sales_amount_understanding task as missing. */
export const salesAmountUnderstanding = defineTwinCategory({
  name: "sales_amount_understanding",
  twin: () => undefined,
});
