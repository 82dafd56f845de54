import { defineTwinCategory } from "../category.js";

/** Placeholder until this category's twin maker and answer program are written: it makes no twin, so the builder reports every confidential_company_knowledge task as missing. */
export const confidentialCompanyKnowledge = defineTwinCategory({
  name: "confidential_company_knowledge",
  twin: () => undefined,
});
