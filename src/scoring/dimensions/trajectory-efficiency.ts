import { type DimensionSpec, efficiency, LOOK_AROUND, successOf } from "./spec.js";

/** Turns against the careful plan's, one look around allowed. */
export const trajectoryEfficiency: DimensionSpec = {
  name: "TRAJECTORY_EFFICIENCY",
  description: "S × the path term of the turns against the plan's turns + one look around.",
  reads: ["verdict", "signals.turns", "optimum"],
  defaultWeight: 0.1,
  whereNotApplicable: "renormalise",
  columns: { report: "TRAJ", validity: "TRAJ", leaderboard: "Trajectory Eff" },
  score: ({ verdict, signals, optimum }) => successOf(verdict) * efficiency(optimum.turns + LOOK_AROUND.turns, signals.turns),
};
