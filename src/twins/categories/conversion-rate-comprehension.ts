import { defineTwinCategory } from "../category.js";

/** Placeholder until this category's twin maker and answer program are written: it makes no twin, so the builder reports every conversion_rate_comprehension task as missing. */
export const conversionRateComprehension = defineTwinCategory({
  name: "conversion_rate_comprehension",
  twin: () => undefined,
});
