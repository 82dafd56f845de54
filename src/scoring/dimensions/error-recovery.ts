import { type DimensionSpec, notApplicable, successOf } from "./spec.js";

/** The share of errors followed by a success of the same kind; the purple opts in by erring, so where it does not the total counts it as S. */
export const errorRecovery: DimensionSpec = {
  name: "ERROR_RECOVERY",
  description: "S × the share of tool errors and unusable replies followed by a success of the same kind; n/a without errors.",
  reads: ["verdict", "signals.errors", "signals.errorsRecovered"],
  defaultWeight: 0.08,
  whereNotApplicable: "success",
  columns: { report: "ERROR", validity: "ERROR", leaderboard: "Error Rec" },
  score: ({ verdict, signals }) => (signals.errors > 0 ? (successOf(verdict) * signals.errorsRecovered) / signals.errors : notApplicable("no tool errors or unusable replies")),
};
