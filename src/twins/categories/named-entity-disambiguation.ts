import { defineTwinCategory } from "../category.js";

/** Placeholder until this category's twin maker and answer program are written: it makes no twin, so the builder reports every named_entity_disambiguation task as missing. */
export const namedEntityDisambiguation = defineTwinCategory({
  name: "named_entity_disambiguation",
  twin: () => undefined,
});
