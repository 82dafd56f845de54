import type { Dimension, DimensionScores, EpisodeSignals, Optimum, Trajectory, TrajectoryStep, Weights } from "../log/index.js";
import { queryText } from "../protocol/index.js";
import { dimensionSpecs, type Verdict } from "./dimensions/index.js";

/** Signals of a trajectory: counts only, no judgement. */
export function measureSignals(trajectory: Trajectory): EpisodeSignals {
  const steps = trajectory.steps;
  const failedTool = (step: TrajectoryStep) => step.action.kind === "tool" && step.observation?.ok === false;
  const laterSucceeds = (index: number, predicate: (step: TrajectoryStep) => boolean) => steps.slice(index + 1).some(predicate);
  let errors = 0;
  let errorsRecovered = 0;
  steps.forEach((step, index) => {
    const action = step.action;
    if (failedTool(step) && action.kind === "tool") {
      errors++;
      // A failed call is recovered by a later successful call of the same tool (a SOQL error by a SOQL query that works).
      if (laterSucceeds(index, (later) => later.action.kind === "tool" && later.action.tool === action.tool && later.observation?.ok === true)) errorsRecovered++;
    } else if (action.kind === "invalid") {
      errors++;
      if (laterSucceeds(index, (later) => later.action.kind !== "invalid")) errorsRecovered++;
    }
  });
  const reported = steps.length > 0 && steps.every((step) => step.usage !== undefined);
  const status = (wanted: string) => trajectory.answerIds.filter((entry) => entry.status === wanted).length;
  return {
    turns: steps.length,
    queries: steps.filter((step) => queryText(step.action) !== undefined).length,
    failedQueries: steps.filter((step) => queryText(step.action) !== undefined && step.observation?.ok === false).length,
    toolCalls: steps.filter((step) => step.action.kind === "tool").length,
    invalidActions: steps.filter((step) => step.action.kind === "invalid").length,
    errors,
    errorsRecovered,
    tokens: steps.reduce((sum, step) => sum + step.sent.tokens + step.received.tokens, 0),
    reportedTokens: reported ? steps.reduce((sum, step) => sum + step.usage!.inputTokens + step.usage!.outputTokens, 0) : null,
    answerIds: trajectory.answerIds.length,
    answerIdsLive: status("live"),
    answerIdsDistractor: status("distractor"),
    answerIdsAbsent: status("absent"),
  };
}

/** The dimensions of one episode, and why each one that is null does not apply. */
export interface DimensionOutcome {
  readonly dimensions: DimensionScores;
  readonly notApplicable: Record<Dimension, string>;
}

/**
 * Every registered dimension of one episode (src/scoring/dimensions/, one module each). They are
 * success-weighted: FUNCTIONAL is CRMArena-Pro's reward, every other dimension measures a
 * quality of *successful* work, in the spirit of SPL (success weighted by path length), so a
 * failed episode scores 0 wherever a dimension applies and doing nothing earns nothing beyond
 * what its lucky answers earn. A dimension without evidence in the episode is null (not
 * applicable), never a free 100. docs/scoring.md gives each formula with an example.
 */
export function scoreDimensions(trajectory: Trajectory, signals: EpisodeSignals, verdict: Verdict, optimum: Optimum, driftInRun: boolean): DimensionOutcome {
  const evidence = { signals, verdict, optimum, firstMessageTokens: trajectory.firstMessageTokens, driftExposure: trajectory.entropy.driftExposure, driftInRun };
  const dimensions: DimensionScores = {};
  const notApplicable: Record<Dimension, string> = {};
  for (const spec of dimensionSpecs()) {
    const share = spec.score(evidence);
    if (typeof share === "number") dimensions[spec.name] = 100 * share;
    else {
      dimensions[spec.name] = null;
      notApplicable[spec.name] = share.notApplicable;
    }
  }
  return { dimensions, notApplicable };
}

/**
 * The weighted mean of the registered dimensions, renormalised over those that apply. A
 * dimension the run's world decides (DRIFT_ADAPTATION) is left out where it does not apply; one
 * whose evidence the purple controls (ERROR_RECOVERY applies when it makes an error,
 * HALLUCINATION_RATE when it names an Id) counts as the episode's success there, what a perfect
 * record earns where it applies: were they left out, a successful episode could raise its total
 * by opting in (a provoked error it then "recovers" from, an unneeded live Id) and lower it by
 * nothing. A dimension the weights do not name (a log written before it was added) weighs 0, so
 * its run's totals stay what they were.
 */
export function totalScore(scores: DimensionScores, weights: Weights, passed: boolean): number {
  let weighted = 0;
  let weight = 0;
  for (const spec of dimensionSpecs()) {
    const value = scores[spec.name] ?? (spec.whereNotApplicable === "success" ? (passed ? 100 : 0) : null);
    const dimensionWeight = weights[spec.name] ?? 0;
    if (value === null) continue;
    weighted += dimensionWeight * value;
    weight += dimensionWeight;
  }
  // A weighted mean of values in [0, 100] is in [0, 100]; floating point can overshoot by an ulp (100.00000000000001).
  return weight === 0 ? 0 : Math.min(100, Math.max(0, weighted / weight));
}

/** Fields a category needs that drift renamed, as `Object.Field`, from the run's rename map. */
export function driftExposure(neededFields: readonly string[], renamed: ReadonlySet<string>): string[] {
  return neededFields.filter((field) => renamed.has(field));
}
