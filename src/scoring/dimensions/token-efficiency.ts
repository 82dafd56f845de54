import { type DimensionSpec, efficiency, successOf } from "./spec.js";

/** Transcript tokens (counted by the green) against the task message, the category's measured tokens and one look around. */
export const tokenEfficiency: DimensionSpec = {
  name: "TOKEN_EFFICIENCY",
  description: "S × the path term of the transcript's tokens against the task message + the category's optimum + one describe_schema.",
  reads: ["verdict", "signals.tokens", "optimum", "firstMessageTokens"],
  defaultWeight: 0.12,
  whereNotApplicable: "renormalise",
  columns: { report: "TOKEN", validity: "TOKEN", leaderboard: "Token Eff" },
  score: ({ verdict, signals, optimum, firstMessageTokens }) =>
    successOf(verdict) * efficiency(firstMessageTokens + optimum.tokens + (optimum.lookAroundTokens ?? 0), signals.tokens),
};
