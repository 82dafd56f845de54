import { actionContents, type Trajectory } from "../assessment/trajectory.js";
import type { TaskRecord } from "../tasks/schema.js";
import { measureSignals, scoreDimensions, totalScore, type DimensionScores, type EpisodeSignals } from "./dimensions.js";
import type { Judge } from "./judge.js";
import { scoreOriginal, type OriginalScore } from "./original.js";

/** Everything scoring says about one episode. */
export interface EpisodeScore {
  readonly original: OriginalScore;
  readonly signals: EpisodeSignals;
  readonly dimensions: DimensionScores;
  readonly totalScore: number;
}

/** Scores an episode from its trajectory alone (plus the task's ground truth and the judge's verdicts). */
export async function scoreEpisode(task: TaskRecord, trajectory: Trajectory, judge: Judge): Promise<EpisodeScore> {
  const original = await scoreOriginal(task, trajectory.answer, actionContents(trajectory), judge);
  const signals = measureSignals(trajectory);
  const dimensions = scoreDimensions(trajectory, signals, original.reward);
  return { original, signals, dimensions, totalScore: totalScore(dimensions) };
}
