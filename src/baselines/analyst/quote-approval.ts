import { quoteRuleSolver } from "./quote-rules.js";
import type { CategorySolver } from "./solver.js";

/** Does the quote's pricing comply? The discount approval articles first, then any other rule the lines break. */
export const quoteApproval: CategorySolver = (task, tools) => quoteRuleSolver(task, tools, "pricing");
