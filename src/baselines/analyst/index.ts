import type { ObjectInfo } from "../../org/index.js";
import { SchemaAdapter } from "../schema-adapter.js";
import type { Strategy } from "../server.js";
import { ownContext } from "../solver.js";
import { CATEGORY_SOLVERS } from "./solvers.js";

export type { CategorySolver } from "./solver.js";

/**
 * The reference agent for the real tasks' wording: a rule-based analyst that reads the task text
 * as CRMArena-Pro writes it and the schema, and queries the org with SOQL and SOSL, as a careful
 * human would. It is written from the real tasks' wording and the categories' definitions; it
 * never imports the generators or the twins' answer programs (the architecture test enforces it),
 * so its pass rate on the twins measures the twins as much as it measures the agent.
 */
export const analystStrategy: Strategy = async (task, tools) => {
  const solve = CATEGORY_SOLVERS[task.category as keyof typeof CATEGORY_SOLVERS];
  if (!solve) return "None";
  const described = await tools.describe();
  const adapter = new SchemaAdapter((described.objects as ObjectInfo[] | undefined) ?? []);
  return solve(
    { ...task, requiredContext: ownContext(task.requiredContext) },
    {
      ...tools,
      soql: async (query) => adapter.known(await tools.soql(adapter.soql(query))),
      sosl: async (search) => adapter.known(await tools.sosl(adapter.sosl(search))),
    },
  ).catch(() => "None");
};
