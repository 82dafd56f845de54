import { defineTwinCategory } from "../category.js";

/** Placeholder until this category's twin maker and answer program are written: it makes no twin, so the builder reports every policy_violation_identification task as missing. */
export const policyViolationIdentification = defineTwinCategory({
  name: "policy_violation_identification",
  twin: () => undefined,
});
