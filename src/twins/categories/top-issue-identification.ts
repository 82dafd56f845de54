import { defineTwinCategory } from "../category.js";

/** Placeholder until this category's twin maker and answer program are written: it makes no twin, so the builder reports every top_issue_identification task as missing. */
export const topIssueIdentification = defineTwinCategory({
  name: "top_issue_identification",
  twin: () => undefined,
});
