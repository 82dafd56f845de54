import { defineTwinCategory } from "../category.js";

/** Placeholder until this category's twin maker and answer program are written: it makes no twin, so the builder reports every sales_cycle_understanding task as missing. */
export const salesCycleUnderstanding = defineTwinCategory({
  name: "sales_cycle_understanding",
  twin: () => undefined,
});
