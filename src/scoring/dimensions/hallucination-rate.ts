import { type DimensionSpec, notApplicable, successOf } from "./spec.js";

/** The share of the answer's Ids that are live records; the purple opts in by naming an Id, so where it names none the total counts it as S. */
export const hallucinationRate: DimensionSpec = {
  name: "HALLUCINATION_RATE",
  description: "S × the share of the record Ids the answer names that are live records of the org (not absent, not rot's distractors); n/a without Ids.",
  reads: ["verdict", "signals.answerIds", "signals.answerIdsLive"],
  defaultWeight: 0.08,
  whereNotApplicable: "success",
  // The validity table's column has been HALL since it was first written; the report's HALLU.
  columns: { report: "HALLU", validity: "HALL", leaderboard: "No Hallucination" },
  score: ({ verdict, signals }) => (signals.answerIds > 0 ? (successOf(verdict) * signals.answerIdsLive) / signals.answerIds : notApplicable("the answer names no record Id")),
};
