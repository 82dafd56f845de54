import type { DimensionSpec } from "./spec.js";

/** CRMArena-Pro's reward, as the benchmark's verdict gives it: the one dimension that is not success-weighted. */
export const functional: DimensionSpec = {
  name: "FUNCTIONAL",
  description: "The task's reward (1 or 0 by the benchmark's verdict): did the purple answer correctly?",
  reads: ["verdict"],
  defaultWeight: 0.3,
  whereNotApplicable: "renormalise",
  columns: { report: "FUNC", validity: "FUNC", leaderboard: "Functional" },
  score: ({ verdict }) => verdict.reward,
};
