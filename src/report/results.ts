import type { AssessmentConfig, AssessmentRun, DatasetKind, TaskOutcome } from "../assessment/index.js";
import { DIMENSIONS, type DimensionScores, type Judge, type VerdictSource } from "../scoring/index.js";
import type { RewardMetric } from "../tasks/schema.js";
import { pythonRepr } from "../util/python-literal.js";
import { naiveUtcIso, pyRound } from "../util/python-round.js";
import { ROT_PASSAGES } from "../entropy/index.js";
import { compactTrajectory } from "./compact.js";

/** The results layout version the leaderboard's queries were written against. */
export const RESULTS_LAYOUT_VERSION = "2.0.0";

export interface ResultsContext {
  readonly participantUrl: string;
  readonly config: AssessmentConfig;
  readonly ignoredConfigKeys: readonly string[];
  readonly dataset: DatasetKind;
  readonly taskSource: string;
  readonly orgSource: string;
  readonly run: AssessmentRun;
  readonly versions: Readonly<Record<string, string>>;
  readonly judge: Judge;
  readonly trajectoriesFile?: string;
}

const seconds = (ms: number) => pyRound(ms / 1000, 2);
const percent = (part: number, whole: number) => (whole === 0 ? 0 : pyRound((100 * part) / whole, 1));

function passed(outcome: TaskOutcome): boolean {
  return outcome.score?.original.passed ?? false;
}

function taskEntry(outcome: TaskOutcome, split: string) {
  const { task, trajectory, score } = outcome;
  const head = {
    task_idx: String(task.idx),
    task_category: task.task,
    task_query: task.query,
    dataset_reference: { source: "Salesforce/CRMArenaPro", split, idx: task.idx, reward_metric: task.reward_metric },
  };
  if (!score) {
    return {
      ...head,
      crm_reward: 0,
      total_score: 0,
      dimension_scores: {},
      error: trajectory.error ?? trajectory.termination,
      success: false,
      termination: trajectory.termination,
      entropy_events: entropyEvents(trajectory),
      trajectory: compactTrajectory(trajectory),
    };
  }
  const success = score.original.passed;
  const dimensionScores = roundScores(score.dimensions);
  const timing = {
    total_seconds: seconds(trajectory.totalMs),
    purple_agent_seconds: seconds(trajectory.purpleMs),
    green_agent_seconds: seconds(trajectory.greenMs),
    purple_agent_percent: percent(trajectory.purpleMs, trajectory.totalMs),
  };
  return {
    ...head,
    entropic: { crm_reward: score.original.reward, total_score: score.totalScore, dimension_scores: dimensionScores, success },
    crm_reward: score.original.reward,
    total_score: score.totalScore,
    dimension_scores: dimensionScores,
    agent_answer: (trajectory.answer ?? "").slice(0, 500),
    expected_answer: pythonRepr(task.answer).slice(0, 200),
    success,
    metrics: {
      turns: score.signals.turns,
      tokens_estimate: score.signals.tokens,
      tool_calls: score.signals.toolCalls,
      queries: score.signals.queries,
      failed_queries: score.signals.failedQueries,
      invalid_actions: score.signals.invalidActions,
      token_source: score.signals.tokenSource,
    },
    timing,
    original: { reward: score.original.reward, parsed_answer: score.original.parsedAnswer },
    termination: trajectory.termination,
    entropy_events: entropyEvents(trajectory),
    judge: {
      method: score.original.judge.method,
      source: score.original.judge.source,
      model: score.original.judge.model,
      raw_output: score.original.judge.rawOutput,
      ...(score.original.judge.fallback ? { fallback: score.original.judge.fallback } : {}),
    },
    trajectory: compactTrajectory(trajectory),
  };
}

/** The drift and rot events that touched a task, for the per-task entry. */
function entropyEvents(trajectory: TaskOutcome["trajectory"]) {
  return {
    renamed_in_text: trajectory.entropy.renamedInText,
    passages: trajectory.entropy.passages.length,
    distractor_records_seen: trajectory.entropy.distractorIdsSeen.length,
    distractor_ids_in_answer: trajectory.entropy.distractorIdsInAnswer,
  };
}

function roundScores(scores: DimensionScores): DimensionScores {
  return Object.fromEntries(DIMENSIONS.map((dimension) => [dimension, pyRound(scores[dimension], 2)])) as DimensionScores;
}

function summarise(outcomes: readonly TaskOutcome[]) {
  const total = outcomes.length;
  const totalPassed = outcomes.filter(passed).length;
  const scoreSum = outcomes.reduce((sum, outcome) => sum + (outcome.score?.totalScore ?? 0), 0);
  return {
    pass_rate: total === 0 ? 0 : pyRound(totalPassed / total, 3),
    total_tasks: total,
    total_passed: totalPassed,
    avg_score: total === 0 ? 0 : pyRound(scoreSum / total, 1),
  };
}

function dimensionAverages(outcomes: readonly TaskOutcome[]): Record<string, number | null> {
  const scored = outcomes.filter((outcome) => outcome.score);
  return Object.fromEntries(
    DIMENSIONS.map((dimension) => [
      dimension,
      scored.length === 0 ? null : pyRound(scored.reduce((sum, outcome) => sum + outcome.score!.dimensions[dimension], 0) / scored.length, 1),
    ]),
  );
}

function byCategory(outcomes: readonly TaskOutcome[]) {
  const groups = new Map<string, TaskOutcome[]>();
  for (const outcome of outcomes) groups.set(outcome.task.task, [...(groups.get(outcome.task.task) ?? []), outcome]);
  return Object.fromEntries(
    [...groups].map(([category, group]) => {
      const passedCount = group.filter(passed).length;
      const scoreSum = group.reduce((sum, outcome) => sum + (outcome.score?.totalScore ?? 0), 0);
      return [category, { count: group.length, passed: passedCount, total_score: scoreSum, pass_rate: passedCount / group.length, avg_score: scoreSum / group.length }];
    }),
  );
}

/** The `original` block: CRMArena-Pro accuracy over the tasks that were scored. */
function originalBlock(outcomes: readonly TaskOutcome[], skip: boolean) {
  if (skip) {
    return { scores: { accuracy: null, accuracy_percent: null }, summary: { total_tasks: null, passed: null, failed: null }, by_category: {}, by_metric_type: {} };
  }
  const scored = outcomes.filter((outcome) => outcome.score);
  const passedCount = scored.filter(passed).length;
  const accuracy = scored.length === 0 ? 0 : passedCount / scored.length;
  const tally = (key: (outcome: TaskOutcome) => string) => {
    const groups = new Map<string, { total: number; passed: number }>();
    for (const outcome of scored) {
      const group = groups.get(key(outcome)) ?? { total: 0, passed: 0 };
      group.total++;
      if (passed(outcome)) group.passed++;
      groups.set(key(outcome), group);
    }
    return Object.fromEntries([...groups].map(([name, group]) => [name, { ...group, accuracy: pyRound(group.passed / group.total, 4) }]));
  };
  return {
    scores: { accuracy: pyRound(accuracy, 4), accuracy_percent: pyRound(accuracy * 100, 2) },
    summary: { total_tasks: scored.length, passed: passedCount, failed: scored.length - passedCount },
    by_category: tally((outcome) => outcome.task.task),
    by_metric_type: tally((outcome) => outcome.task.reward_metric satisfies RewardMetric),
  };
}

/** Which judge decided, how often each kind of verdict was used, and what the models cost. */
function judgeSummary(judge: Judge, outcomes: readonly TaskOutcome[]) {
  const counts: Record<VerdictSource | "none", number> = { llm: 0, cache: 0, heuristic: 0, none: 0 };
  for (const outcome of outcomes) if (outcome.score) counts[outcome.score.original.judge.source]++;
  const usage = judge.usage();
  return {
    mode: judge.mode,
    primary_model: judge.models.primary,
    cheap_model: judge.models.cheap,
    verdicts: counts,
    usage: usage
      ? Object.fromEntries(Object.entries(usage).map(([role, u]) => [role, { calls: u.calls, failures: u.failures, input_tokens: u.inputTokens, output_tokens: u.outputTokens }]))
      : null,
  };
}

function terminationCounts(outcomes: readonly TaskOutcome[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const outcome of outcomes) counts[outcome.trajectory.termination] = (counts[outcome.trajectory.termination] ?? 0) + 1;
  return counts;
}

/**
 * The results object: every key of the leaderboard's version 2.0.0 layout, in its order and
 * with its types, followed by the keys this implementation adds.
 */
export function buildResults(context: ResultsContext) {
  const { run, config } = context;
  const outcomes = run.outcomes;
  const split = config.org_type;
  const summary = summarise(outcomes);
  const dimension_averages = dimensionAverages(outcomes);
  const by_category = byCategory(outcomes);
  const purpleMs = outcomes.reduce((sum, outcome) => sum + outcome.trajectory.purpleMs, 0);
  const greenMs = outcomes.reduce((sum, outcome) => sum + outcome.trajectory.greenMs, 0);
  return {
    participants: { agent: context.participantUrl },
    results: outcomes.map((outcome) => taskEntry(outcome, split)),
    entropic: { summary, dimension_averages, by_category },
    summary,
    dimension_averages,
    by_category,
    extension_metrics: { drift_level: config.drift_level, rot_level: config.rot_level, org_type: config.org_type, skip_original: config.skip_original },
    timestamp: naiveUtcIso(run.startedAt),
    version: RESULTS_LAYOUT_VERSION,
    original: originalBlock(outcomes, config.skip_original),
    timing: {
      total_seconds: seconds(run.wallMs),
      purple_agent_seconds: seconds(purpleMs),
      green_agent_seconds: seconds(greenMs),
      // From the rounded total, so that re-scoring (which only has the total) gives the same figure.
      avg_seconds_per_task: outcomes.length === 0 ? 0 : pyRound(seconds(run.wallMs) / outcomes.length, 2),
      purple_agent_percent: percent(purpleMs, purpleMs + greenMs),
    },
    green_agent: { name: "Entropic CRMArena", versions: context.versions },
    seed: config.seed,
    dataset: context.dataset,
    data_sources: { tasks: context.taskSource, org: context.orgSource },
    config,
    ignored_config_keys: [...context.ignoredConfigKeys],
    selection: {
      mode: run.selection.mode,
      selected: run.selection.selectedBeforeSharding,
      in_this_shard: outcomes.length,
      shard_index: config.shard_index,
      num_shards: config.num_shards,
    },
    entropy: {
      seed: config.seed,
      drift_level: config.drift_level,
      rot_level: config.rot_level,
      applied: true,
      rename_map: run.entropy.renames,
      renamed_fields: Object.values(run.entropy.renames).reduce((sum, map) => sum + Object.keys(map).length, 0),
      injected_records: run.entropy.injected,
      injected_records_total: Object.values(run.entropy.injected).reduce((sum, count) => sum + count, 0),
      passages_per_task: ROT_PASSAGES[config.rot_level],
    },
    judge: judgeSummary(context.judge, outcomes),
    terminations: terminationCounts(outcomes),
    ...(context.trajectoriesFile ? { trajectories_file: context.trajectoriesFile } : {}),
  };
}

export type ResultsObject = ReturnType<typeof buildResults>;
