import type { EpisodeScore, EpisodeTask, Trajectory, Weights } from "../log/index.js";
import { queryText, shownTexts } from "../protocol/index.js";
import { type Calibration, optimumFor } from "./calibration.js";
import { measureSignals, scoreDimensions, totalScore } from "./dimensions.js";
import type { Judge } from "./judge.js";
import { scoreOriginal } from "./original.js";
import { type SuccessEvidence, scoreSuccess } from "./success.js";

/** What an episode is scored against, the same for every episode of a run. */
export interface ScoringContext {
  readonly calibration: Calibration;
  readonly weights: Weights;
  /** Did drift rename anything in this run (for the reason DRIFT_ADAPTATION does not apply)? */
  readonly driftInRun: boolean;
}

/** The content of each action as CRMArena-Pro records it: executed queries and answers. */
export function actionContents(trajectory: Trajectory): string[] {
  return trajectory.steps.flatMap((step) => {
    if (step.action.kind === "answer") return [step.action.answer];
    const query = queryText(step.action);
    return query === undefined ? [] : [query];
  });
}

/** Scores an episode from its trajectory alone (plus the task's ground truth and the judge's verdicts). */
export async function scoreEpisode(task: EpisodeTask, trajectory: Trajectory, judge: Judge, context: ScoringContext): Promise<EpisodeScore> {
  const original = await scoreOriginal({ task: task.category, answer: task.answer, reward_metric: task.rewardMetric }, trajectory.answer, actionContents(trajectory), judge);
  const signals = measureSignals(trajectory);
  const { fields: _fields, ...optimum } = optimumFor(context.calibration, task.category);
  // The benchmark's verdict decides success and weighs the dimensions; `original` stays CRMArena-Pro's.
  const success = await scoreSuccess(
    { task: task.category, answer: task.answer, reward_metric: task.rewardMetric },
    trajectory.answer,
    original,
    evidenceOf(task, trajectory),
    judge,
  );
  const { dimensions, notApplicable } = scoreDimensions(trajectory, signals, success, optimum, context.driftInRun);
  return { original, success, signals, optimum, dimensions, notApplicable, totalScore: totalScore(dimensions, context.weights, success.passed) };
}

/**
 * Everything the user was shown: each part (text and data) of each reply that reached the user,
 * in order (the final answer's reply; in interactive mode every respond the user heard).
 */
export function shownToUser(trajectory: Trajectory): string[] {
  return trajectory.steps.flatMap((step) => ((step.toUser ?? step.action.kind === "answer") ? shownTexts(step.replyText, step.replyData) : []));
}

/** What the purple saw: its task's texts (what it may echo) and every observation of the org (what it must not give away); and what the user saw. */
function evidenceOf(task: EpisodeTask, trajectory: Trajectory): SuccessEvidence {
  return {
    taskText: [task.query, task.requiredContext ?? ""].join("\n"),
    observations: trajectory.steps.flatMap((step) => (step.observation ? [step.observation.text] : [])),
    shown: shownToUser(trajectory),
  };
}
