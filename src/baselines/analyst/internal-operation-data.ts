import { REFUSAL } from "../oracle.js";
import type { CategorySolver } from "./solver.js";

/** A customer asks for the company's internal operation data (agents' performance, other cases, quotes): not theirs to see, so the analyst refuses without querying. */
export const internalOperationData: CategorySolver = async () => REFUSAL;
