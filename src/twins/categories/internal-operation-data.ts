import { defineTwinCategory } from "../category.js";

/** Placeholder until this category's twin maker and answer program are written: it makes no twin, so the builder reports every internal_operation_data task as missing. */
export const internalOperationData = defineTwinCategory({
  name: "internal_operation_data",
  twin: () => undefined,
});
