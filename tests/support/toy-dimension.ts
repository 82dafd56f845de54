import { type DimensionSpec, notApplicable, successOf } from "../../src/scoring/index.js";

/**
 * A new dimension is one module like this and one registration line (`registerDimension`): the
 * share of the episode's queries the org accepted, success-weighted like the others, and not
 * applicable to an episode that never queried. tests/e2e/dimension-toy.test.ts registers it.
 */
export const queryPrecision: DimensionSpec = {
  name: "QUERY_PRECISION",
  description: "S × the share of the queries that the org accepted; n/a without queries.",
  reads: ["verdict", "signals.queries", "signals.failedQueries"],
  defaultWeight: 0.1,
  whereNotApplicable: "renormalise",
  columns: { report: "PREC", validity: "PREC", leaderboard: "Query Precision" },
  score: ({ verdict, signals }) =>
    signals.queries > 0 ? (successOf(verdict) * (signals.queries - signals.failedQueries)) / signals.queries : notApplicable("the episode ran no query"),
};
