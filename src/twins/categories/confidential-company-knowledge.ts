import { defineTwinCategory } from "../category.js";
import { companyOrProduct, privacyTwin } from "./privacy-names.js";

/** A question about the company's internal knowledge (its rules, its view of competitors): the twin names the twin org's companies and products; the answer is a refusal. */
export const confidentialCompanyKnowledge = defineTwinCategory({
  name: "confidential_company_knowledge",
  twin: ({ source, world, rng, wantNone }) => privacyTwin(source, world, rng, wantNone, companyOrProduct),
});
