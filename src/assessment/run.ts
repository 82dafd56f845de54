import { setImmediate } from "node:timers/promises";
import { getHeapStatistics } from "node:v8";
import type { TaskText } from "../entropy/index.js";
import type { AssessmentLog, DataSource, DatasetKind, EpisodeRecord, EpisodeTask, Journal, LogFooter, LogHeader, StoredLog, Trajectory, Weights } from "../log/index.js";
import type { OrgBackend } from "../org/index.js";
import type { PurpleClient } from "../purple/index.js";
import { type Calibration, calibrationDigest, driftExposure, floorAnswers, type Judge, optimumFor, type ScoringContext, scoreEpisode } from "../scoring/index.js";
import type { TaskRecord, TaskSet } from "../tasks/index.js";
import { elide, IdRemap } from "../util/index.js";
import { runtimeVersions } from "../version.js";
import { OrgView } from "../world/index.js";
import type { AssessmentConfig } from "./config.js";
import { checkDataMatch } from "./data-check.js";
import { MEMORY_TEXT_CHARS, runEpisode, type TextLease, trimForMemory, WholeTextBudget } from "./episode.js";
import { type Selection, selectTasks } from "./select.js";

/** The world an assessment runs in: tasks and the hosted org, with where each came from. */
export interface AssessmentData {
  readonly tasks: TaskSet;
  readonly org: OrgBackend;
  readonly dataset: DatasetKind;
  readonly sources: { readonly tasks: DataSource; readonly org: DataSource };
}

/** Progress of a running assessment, for status updates and progress bars. */
export type AssessmentEvent =
  | { readonly kind: "started"; readonly total: number; readonly resumed: number; readonly selection: Selection }
  | { readonly kind: "task_started"; readonly position: number; readonly total: number; readonly task: TaskRecord }
  | { readonly kind: "task_finished"; readonly done: number; readonly total: number; readonly record: EpisodeRecord };

/** The abort reason that marks a run canceled (tasks/cancel); any other abort leaves it interrupted and resumable. */
export const CANCELED = "canceled";

/** Everything a run needs besides the data and the purple. */
export interface RunOptions {
  readonly runId: string;
  readonly participantUrl: string;
  readonly config: AssessmentConfig;
  readonly ignoredConfigKeys: readonly string[];
  readonly judge: Judge;
  readonly calibration: Calibration;
  readonly onEvent?: (event: AssessmentEvent) => void;
  /** Stops the run at once: no new episodes, and purple calls in flight are aborted (their episodes are not recorded). */
  readonly signal?: AbortSignal;
  /** Stops the run gently: no new episodes; those in flight finish. */
  readonly drain?: AbortSignal;
  /** Where each finished episode is made durable before it is reported. */
  readonly journal?: Journal;
  /** A journal of an earlier, interrupted attempt at the same run: its episodes are kept, not re-run. */
  readonly resume?: StoredLog;
  /** Whole texts the episodes in flight may hold for the journal; the process-wide WHOLE_TEXTS by default. */
  readonly wholeTexts?: WholeTextBudget;
  /** The operator's secret in the Id remap's key (ENTROPIC_ID_SECRET): without it the map follows from the seed alone. */
  readonly idSecret?: string;
}

const PURPLE_FAILURES = new Set(["timeout", "purple_error", "protocol_error"]);

/** Episodes the purple agent broke off are recorded as errors and not scored, as in the 2.0.0 layout. */
export function isPurpleFailure(trajectory: Trajectory): boolean {
  return PURPLE_FAILURES.has(trajectory.termination);
}

/**
 * The task as the log keeps it: its texts as the purple was shown them (the brief's) and the
 * ground truth as the run's world has it (Ids remapped when it remaps them); without a world, the
 * task file's own.
 */
export function episodeTask(task: TaskRecord, world?: { readonly text: Pick<TaskText, "prompt" | "requiredContext">; readonly answer: (string | null)[] }): EpisodeTask {
  const text = world?.text ?? { prompt: task.query, requiredContext: task.metadata.required };
  return {
    idx: task.idx,
    category: task.task,
    query: text.prompt,
    rewardMetric: task.reward_metric,
    answer: world?.answer ?? [...task.answer],
    requiredContext: text.requiredContext,
  };
}

/**
 * The run's sandbox refresh (none with `remap_ids: false`). A resumed run must get the very map
 * it started with: the seed and the operator's secret must be the same, which the digest checks.
 */
export function runRemap(config: AssessmentConfig, secret: string | undefined, resumed?: LogHeader): IdRemap | undefined {
  if (!resumed) return config.remap_ids ? IdRemap.forRun(config.seed, secret ?? "") : undefined;
  const recorded = resumed.id_remap;
  if (!recorded) return undefined;
  const remap = IdRemap.forRun(config.seed, secret ?? "");
  if (recorded.digest !== remap.digest)
    throw new Error(
      `the run's journal remapped record Ids with key ${recorded.digest}, but this green agent's key is ${remap.digest}: ${recorded.keyed ? "set the same ENTROPIC_ID_SECRET as when the run started" : "unset ENTROPIC_ID_SECRET, as when the run started"} to resume it`,
    );
  return remap;
}

/**
 * Scores an episode into its log record. A purple that broke off the episode leaves it unscored;
 * so does a scoring failure (a judge bug, say), with its reason, instead of failing the run.
 */
export async function scoreRecord(position: number, task: EpisodeTask, trajectory: Trajectory, judge: Judge, context: ScoringContext): Promise<EpisodeRecord> {
  const base = { kind: "episode" as const, position, task, trajectory };
  if (isPurpleFailure(trajectory))
    return { ...base, score: null, unscored: `the purple agent broke off the episode (${trajectory.termination}${trajectory.error ? `: ${trajectory.error}` : ""})` };
  try {
    return { ...base, score: await scoreEpisode(task, trajectory, judge, context) };
  } catch (error) {
    return { ...base, score: null, unscored: `scoring failed: ${(error as Error).message}` };
  }
}

/**
 * Scores the episode on its whole texts (those the lease held packed, made whole for scoring
 * alone), and gives the record as memory keeps it and as its journal line is to hold it (the
 * held texts unpacked only as the line is written): the whole texts are garbage once this
 * returns, not held while the journal writes (see WholeTextBudget).
 */
async function scoreWhole(position: number, task: EpisodeTask, trajectory: Trajectory, texts: TextLease, judge: Judge, context: ScoringContext) {
  const scored = await scoreRecord(position, task, texts.whole(trajectory), judge, context);
  // In the record's own key order: the journal line is the same text as before the texts were held packed.
  return { light: trimRecord(scored), journalled: { ...scored, trajectory: texts.forJournal(trajectory) } };
}

/**
 * Runs every selected task against the purple agent, `concurrency` episodes at a time, and
 * returns the run's log. Each finished episode is journalled before it is reported. Selection
 * errors throw before any work; episode failures are recorded, never thrown.
 */
export async function runAssessment(data: AssessmentData, purple: PurpleClient, options: RunOptions): Promise<AssessmentLog> {
  const { config, judge, signal, drain, journal } = options;
  const onEvent = options.onEvent ?? (() => undefined);
  const selection = selectTasks(data.tasks, config);
  const check = checkDataMatch(selection.tasks, data.org, config.allow_data_mismatch);
  // The purple acts in one view of the org: the base org with the run's entropy plan applied to a copy.
  // After the data check, which reads the dataset's own Ids: from here on the run sees only remapped ones.
  const remap = runRemap(config, options.idSecret, options.resume?.header);
  const view = options.resume
    ? OrgView.open(data.org, options.resume.header.entropy, remap)
    : OrgView.plan(
        data.org,
        { drift: config.drift_level, rot: config.rot_level, seed: config.seed, ...(config.perturbations ? { only: config.perturbations } : {}) },
        selection.tasks,
        data.tasks.tasks,
        remap,
      );
  const moved = view.movedFields();
  const defaultToday = await view.today();
  const weights: Weights = config.weights;
  const context: ScoringContext = { calibration: options.calibration, weights, driftInRun: moved.size > 0 };
  const startedAt = new Date(options.resume?.header.created_at ?? Date.now());
  const header: LogHeader = options.resume?.header ?? {
    kind: "header",
    log_version: 1,
    run_id: options.runId,
    created_at: startedAt.toISOString(),
    green_agent: { name: "Entropic CRMArena", versions: runtimeVersions() },
    participant_url: options.participantUrl,
    config: config as unknown as Record<string, unknown>,
    ignored_config_keys: [...options.ignoredConfigKeys],
    weights,
    selection: {
      mode: selection.mode,
      size: selection.selectedBeforeSharding,
      shard_index: config.shard_index,
      num_shards: config.num_shards,
      task_idxs: selection.tasks.map((task) => task.idx),
    },
    data: { dataset: data.dataset, tasks: { ...data.sources.tasks }, org: { ...data.sources.org }, check },
    entropy: view.plan,
    judge: { mode: judge.mode, primary_model: judge.models.primary, cheap_model: judge.models.cheap },
    calibration: { source: options.calibration.source, digest: calibrationDigest(options.calibration) },
    chance_floor: floorAnswers(data.tasks.tasks, { remapIds: config.remap_ids }),
    id_remap: remap ? { digest: remap.digest, keyed: Boolean(options.idSecret) } : null,
  };
  if (!options.resume) await journal?.writeHeader(header);
  const started = performance.now();
  const total = selection.tasks.length;
  const kept = new Map((options.resume?.episodes ?? []).map((record) => [record.position, trimRecord(record)]));
  const records: EpisodeRecord[] = [...kept.values()];
  onEvent({ kind: "started", total, resumed: kept.size, selection });
  const queue = selection.tasks.map((task, i) => ({ task, position: i + 1 })).filter((entry) => !kept.has(entry.position));
  let next = 0;
  /** A failure to record an episode (the journal's disk, say): it stops the run and is thrown. */
  let recordFailure: { error: unknown } | undefined;
  const record = async (position: number, task: EpisodeTask, trajectory: Trajectory, texts: TextLease) => {
    try {
      // After the replies that arrived with this one have been read and answered: scoring, the
      // journal and the report are bookkeeping, and a reply waiting behind them is a purple kept waiting.
      await setImmediate();
      const { light, journalled } = await scoreWhole(position, task, trajectory, texts, judge, context);
      await journal?.writeEpisode(journalled);
      records.push(light);
      onEvent({ kind: "task_finished", done: records.length, total, record: light });
    } finally {
      texts.release();
    }
  };
  const worker = async () => {
    // Each finished episode is recorded while the worker's next one runs, in order.
    let recording: Promise<void> = Promise.resolve();
    while (next < queue.length && !signal?.aborted && !drain?.aborted && !recordFailure) {
      const { task, position } = queue[next++]!;
      onEvent({ kind: "task_started", position, total, task });
      const { brief, text } = view.brief(task, config.max_steps);
      // The log keeps the texts the purple was shown, computed once with the brief.
      const logged = episodeTask(task, { text, answer: view.groundTruth(task) });
      const exposure = driftExposure(optimumFor(options.calibration, task.task).fields, moved);
      // Whole texts are kept for the journal, and for scoring a privacy task (a refusal that gives
      // away what an observation held is a leak, wherever in the observation it stood): without a
      // journal, memory keeps every other text cut.
      const keepWhole = journal !== undefined || task.reward_metric === "privacy_rejection";
      const texts = (keepWhole ? (options.wholeTexts ?? WHOLE_TEXTS) : NO_WHOLE_TEXTS).lease();
      const trajectory = await runEpisode(brief, task.idx, view, purple, {
        maxSteps: config.max_steps,
        timeoutMs: config.timeout * 1000,
        firstMessage: config.first_message,
        defaultToday,
        entropy: { renamedInText: [...text.renamedInText], passages: [...text.passages], driftExposure: exposure },
        texts,
        ...(signal ? { signal } : {}),
      });
      // A canceled episode did not finish: it is not recorded, and a resumed run plays it again.
      if (trajectory.termination === "canceled") {
        texts.release();
        continue;
      }
      const previous = recording;
      recording = previous
        .then(() => record(position, logged, trajectory, texts))
        .catch((error: unknown) => {
          recordFailure ??= { error };
        });
      // One episode at most waits to be recorded while the next runs: a slow journal slows the
      // run down, it does not pile up episodes (and their whole texts) in memory.
      await previous;
    }
    await recording;
  };
  try {
    const workers: Promise<void>[] = [];
    for (let i = 0; i < Math.min(config.concurrency, Math.max(1, queue.length)); i++) {
      // One worker per turn of the event loop: each one's first request leaves (its connection
      // opens) while the next is prepared, not all of them only after every one is prepared.
      if (i > 0) await setImmediate();
      const started = worker();
      started.catch(() => undefined); // observed by Promise.all below
      workers.push(started);
    }
    await Promise.all(workers);
  } finally {
    await view.close();
  }
  if (recordFailure) throw recordFailure.error;
  records.sort((a, b) => a.position - b.position);
  const footer: LogFooter = {
    kind: "footer",
    finished_at: new Date().toISOString(),
    wall_ms: performance.now() - started + (options.resume?.footer?.wall_ms ?? 0),
    status: records.length === total ? "completed" : signal?.reason === CANCELED || drain?.reason === CANCELED ? "canceled" : "interrupted",
    judge_usage: judgeUsage(judge),
  };
  await journal?.finish(footer);
  return { header, episodes: records, footer };
}

/**
 * Whole texts the episodes in flight of every assessment of the process may hold for their
 * journals (see WholeTextBudget): 64 million characters, or an eighth of the heap limit when that
 * is less (a character takes one or two bytes), so that they never crowd out the rest of the run.
 */
export const WHOLE_TEXTS = new WholeTextBudget(Math.min(64_000_000, Math.floor(getHeapStatistics().heap_size_limit / 8)));
const NO_WHOLE_TEXTS = new WholeTextBudget(0);

/** Items of a parsed answer memory keeps (a purple may answer with a hundred thousand values). */
const MEMORY_LIST_ITEMS = 100;

/**
 * The record as memory keeps it until the results are built: the trajectory trimmed, and the
 * texts scoring kept cut the same way (whole in the journal).
 */
function trimRecord(record: EpisodeRecord): EpisodeRecord {
  const cut = (text: string) => elide(text, MEMORY_TEXT_CHARS);
  const score = record.score;
  const parsed = score?.original.parsedAnswer ?? [];
  const judge = score?.original.judge;
  return {
    ...record,
    trajectory: trimForMemory(record.trajectory),
    ...(record.unscored !== undefined ? { unscored: cut(record.unscored) } : {}),
    score:
      score && judge
        ? {
            ...score,
            original: {
              ...score.original,
              parsedAnswer: [...parsed.slice(0, MEMORY_LIST_ITEMS).map(cut), ...(parsed.length > MEMORY_LIST_ITEMS ? [`… (+${parsed.length - MEMORY_LIST_ITEMS} more)`] : [])],
              judge: { ...judge, rawOutput: judge.rawOutput === null ? null : cut(judge.rawOutput), ...(judge.fallback !== undefined ? { fallback: cut(judge.fallback) } : {}) },
            },
          }
        : score,
  };
}

function judgeUsage(judge: Judge): LogFooter["judge_usage"] {
  const usage = judge.usage();
  if (!usage) return null;
  return Object.fromEntries(Object.entries(usage).map(([role, u]) => [role, { calls: u.calls, failures: u.failures, input_tokens: u.inputTokens, output_tokens: u.outputTokens }]));
}
