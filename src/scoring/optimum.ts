import { readFileSync } from "node:fs";
import { z } from "zod";
import { queryText, type Trajectory } from "../assessment/trajectory.js";
import { DATA_DIR } from "../data/paths.js";

/**
 * The fewest data queries (SOQL, SOSL or SQL) a task of each category needs, measured from the
 * reference solver's trajectories on the sample tasks (`entropic-crmarena calibrate`).
 */
const OptimumFileSchema = z.object({
  source: z.string(),
  categories: z.record(z.string(), z.object({ queries: z.number().int().min(0) })),
});
export type OptimumFile = z.infer<typeof OptimumFileSchema>;

export const OPTIMUM_FILE = `${DATA_DIR}optimum.json`;
/** Categories the solver has not measured (other task sets) count one query as the optimum. */
const DEFAULT_OPTIMAL_QUERIES = 1;

let loaded: OptimumFile | undefined;

function optimumFile(): OptimumFile {
  loaded ??= OptimumFileSchema.parse(JSON.parse(readFileSync(OPTIMUM_FILE, "utf8")));
  return loaded;
}

export function optimalQueries(category: string): number {
  return optimumFile().categories[category]?.queries ?? DEFAULT_OPTIMAL_QUERIES;
}

/** The optimum per category from a set of (solver) trajectories: the fewest data queries among its tasks. */
export function measureOptimum(trajectories: readonly Trajectory[], source: string): OptimumFile {
  const categories: Record<string, { queries: number }> = {};
  for (const trajectory of trajectories) {
    const queries = trajectory.steps.filter((step) => queryText(step.action) !== undefined).length;
    const current = categories[trajectory.category];
    if (!current || queries < current.queries) categories[trajectory.category] = { queries };
  }
  return { source, categories: Object.fromEntries(Object.entries(categories).sort(([a], [b]) => a.localeCompare(b))) };
}
