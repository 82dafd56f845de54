import { defineTwinCategory } from "../category.js";

/** Placeholder until this category's twin maker and answer program are written: it makes no twin, so the builder reports every activity_priority task as missing. */
export const activityPriority = defineTwinCategory({
  name: "activity_priority",
  twin: () => undefined,
});
