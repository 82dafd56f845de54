import { defineTwinCategory } from "../category.js";

/** Placeholder until this category's twin maker and answer program are written: it makes no twin, so the builder reports every wrong_stage_rectification task as missing. */
export const wrongStageRectification = defineTwinCategory({
  name: "wrong_stage_rectification",
  twin: () => undefined,
});
