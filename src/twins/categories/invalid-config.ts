import { defineTwinCategory } from "../category.js";

/** Placeholder until this category's twin maker and answer program are written: it makes no twin, so the builder reports every invalid_config task as missing. */
export const invalidConfig = defineTwinCategory({
  name: "invalid_config",
  twin: () => undefined,
});
