import type { Dimension, EpisodeRecord } from "../../log/index.js";
import { elide, pythonRepr } from "../../util/index.js";
import { describeAction } from "../compact.js";
import { type ReportResults, resultsDimensions, type TaskEntry } from "./input.js";

/** How many characters of an observation the compact trajectory keeps (as `compactTrajectory`). */
export const COMPACT_CHARS = 300;

/** One purple turn as the views print it. */
export interface StepView {
  readonly turn: number;
  /** The action: in full from the log, else as the results keep it (cut to 300 characters). */
  readonly action: string;
  /** Null when the turn had no observation (an answer, an unusable reply). */
  readonly ok: boolean | null;
  /** The observation cut to 300 characters, as the results keep it. */
  readonly observation: string | null;
  /** The whole observation, from the log, when it is longer than the cut one. */
  readonly fullObservation: string | null;
  /** What the purple sent, from the log, when it was not a usable action. */
  readonly rawReply: string | null;
  readonly rows: number | null;
  readonly purpleMs: number;
  readonly greenMs: number;
  readonly sentTokens: number;
  readonly receivedTokens: number;
  readonly reportedUsage: { readonly input: number; readonly output: number } | null;
  readonly warnings: readonly string[];
}

export interface DimensionView {
  readonly name: Dimension;
  readonly value: number | null;
  /** Why the dimension does not apply (null value), from `not_applicable`. */
  readonly reason: string | null;
}

export type EntropyEvents = TaskEntry["entropy_events"];

/** Everything the views say about one episode: the results' entry, completed from the log when there is one. */
export interface EpisodeView {
  readonly idx: string;
  /** 1-based place in the results' list. */
  readonly position: number;
  readonly category: string;
  readonly rewardMetric: string | null;
  readonly query: string;
  readonly success: boolean;
  readonly crmReward: number;
  readonly totalScore: number;
  readonly termination: string;
  readonly answer: string | null;
  readonly expected: string | null;
  readonly parsedAnswer: readonly string[] | null;
  readonly judge: TaskEntry["judge"] | null;
  readonly dimensions: readonly DimensionView[];
  readonly error: string | null;
  readonly unscored: string | null;
  readonly warnings: readonly string[];
  readonly metrics: TaskEntry["metrics"] | null;
  readonly timing: TaskEntry["timing"] | null;
  readonly optimum: TaskEntry["optimum"] | null;
  readonly entropy: EntropyEvents;
  readonly touchedByDrift: boolean;
  readonly touchedByRot: boolean;
  readonly steps: readonly StepView[];
  /** Whether the answer, actions and observations come from the run log (in full). */
  readonly fromLog: boolean;
}

/** The episodes of a results object, in its order, each completed from its log record when `episodes` has it. */
export function episodeViews(results: ReportResults, episodes?: readonly EpisodeRecord[]): EpisodeView[] {
  const byIdx = new Map<string, EpisodeRecord[]>();
  for (const record of episodes ?? []) byIdx.set(String(record.task.idx), [...(byIdx.get(String(record.task.idx)) ?? []), record]);
  const dimensions = resultsDimensions(results);
  return results.results.map((entry, i) => episodeView(entry, i + 1, byIdx.get(entry.task_idx)?.shift(), dimensions));
}

function episodeView(entry: TaskEntry, position: number, record: EpisodeRecord | undefined, dimensions: readonly Dimension[]): EpisodeView {
  const events = entry.entropy_events;
  return {
    idx: entry.task_idx,
    position,
    category: entry.task_category,
    rewardMetric: entry.dataset_reference?.reward_metric ?? record?.task.rewardMetric ?? null,
    query: entry.task_query,
    success: entry.success,
    crmReward: entry.crm_reward,
    totalScore: entry.total_score,
    termination: entry.termination,
    answer: record ? (record.trajectory.answer ?? null) : (entry.agent_answer ?? null),
    expected: record ? pythonRepr(record.task.answer) : (entry.expected_answer ?? null),
    parsedAnswer: entry.original?.parsed_answer ?? null,
    judge: entry.judge ?? null,
    dimensions: dimensions.map((name) => ({ name, value: entry.dimension_scores[name] ?? null, reason: reasonFor(entry, name) })),
    error: entry.error ?? null,
    unscored: entry.unscored ?? null,
    warnings: entry.warnings ?? [],
    metrics: entry.metrics ?? null,
    timing: entry.timing ?? null,
    optimum: entry.optimum ?? null,
    entropy: events,
    touchedByDrift: events.renamed_in_text.length > 0 || events.drift_exposure.length > 0,
    touchedByRot: events.passages.length > 0 || events.distractor_records_seen > 0 || events.distractor_ids_in_answer.length > 0,
    steps: record ? stepsFromLog(record) : stepsFromResults(entry),
    fromLog: record !== undefined,
  };
}

function reasonFor(entry: TaskEntry, name: Dimension): string | null {
  if (entry.dimension_scores[name] !== undefined && entry.dimension_scores[name] !== null) return null;
  if (entry.not_applicable?.[name]) return entry.not_applicable[name];
  if (!(name in entry.dimension_scores)) return `the episode was not scored (${entry.unscored ?? entry.error ?? entry.termination})`;
  return null;
}

function stepsFromResults(entry: TaskEntry): StepView[] {
  return entry.trajectory.steps.map((step) => ({
    turn: step.turn,
    action: step.action,
    ok: step.ok ?? null,
    observation: step.observation ?? null,
    fullObservation: null,
    rawReply: null,
    rows: step.rows ?? null,
    purpleMs: step.purple_ms,
    greenMs: step.green_ms,
    sentTokens: step.sent_tokens,
    receivedTokens: step.received_tokens,
    reportedUsage: step.reported_usage ? { input: step.reported_usage.input_tokens, output: step.reported_usage.output_tokens } : null,
    warnings: [],
  }));
}

function stepsFromLog(record: EpisodeRecord): StepView[] {
  return record.trajectory.steps.map((step) => {
    const text = step.observation?.text;
    return {
      turn: step.turn,
      action: describeAction(step.action),
      ok: step.observation ? step.observation.ok : null,
      observation: text === undefined ? null : elide(text, COMPACT_CHARS),
      fullObservation: text !== undefined && text.length > COMPACT_CHARS ? text : null,
      rawReply: step.action.kind === "invalid" ? step.replyText : null,
      rows: step.observation?.rowCount ?? null,
      purpleMs: Math.round(step.purpleMs),
      greenMs: Math.round(step.greenMs * 10) / 10,
      sentTokens: step.sent.tokens,
      receivedTokens: step.received.tokens,
      reportedUsage: step.usage ? { input: step.usage.inputTokens, output: step.usage.outputTokens } : null,
      warnings: step.warnings ?? [],
    };
  });
}
