import { quoteRuleSolver } from "./quote-rules.js";
import type { CategorySolver } from "./solver.js";

/** Is the quote's product setup against policy? The configuration articles (quantities, exclusions) first, then any other rule the lines break. */
export const invalidConfig: CategorySolver = (task, tools) => quoteRuleSolver(task, tools, "configuration");
