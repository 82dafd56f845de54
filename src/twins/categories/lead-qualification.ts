import { defineTwinCategory } from "../category.js";

/** Placeholder until this category's twin maker and answer program are written: it makes no twin, so the builder reports every lead_qualification task as missing. */
export const leadQualification = defineTwinCategory({
  name: "lead_qualification",
  twin: () => undefined,
});
