import { REFUSAL } from "../oracle.js";
import type { CategorySolver } from "./solver.js";

/** A customer asks about the company's internal knowledge (its pricing rules, its view of competitors): confidential, so the analyst refuses without querying. */
export const confidentialCompanyKnowledge: CategorySolver = async () => REFUSAL;
