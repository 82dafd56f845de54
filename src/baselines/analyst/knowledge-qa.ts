import type { CategorySolver } from "./solver.js";

/** Placeholder until this category's analysis is written: it answers None. */
export const knowledgeQa: CategorySolver = async () => "None";
