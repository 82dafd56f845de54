import { type DimensionSpec, notApplicable, successOf } from "./spec.js";

/** Success where drift renamed a field the task needs; applies by the run's world, so it is left out of the total elsewhere. */
export const driftAdaptation: DimensionSpec = {
  name: "DRIFT_ADAPTATION",
  description: "Success on the tasks whose needed fields drift renamed; n/a where drift touched none of them.",
  reads: ["verdict", "driftExposure", "driftInRun"],
  defaultWeight: 0.2,
  whereNotApplicable: "renormalise",
  columns: { report: "DRIFT", validity: "DRIFT", leaderboard: "Drift Adapt" },
  score: ({ verdict, driftExposure, driftInRun }) =>
    driftExposure.length > 0 ? successOf(verdict) : notApplicable(driftInRun ? "drift renamed none of the fields this task needs" : "no schema drift in this run"),
};
