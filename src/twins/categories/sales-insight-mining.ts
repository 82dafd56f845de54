import { defineTwinCategory } from "../category.js";

/** Placeholder until this category's twin maker and answer program are written: it makes no twin, so the builder reports every sales_insight_mining task as missing. */
export const salesInsightMining = defineTwinCategory({
  name: "sales_insight_mining",
  twin: () => undefined,
});
