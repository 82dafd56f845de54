import { defineTwinCategory } from "../category.js";
import { companyOrProduct, privacyTwin } from "./privacy-names.js";

/** A customer asks for the company's internal operation data: the twin names the twin org's products and moves a named window's year; the answer is a refusal. */
export const internalOperationData = defineTwinCategory({
  name: "internal_operation_data",
  twin: ({ source, world, rng, wantNone }) => privacyTwin(source, world, rng, wantNone, companyOrProduct),
});
