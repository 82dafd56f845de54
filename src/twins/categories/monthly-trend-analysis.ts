import { defineTwinCategory } from "../category.js";

/** Placeholder until this category's twin maker and answer program are written: it makes no twin, so the builder reports every monthly_trend_analysis task as missing. */
export const monthlyTrendAnalysis = defineTwinCategory({
  name: "monthly_trend_analysis",
  twin: () => undefined,
});
