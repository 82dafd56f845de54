import {
  DIMENSIONS,
  type Dimension,
  type DimensionScores,
  type EpisodeSignals,
  type Optimum,
  type OriginalScore,
  type Trajectory,
  type TrajectoryStep,
  type Weights,
} from "../log/index.js";
import { queryText } from "../protocol/index.js";

/**
 * The predecessor's published weights, which the leaderboard's history was scored with. A run
 * may set others (config `weights`); the weights used are written into every result.
 */
export const DEFAULT_WEIGHTS: Weights = {
  FUNCTIONAL: 0.3,
  DRIFT_ADAPTATION: 0.2,
  TOKEN_EFFICIENCY: 0.12,
  QUERY_EFFICIENCY: 0.12,
  ERROR_RECOVERY: 0.08,
  TRAJECTORY_EFFICIENCY: 0.1,
  HALLUCINATION_RATE: 0.08,
};

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

/** The verdict the dimensions weigh by: the benchmark's `success` (or CRMArena-Pro's, in logs older than it). */
export type Verdict = Pick<OriginalScore, "reward" | "passed">;

/** The seven dimensions of one episode, and why each one that is null does not apply. */
export interface DimensionOutcome {
  readonly dimensions: DimensionScores;
  readonly notApplicable: Partial<Record<Dimension, string>>;
}

/**
 * The path term: 1 within the optimum, then the square root of SPL's ratio (Anderson et al. 2018).
 * The square root keeps the ranking (more steps, less efficiency) while a careful agent's extra
 * look at the data costs a few points, not a quarter of the dimension: twice the optimum scores
 * 71, four times 50.
 */
const efficiency = (optimum: number, used: number) => (used <= optimum ? 1 : Math.sqrt(optimum / used));

/**
 * The slack a careful agent gets beyond the category's plan: one more turn and one more query
 * (a second look at the schema, a query that failed and was fixed) and the tokens of one more
 * describe_schema. The plan is the least an agent needs; looking around once is not waste.
 */
export const LOOK_AROUND = { turns: 1, queries: 1 } as const;

/**
 * Success-weighted dimensions. FUNCTIONAL is CRMArena-Pro's reward. Every other dimension
 * measures a quality of *successful* work, in the spirit of SPL (success weighted by path
 * length): a failed episode scores 0 wherever the dimension applies, so doing nothing earns
 * nothing beyond what its lucky answers earn. A dimension without evidence in the episode is
 * null (not applicable), never a free 100. docs/scoring.md gives each formula with an example.
 */
export function scoreDimensions(trajectory: Trajectory, signals: EpisodeSignals, verdict: Verdict, optimum: Optimum, driftInRun: boolean): DimensionOutcome {
  const success = verdict.passed ? 1 : 0;
  const notApplicable: Partial<Record<Dimension, string>> = {};
  const applies = (dimension: Dimension, condition: boolean, reason: string, value: () => number): number | null => {
    if (condition) return 100 * value();
    notApplicable[dimension] = reason;
    return null;
  };
  const budget = trajectory.firstMessageTokens + optimum.tokens + (optimum.lookAroundTokens ?? 0);
  const exposure = trajectory.entropy.driftExposure;
  const dimensions: DimensionScores = {
    FUNCTIONAL: 100 * verdict.reward,
    DRIFT_ADAPTATION: applies(
      "DRIFT_ADAPTATION",
      exposure.length > 0,
      driftInRun ? "drift renamed none of the fields this task needs" : "no schema drift in this run",
      () => success,
    ),
    TOKEN_EFFICIENCY: 100 * success * efficiency(budget, signals.tokens),
    QUERY_EFFICIENCY: 100 * success * efficiency(optimum.queries + LOOK_AROUND.queries + 1, signals.queries + 1),
    ERROR_RECOVERY: applies("ERROR_RECOVERY", signals.errors > 0, "no tool errors or unusable replies", () => (success * signals.errorsRecovered) / signals.errors),
    TRAJECTORY_EFFICIENCY: 100 * success * efficiency(optimum.turns + LOOK_AROUND.turns, signals.turns),
    HALLUCINATION_RATE: applies("HALLUCINATION_RATE", signals.answerIds > 0, "the answer names no record Id", () => (success * signals.answerIdsLive) / signals.answerIds),
  };
  return { dimensions, notApplicable };
}

/**
 * Dimensions whose evidence the purple controls: an episode makes ERROR_RECOVERY apply by making
 * an error, HALLUCINATION_RATE by naming an Id. Were they left out of the total when they do not
 * apply, a successful episode could raise its total by opting in (a provoked error it then
 * "recovers" from, an unneeded live Id) and lower it by nothing. So in the total an inapplicable
 * one counts as what the episode earns where it applies with a perfect record: its success. The
 * dimension itself stays null (its average is over the episodes with evidence).
 */
const OPT_IN: ReadonlySet<Dimension> = new Set<Dimension>(["ERROR_RECOVERY", "HALLUCINATION_RATE"]);

/**
 * The weighted mean of the dimensions, renormalised over those that apply. DRIFT_ADAPTATION
 * applies by the run's world, not the purple's choice, so without drift exposure it is left out;
 * an opt-in dimension without evidence counts as FUNCTIONAL's success (see OPT_IN).
 */
export function totalScore(scores: DimensionScores, weights: Weights, passed: boolean): number {
  let weighted = 0;
  let weight = 0;
  for (const dimension of DIMENSIONS) {
    const value = scores[dimension] ?? (OPT_IN.has(dimension) ? (passed ? 100 : 0) : null);
    if (value === null) continue;
    weighted += weights[dimension] * value;
    weight += weights[dimension];
  }
  // A weighted mean of values in [0, 100] is in [0, 100]; floating point can overshoot by an ulp (100.00000000000001).
  return weight === 0 ? 0 : Math.min(100, Math.max(0, weighted / weight));
}

/** Fields a category needs that drift renamed, as `Object.Field`, from the run's rename map. */
export function driftExposure(neededFields: readonly string[], renamed: ReadonlySet<string>): string[] {
  return neededFields.filter((field) => renamed.has(field));
}
