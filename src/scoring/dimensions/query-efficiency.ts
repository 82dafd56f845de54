import { type DimensionSpec, efficiency, LOOK_AROUND, successOf } from "./spec.js";

/** Queries against the careful plan's, one extra allowed; + 1 on both sides so that a plan without queries still has a ratio. */
export const queryEfficiency: DimensionSpec = {
  name: "QUERY_EFFICIENCY",
  description: "S × the path term of the queries + 1 against the plan's queries + one look around + 1.",
  reads: ["verdict", "signals.queries", "optimum"],
  defaultWeight: 0.12,
  whereNotApplicable: "renormalise",
  columns: { report: "QUERY", validity: "QUERY", leaderboard: "Query Eff" },
  score: ({ verdict, signals, optimum }) => successOf(verdict) * efficiency(optimum.queries + LOOK_AROUND.queries + 1, signals.queries + 1),
};
