import { summarisePlan } from "../entropy/index.js";
import type { AssessmentLog, DataCheck, DimensionScores, EpisodeRecord, VerdictSource } from "../log/index.js";
import { type ChanceFloorPlan, episodePassed, floorPasses, lift, orderDimensions } from "../scoring/index.js";
import { modeHasUser } from "../users/index.js";
import { naiveUtcIso, pyRound, pythonRepr } from "../util/index.js";
import { compactTrajectory } from "./compact.js";
import type { Results } from "./results-schema.js";
import { rankingOf } from "./track.js";
import { type KindLosses, kindLossesOf, robustnessOf, type TaskTrials, taskTrialsOf, trialsOf } from "./trials.js";

/** The results layout version the leaderboard's queries were written against. */
export const RESULTS_LAYOUT_VERSION = "2.0.0";

const seconds = (ms: number) => pyRound(ms / 1000, 2);
const percent = (part: number, whole: number) => (whole === 0 ? 0 : pyRound((100 * part) / whole, 1));
/** CRMArena-Pro's own verdict, which the `original` block reports. */
const passedOriginally = (record: EpisodeRecord) => record.score?.original.passed ?? false;

/** Would the zero-work purple have passed this task? Null when the run's log has no chance floor. */
const floorPassedOf = (record: EpisodeRecord, plan: ChanceFloorPlan | undefined) => (plan ? floorPasses(plan, record.task) : null);

/** Why a results object has no chance floor (its log was written before the floor was). */
const NO_FLOOR_REASON = "the run's log records no chance floor: it was written before the floor was measured";

function taskEntry(record: EpisodeRecord, split: string, plan: ChanceFloorPlan | undefined) {
  const { task, trajectory, score } = record;
  const head = {
    task_idx: String(task.idx),
    task_category: task.category,
    task_query: task.query,
    dataset_reference: { source: "Salesforce/CRMArenaPro", split, idx: task.idx, reward_metric: task.rewardMetric },
    // Only in runs with trials or a clean twin: a single-trial run's entries keep their layout.
    ...(record.trial !== undefined ? { trial: record.trial } : {}),
    ...(record.condition !== undefined ? { condition: record.condition } : {}),
    ...(record.touchedBy !== undefined ? { touched_by: record.touchedBy } : {}),
  };
  const warnings = trajectory.steps.flatMap((step) => step.warnings ?? []);
  if (!score) {
    return {
      ...head,
      crm_reward: 0,
      total_score: 0,
      dimension_scores: {},
      error: trajectory.error ?? record.unscored ?? trajectory.termination,
      success: false,
      termination: trajectory.termination,
      unscored: record.unscored ?? null,
      entropy_events: entropyEvents(record),
      floor_passed: floorPassedOf(record, plan),
      ...(warnings.length > 0 ? { warnings } : {}),
      trajectory: compactTrajectory(trajectory),
    };
  }
  const success = episodePassed(record);
  const dimensionScores = roundScores(score.dimensions);
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
      errors: score.signals.errors,
      errors_recovered: score.signals.errorsRecovered,
      reported_tokens: score.signals.reportedTokens,
      answer_ids: { live: score.signals.answerIdsLive, distractor: score.signals.answerIdsDistractor, absent: score.signals.answerIdsAbsent },
    },
    timing: {
      total_seconds: seconds(trajectory.totalMs),
      purple_agent_seconds: seconds(trajectory.purpleMs),
      green_agent_seconds: seconds(trajectory.greenMs),
      purple_agent_percent: percent(trajectory.purpleMs, trajectory.totalMs),
    },
    original: { reward: score.original.reward, passed: score.original.passed, parsed_answer: score.original.parsedAnswer },
    termination: trajectory.termination,
    entropy_events: entropyEvents(record),
    judge: {
      method: score.original.judge.method,
      source: score.original.judge.source,
      model: score.original.judge.model,
      raw_output: score.original.judge.rawOutput,
      ...(score.original.judge.fallback ? { fallback: score.original.judge.fallback } : {}),
    },
    not_applicable: score.notApplicable,
    optimum: score.optimum,
    floor_passed: floorPassedOf(record, plan),
    // Where the benchmark's verdict differs from CRMArena-Pro's, why (an Id in another valid form, a leaking refusal, ...).
    verdict: score.success ? { method: score.success.method, reward: score.success.reward, reason: score.success.reason } : null,
    ...(warnings.length > 0 ? { warnings } : {}),
    trajectory: compactTrajectory(trajectory),
  };
}

/** The drift and rot events that touched a task, for the per-task entry. */
function entropyEvents({ trajectory }: EpisodeRecord) {
  return {
    renamed_in_text: trajectory.entropy.renamedInText,
    drift_exposure: trajectory.entropy.driftExposure,
    passages: trajectory.entropy.passages,
    distractor_records_seen: trajectory.entropy.distractorIdsSeen.length,
    distractor_ids_in_answer: trajectory.answerIds.filter((entry) => entry.status === "distractor").map((entry) => entry.id),
  };
}

/** An episode's dimensions as recorded, in the registry's order (one this build does not know after them). */
function roundScores(scores: DimensionScores): DimensionScores {
  return Object.fromEntries(orderDimensions(Object.keys(scores)).map((dimension) => [dimension, scores[dimension] == null ? null : pyRound(scores[dimension], 2)]));
}

/** The dimensions a run recorded: those its weights name and any an episode has, in the registry's order. */
const recordedDimensions = (records: readonly EpisodeRecord[], weighted: Iterable<string>) =>
  orderDimensions([...weighted, ...records.flatMap((record) => Object.keys(record.score?.dimensions ?? {}))]);

/**
 * Sums from which every aggregate is computed, exactly, over one shard or over many: the
 * leaderboard's queries add the `aggregates` of a run's shards, and `merge` does the same.
 * `floor_passed` (the tasks the zero-work purple passes) is null when the log has no floor.
 */
export function aggregate(records: readonly EpisodeRecord[], plan?: ChanceFloorPlan, weighted: Iterable<string> = []) {
  const scored = records.filter((record) => record.score);
  return {
    total_tasks: records.length,
    passed: records.filter(episodePassed).length,
    scored: scored.length,
    score_sum: records.reduce((sum, record) => sum + (record.score?.totalScore ?? 0), 0),
    dimensions: Object.fromEntries(
      recordedDimensions(records, weighted).map((dimension) => {
        const values = scored.map((record) => record.score!.dimensions[dimension]).filter((value): value is number => typeof value === "number");
        return [dimension, { sum: values.reduce((a, b) => a + b, 0), count: values.length }];
      }),
    ) as Record<string, { sum: number; count: number }>,
    original: { scored: scored.length, passed: scored.filter(passedOriginally).length },
    floor_passed: plan ? records.filter((record) => floorPasses(plan, record.task)).length : (null as number | null),
  };
}
export type Aggregates = ReturnType<typeof aggregate>;

/** The floor (a share of the tasks) and the lift over it; null with the floor unknown, the lift null with nothing to lift over. */
function floorAndLift(passedCount: number, floorPassed: number | null, tasks: number) {
  if (floorPassed === null) return { floor: null, floor_passed: null, lift: null };
  const passRate = tasks === 0 ? 0 : passedCount / tasks;
  const floor = tasks === 0 ? 0 : floorPassed / tasks;
  return { floor, floor_passed: floorPassed, lift: lift(passRate, floor) };
}

/**
 * The leaderboard's summary figures from the sums, then the chance floor (the zero-work purple's
 * pass rate on the same tasks) and the lift over it, `(pass − floor) / (1 − floor)`.
 */
export function summaryOf(sums: Aggregates) {
  const { floor, floor_passed, lift: lifted } = floorAndLift(sums.passed, sums.floor_passed, sums.total_tasks);
  const rounded = (value: number | null) => (value === null ? null : pyRound(value, 3));
  return {
    pass_rate: sums.total_tasks === 0 ? 0 : pyRound(sums.passed / sums.total_tasks, 3),
    total_tasks: sums.total_tasks,
    total_passed: sums.passed,
    avg_score: sums.total_tasks === 0 ? 0 : pyRound(sums.score_sum / sums.total_tasks, 1),
    floor: rounded(floor),
    floor_passed,
    lift: rounded(lifted),
  };
}

/** Each dimension's mean over the episodes where it applies; null where it applied nowhere. */
export function dimensionAveragesOf(sums: Aggregates): Record<string, number | null> {
  return Object.fromEntries(Object.entries(sums.dimensions).map(([dimension, { sum, count }]) => [dimension, count === 0 ? null : pyRound(sum / count, 1)]));
}

/** What the per-category and original figures count of one task: the same from a log record or a results entry. */
export interface Tally {
  readonly category: string;
  readonly metric: string;
  /** Did it get an original score (a purple that broke off the episode did not)? */
  readonly scored: boolean;
  readonly passed: boolean;
  /** CRMArena-Pro's own verdict (the `original` block). */
  readonly passedOriginally: boolean;
  readonly score: number;
  /** Would the zero-work purple pass it? Null when the run has no chance floor. */
  readonly floorPassed: boolean | null;
}

const tallyOf = (record: EpisodeRecord, plan: ChanceFloorPlan | undefined): Tally => ({
  category: record.task.category,
  metric: record.task.rewardMetric,
  scored: record.score !== null,
  passed: episodePassed(record),
  passedOriginally: passedOriginally(record),
  score: record.score?.totalScore ?? 0,
  floorPassed: floorPassedOf(record, plan),
});

/**
 * `by_category`: count, passed, score sum, pass rate and mean score per category, in
 * first-appearance order; then the category's chance floor, the tasks it passes and the lift
 * (null when a task of the category has no floor verdict; the lift null where the floor is 1).
 */
export function byCategoryOf(tallies: readonly Tally[]) {
  const groups = new Map<string, Tally[]>();
  for (const tally of tallies) groups.set(tally.category, [...(groups.get(tally.category) ?? []), tally]);
  return Object.fromEntries(
    [...groups].map(([category, group]) => {
      const passedCount = group.filter((tally) => tally.passed).length;
      const scoreSum = group.reduce((sum, tally) => sum + tally.score, 0);
      const floorPassed = group.every((tally) => tally.floorPassed !== null) ? group.filter((tally) => tally.floorPassed).length : null;
      return [
        category,
        {
          count: group.length,
          passed: passedCount,
          total_score: scoreSum,
          pass_rate: passedCount / group.length,
          avg_score: scoreSum / group.length,
          ...floorAndLift(passedCount, floorPassed, group.length),
        },
      ];
    }),
  );
}

/** What the results say of the chance floor: the zero-work strategy and its answers, or why there is none. */
function chanceFloorOf(plan: ChanceFloorPlan | undefined) {
  return plan
    ? { strategy: plan.strategy, remap_ids: plan.remapIds, answers: plan.answers, reason: null }
    : { strategy: null, remap_ids: null, answers: null, reason: NO_FLOOR_REASON as string | null };
}

/** The `original` block: CRMArena-Pro accuracy over the tasks that were scored. */
export function originalOf(tallies: readonly Tally[], skip: boolean) {
  if (skip) {
    return { scores: { accuracy: null, accuracy_percent: null }, summary: { total_tasks: null, passed: null, failed: null }, by_category: {}, by_metric_type: {} };
  }
  const scored = tallies.filter((tally) => tally.scored);
  const passedCount = scored.filter((tally) => tally.passedOriginally).length;
  const accuracy = scored.length === 0 ? 0 : passedCount / scored.length;
  const count = (key: (tally: Tally) => string) => {
    const groups = new Map<string, { total: number; passed: number }>();
    for (const tally of scored) {
      const group = groups.get(key(tally)) ?? { total: 0, passed: 0 };
      group.total++;
      if (tally.passedOriginally) group.passed++;
      groups.set(key(tally), group);
    }
    return Object.fromEntries([...groups].map(([name, group]) => [name, { ...group, accuracy: pyRound(group.passed / group.total, 4) }]));
  };
  return {
    scores: { accuracy: pyRound(accuracy, 4), accuracy_percent: pyRound(accuracy * 100, 2) },
    summary: { total_tasks: scored.length, passed: passedCount, failed: scored.length - passedCount },
    by_category: count((tally) => tally.category),
    by_metric_type: count((tally) => tally.metric),
  };
}

/** Which judge decided, how often each kind of verdict was used, and what the models cost. */
function judgeSummary(log: AssessmentLog) {
  const counts: Record<VerdictSource | "none", number> = { llm: 0, cache: 0, heuristic: 0, none: 0 };
  for (const record of log.episodes) if (record.score) counts[record.score.original.judge.source]++;
  const { mode, primaryModel, cheapModel } = log.header.judge;
  const usage = log.footer.judgeUsage;
  return {
    mode,
    primary_model: primaryModel,
    cheap_model: cheapModel,
    verdicts: counts,
    usage: usage
      ? Object.fromEntries(Object.entries(usage).map(([role, u]) => [role, { calls: u.calls, failures: u.failures, input_tokens: u.inputTokens, output_tokens: u.outputTokens }]))
      : null,
  };
}

function terminationCounts(records: readonly EpisodeRecord[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const record of records) counts[record.trajectory.termination] = (counts[record.trajectory.termination] ?? 0) + 1;
  return counts;
}

/** The data check as the results report it. */
function dataCheckOf(check: DataCheck) {
  return { referenced_ids: check.referencedIds, missing_ids: check.missingIds, examples: check.examples, allowed_mismatch: check.allowedMismatch };
}

/**
 * The results object, built from the assessment log alone: every key of the leaderboard's
 * version 2.0.0 layout, in its order and with its types, followed by the keys this
 * implementation adds.
 */
export function buildResults(log: AssessmentLog, options: { logFile?: string } = {}): Results {
  const { header, footer } = log;
  const records = log.episodes;
  const config = header.spec.config as {
    drift_level: string;
    rot_level: string;
    org_type: string;
    skip_original: boolean;
    seed: number;
    trials?: number;
    paired?: boolean;
    mode?: string;
  };
  const plan = header.chanceFloor ?? undefined;
  const trials = trialSettingsOf(config);
  // The run's figures are its condition's: a paired run's clean episodes are its robustness block's.
  const runRecords = trials.paired ? records.filter((record) => record.condition !== "clean") : records;
  const sums = aggregate(runRecords, plan, Object.keys(header.weights));
  const summary = summaryOf(sums);
  const dimension_averages = dimensionAveragesOf(sums);
  const tallies = runRecords.map((record) => tallyOf(record, plan));
  const taskTrials = trials.multi ? taskTrialsOf(records, trials.paired) : [];
  const kinds = trials.paired ? kindLossesOf(records, header.entropy.kinds) : {};
  const by_category = byCategoryOf(tallies);
  const purpleMs = records.reduce((sum, record) => sum + record.trajectory.purpleMs, 0);
  const greenMs = records.reduce((sum, record) => sum + record.trajectory.greenMs, 0);
  return {
    participants: { agent: header.spec.participantUrl },
    results: records.map((record) => taskEntry(record, config.org_type, plan)),
    entropic: { summary, dimension_averages, by_category },
    summary,
    dimension_averages,
    by_category,
    extension_metrics: { drift_level: config.drift_level, rot_level: config.rot_level, org_type: config.org_type, skip_original: config.skip_original },
    timestamp: naiveUtcIso(new Date(header.createdAt)),
    version: RESULTS_LAYOUT_VERSION,
    original: originalOf(tallies, config.skip_original),
    timing: {
      total_seconds: seconds(footer.wallMs),
      purple_agent_seconds: seconds(purpleMs),
      green_agent_seconds: seconds(greenMs),
      // From the rounded total, so that re-scoring (which only has the total) gives the same figure.
      avg_seconds_per_task: records.length === 0 ? 0 : pyRound(seconds(footer.wallMs) / records.length, 2),
      purple_agent_percent: percent(purpleMs, purpleMs + greenMs),
    },
    green_agent: header.greenAgent,
    seed: config.seed,
    dataset: header.data.dataset,
    data_sources: { tasks: header.data.tasks, org: header.data.org, check: dataCheckOf(header.data.check) },
    config: header.spec.config,
    ignored_config_keys: header.spec.ignoredConfigKeys,
    status: footer.status,
    // Whether the leaderboard ranks the run, why not, and the track it ran on (src/report/track.ts).
    ...rankingOf(log),
    run: {
      id: header.spec.runId,
      shard_index: header.selection.shardIndex,
      num_shards: header.selection.numShards,
      selection: { mode: header.selection.mode, size: header.selection.size, seed: config.seed, in_this_shard: header.selection.taskIdxs.length },
    },
    aggregates: trials.multi ? { ...sums, tasks: taskTrials, ...(trials.paired ? { kinds } : {}) } : sums,
    weights: header.weights,
    calibration: header.calibration,
    entropy: summarisePlan(header.entropy),
    judge: judgeSummary(log),
    terminations: terminationCounts(records),
    chance_floor: chanceFloorOf(plan),
    // The sandbox refresh the run's Ids went through (its digest, never its key); null: the dataset's own Ids.
    id_remap: header.idRemap,
    ...(options.logFile ? { log_file: options.logFile } : {}),
    ...trialBlocks(trials, taskTrials, kinds, config.seed),
    ...(modeHasUser(config.mode) ? { interactive: interactiveOf(records) } : {}),
  };
}

/**
 * Interactive mode's figures: who played the user, how much it said, and how often it failed.
 * The simulator's failures (`user_error`) are the harness's, not the purple's: their rate is
 * shown apart so a run where the user model broke is not read as a weak purple.
 */
export function interactiveOf(records: readonly EpisodeRecord[]) {
  const users = records.flatMap((record) => (record.trajectory.user ? [record.trajectory.user] : []));
  return interactiveBlock({
    labels: users.map((user) => user.label),
    episodes: records.length,
    userTurns: users.reduce((sum, user) => sum + 1 + user.replies, 0),
    failures: records.filter((record) => record.trajectory.termination === "user_error").length,
  });
}

/** The block from its counts, so that merged shards (which add the counts) give the unsharded figures. */
export function interactiveBlock(counts: { labels: readonly string[]; episodes: number; userTurns: number; failures: number }) {
  return {
    user_simulators: [...new Set(counts.labels)].sort(),
    episodes: counts.episodes,
    user_turns: counts.userTurns,
    user_turns_per_episode: counts.episodes === 0 ? 0 : pyRound(counts.userTurns / counts.episodes, 2),
    user_failures: counts.failures,
    user_failure_rate: counts.episodes === 0 ? 0 : pyRound(counts.failures / counts.episodes, 4),
  };
}

/** What a config asks of trials: k, paired, and whether the run has the trials layout at all. */
export function trialSettingsOf(config: { trials?: number | undefined; paired?: boolean | undefined }) {
  const k = config.trials ?? 1;
  const paired = config.paired === true;
  return { k, paired, multi: k > 1 || paired };
}

/** The `trials` and `robustness` blocks of a run with trials or a clean twin; nothing otherwise. */
export function trialBlocks(settings: ReturnType<typeof trialSettingsOf>, tasks: readonly TaskTrials[], kinds: Record<string, KindLosses>, seed: number) {
  return {
    ...(settings.multi ? { trials: trialsOf(tasks, settings.k, seed) } : {}),
    ...(settings.paired ? { robustness: robustnessOf(tasks, kinds, seed) } : {}),
  };
}

/** The results object: the layout of ResultsSchema (results-schema.ts). */
export type ResultsObject = Results;
