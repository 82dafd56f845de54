import { defineTwinCategory } from "../category.js";

/** Placeholder until this category's twin maker and answer program are written: it makes no twin, so the builder reports every best_region_identification task as missing. */
export const bestRegionIdentification = defineTwinCategory({
  name: "best_region_identification",
  twin: () => undefined,
});
