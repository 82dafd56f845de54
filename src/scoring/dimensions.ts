import { queryText, type Trajectory, type TrajectoryStep } from "../assessment/trajectory.js";
import { idsIn } from "../util/salesforce-id.js";
import { optimalQueries } from "./optimum.js";

/** The seven entropic dimensions, each 0-100 where higher is better. */
export const DIMENSIONS = [
  "FUNCTIONAL",
  "DRIFT_ADAPTATION",
  "TOKEN_EFFICIENCY",
  "QUERY_EFFICIENCY",
  "ERROR_RECOVERY",
  "TRAJECTORY_EFFICIENCY",
  "HALLUCINATION_RATE",
] as const;
export type Dimension = (typeof DIMENSIONS)[number];
export type DimensionScores = Record<Dimension, number>;

/** How much each dimension weighs in `total_score` (sums to 1). */
export const DIMENSION_WEIGHTS: DimensionScores = {
  FUNCTIONAL: 0.4,
  DRIFT_ADAPTATION: 0.15,
  HALLUCINATION_RATE: 0.15,
  ERROR_RECOVERY: 0.1,
  QUERY_EFFICIENCY: 0.1,
  TRAJECTORY_EFFICIENCY: 0.05,
  TOKEN_EFFICIENCY: 0.05,
};

/** Tokens allowed per necessary turn on top of the task message before TOKEN_EFFICIENCY drops. */
export const TOKENS_PER_TURN_ALLOWANCE = 1_000;

/** Errors that mean "that name is not in the schema" (SOQL/SOSL and SQL wordings), not type or syntax errors. */
const SCHEMA_ERROR = /No such column|Didn't understand relationship|sObject type '.*' is not supported|no such table|has no column/i;

/** Signals measured from a trajectory; the dimensions are functions of these only. */
export interface EpisodeSignals {
  readonly turns: number;
  readonly queries: number;
  readonly failedQueries: number;
  readonly toolCalls: number;
  readonly invalidActions: number;
  readonly schemaErrors: number;
  readonly schemaErrorsRecovered: number;
  readonly errors: number;
  readonly errorsRecovered: number;
  readonly tokens: number;
  readonly tokenSource: "reported" | "counted";
  readonly answerIds: number;
  readonly groundedAnswerIds: number;
}

export function measureSignals(trajectory: Trajectory): EpisodeSignals {
  const steps = trajectory.steps;
  const isQuery = (step: TrajectoryStep) => queryText(step.action) !== undefined;
  const isTool = (step: TrajectoryStep) => step.action.kind === "tool";
  const failedTool = (step: TrajectoryStep) => isTool(step) && step.observation?.ok === false;
  const schemaError = (step: TrajectoryStep) => failedTool(step) && SCHEMA_ERROR.test(`${step.observation?.code} ${step.observation?.message}`);
  const laterSucceeds = (index: number, predicate: (step: TrajectoryStep) => boolean) =>
    steps.slice(index + 1).some((step) => predicate(step));
  const successfulQuery = (step: TrajectoryStep) => isQuery(step) && step.observation?.ok === true;
  const successfulTool = (step: TrajectoryStep) => isTool(step) && step.observation?.ok === true;
  const validAction = (step: TrajectoryStep) => step.action.kind !== "invalid";

  let schemaErrors = 0;
  let schemaErrorsRecovered = 0;
  let errors = 0;
  let errorsRecovered = 0;
  steps.forEach((step, index) => {
    if (schemaError(step)) {
      schemaErrors++;
      if (laterSucceeds(index, successfulQuery)) schemaErrorsRecovered++;
    }
    if (failedTool(step)) {
      errors++;
      // Recovery is a later success of the same kind of action: a failed SOQL query by a SOQL query that works.
      const tool = step.action.kind === "tool" ? step.action.tool : undefined;
      if (laterSucceeds(index, (later) => successfulTool(later) && later.action.kind === "tool" && later.action.tool === tool)) errorsRecovered++;
    } else if (step.action.kind === "invalid") {
      errors++;
      if (laterSucceeds(index, validAction)) errorsRecovered++;
    }
  });

  const reported = steps.length > 0 && steps.every((step) => step.usage !== undefined);
  const tokens = reported
    ? steps.reduce((sum, step) => sum + step.usage!.inputTokens + step.usage!.outputTokens, 0)
    : steps.reduce((sum, step) => sum + step.sent.tokens + step.received.tokens, 0);

  const answerIds = idsIn(trajectory.answer ?? "");
  // An Id is grounded when the purple was shown it, and it is not a deleted (distractor) record.
  const distractors = new Set(trajectory.entropy.distractorIdsInAnswer);
  const grounded = answerIds.filter((id) => trajectory.shownText.includes(id) && !distractors.has(id));

  return {
    turns: steps.length,
    queries: steps.filter(isQuery).length,
    failedQueries: steps.filter((step) => isQuery(step) && step.observation?.ok === false).length,
    toolCalls: steps.filter(isTool).length,
    invalidActions: steps.filter((step) => step.action.kind === "invalid").length,
    schemaErrors,
    schemaErrorsRecovered,
    errors,
    errorsRecovered,
    tokens,
    tokenSource: reported ? "reported" : "counted",
    answerIds: answerIds.length,
    groundedAnswerIds: grounded.length,
  };
}

const ratio = (part: number, whole: number) => (whole === 0 ? 100 : (100 * part) / whole);
const capped = (optimum: number, used: number) => (used <= optimum ? 100 : (100 * optimum) / used);

/** The seven dimensions of one episode; `reward` is the CRMArena-Pro reward (0-1). */
export function scoreDimensions(trajectory: Trajectory, signals: EpisodeSignals, reward: number): DimensionScores {
  const optimum = optimalQueries(trajectory.category);
  const answered = trajectory.termination === "answered";
  const tokenBudget =
    signals.tokenSource === "reported"
      ? (trajectory.firstMessageTokens + TOKENS_PER_TURN_ALLOWANCE) * (optimum + 1)
      : trajectory.firstMessageTokens + TOKENS_PER_TURN_ALLOWANCE * (optimum + 1);
  let queryEfficiency: number;
  if (optimum === 0) queryEfficiency = 100 / (1 + signals.queries);
  else if (signals.queries === 0) queryEfficiency = 0;
  else queryEfficiency = capped(optimum, signals.queries);
  return {
    FUNCTIONAL: 100 * reward,
    DRIFT_ADAPTATION: ratio(signals.schemaErrorsRecovered, signals.schemaErrors),
    TOKEN_EFFICIENCY: signals.tokens === 0 ? 0 : capped(tokenBudget, signals.tokens),
    QUERY_EFFICIENCY: queryEfficiency,
    ERROR_RECOVERY: ratio(signals.errorsRecovered, signals.errors),
    TRAJECTORY_EFFICIENCY: answered ? capped(optimum + 1, signals.turns) : 0,
    HALLUCINATION_RATE: ratio(signals.groundedAnswerIds, signals.answerIds),
  };
}

export function totalScore(scores: DimensionScores): number {
  return DIMENSIONS.reduce((sum, dimension) => sum + DIMENSION_WEIGHTS[dimension] * scores[dimension], 0);
}
