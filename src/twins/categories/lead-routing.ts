import { defineTwinCategory } from "../category.js";

/** Placeholder until this category's twin maker and answer program are written: it makes no twin, so the builder reports every lead_routing task as missing. */
export const leadRouting = defineTwinCategory({
  name: "lead_routing",
  twin: () => undefined,
});
