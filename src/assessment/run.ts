import { setMaxListeners } from "node:events";
import { getHeapStatistics } from "node:v8";
import { orgTypeOf } from "../datasets/index.js";
import type { TaskText } from "../entropy/index.js";
import { DEFAULT_MAX_MODEL_CALLS, DEFAULT_MAX_MODEL_CHARS, ModelSpend, type SpendLimits } from "../llm/index.js";
import type { AssessmentLog, EpisodeCondition, EpisodeRecord, EpisodeTask, Journal, LogFooter, LogHeader, StoredLog } from "../log/index.js";
import type { PurpleClient } from "../purple/index.js";
import { type Calibration, driftExposure, type Judge, optimumFor, type ScoringContext } from "../scoring/index.js";
import type { TaskRecord } from "../tasks/index.js";
import { modeNamed, type UserSimulator, userSimulatorFor } from "../users/index.js";
import { EntropicError, IdRemap } from "../util/index.js";
import { OrgView } from "../world/index.js";
import type { AssessmentData } from "./assessment-data.js";
import type { AssessmentConfig } from "./config.js";
import { runEpisode } from "./episode.js";
import { buildHeader } from "./header.js";
import { WholeTextBudget } from "./held-texts.js";
import { type FollowUp, runChains } from "./pool.js";
import { type EpisodeLabels, judgeUsage, Recorder } from "./recorder.js";
import type { RunSpec } from "./run-spec.js";
import type { ChosenTasks, Selection } from "./select.js";
import type { ToolChannel } from "./side-calls.js";
import { touchingKinds } from "./touched.js";

/** Progress of a running assessment, for status updates and progress bars. */
export type AssessmentEvent =
  | { readonly kind: "started"; readonly total: number; readonly resumed: number; readonly selection: Selection }
  | { readonly kind: "task_started"; readonly position: number; readonly total: number; readonly task: TaskRecord }
  | { readonly kind: "task_finished"; readonly done: number; readonly total: number; readonly record: EpisodeRecord };

/** The abort reason that marks a run canceled (tasks/cancel); any other abort leaves it interrupted and resumable. */
export const CANCELED = "canceled";

/** What a run needs besides its spec, its tasks, the data and the purple: how it is judged, watched and stopped. */
export interface RunContext {
  readonly judge: Judge;
  readonly calibration: Calibration;
  readonly onEvent?: ((event: AssessmentEvent) => void) | undefined;
  /** Stops the run at once: no new episodes, and purple calls in flight are aborted (their episodes are not recorded). */
  readonly signal?: AbortSignal | undefined;
  /** Stops the run gently: no new episodes; those in flight finish. */
  readonly drain?: AbortSignal | undefined;
  /** Whole texts the episodes in flight may hold for the journal; the process-wide WHOLE_TEXTS by default. */
  readonly wholeTexts?: WholeTextBudget | undefined;
  /** The operator's secret in the Id remap's key (ENTROPIC_ID_SECRET): without it the map follows from the seed alone. */
  readonly idSecret?: string | undefined;
  /** Interactive mode's simulated user; by default the config's choice without a model provider (userSimulatorFor with no environment). */
  readonly user?: UserSimulator | undefined;
  /** Where episodes also take tool calls over MCP (the server's endpoint, src/mcp/); offered unless config `mcp` is false. */
  readonly toolChannel?: ToolChannel | undefined;
  /** The clock of the log's timestamps (its header's creation, its footer's end). */
  readonly clock?: (() => Date) | undefined;
}

export interface RunOptions extends RunContext {
  readonly spec: RunSpec;
  /** The tasks, chosen once at the edge. */
  readonly chosen: ChosenTasks;
  /** Where each finished episode is made durable before it is reported. */
  readonly journal?: Journal | undefined;
  /** A journal of an earlier, interrupted attempt at the same run: its episodes are kept, not re-run. */
  readonly resumeFrom?: StoredLog | undefined;
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
  const recorded = resumed.idRemap;
  if (!recorded) return undefined;
  const remap = IdRemap.forRun(config.seed, secret ?? "");
  if (recorded.digest !== remap.digest)
    throw new Error(
      `the run's journal remapped record Ids with key ${recorded.digest}, but this green agent's key is ${remap.digest}: ${recorded.keyed ? "set the same ENTROPIC_ID_SECRET as when the run started" : "unset ENTROPIC_ID_SECRET, as when the run started"} to resume it`,
    );
  return remap;
}

/** Counts runs in this process, so two runs under one run id (shards, a resend) are two owners. */
let runsStarted = 0;

/**
 * Runs every chosen task against the purple agent, `concurrency` episodes at a time, and returns
 * the run's log: the header, a pool of episodes, each recorded (scored, journalled, trimmed,
 * reported) as it ends, then the footer. Episode failures are recorded, never thrown.
 */
export async function runAssessment(data: AssessmentData, purple: PurpleClient, options: RunOptions): Promise<AssessmentLog> {
  const { spec, chosen, signal, drain, journal, resumeFrom } = options;
  const { config } = spec;
  const onEvent = options.onEvent ?? (() => undefined);
  const now = options.clock ?? (() => new Date());
  // A failure to record an episode (the journal's disk, say) or the model spend cap stops the
  // run: no new episode starts, those in flight are aborted (they could not be recorded either),
  // and it is thrown with what was recorded.
  const halt = new AbortController();
  // Every model call of the run, its user's and its judges', is charged to one meter: the call past the cap stops the run.
  const spend = new ModelSpend(spendLimits(config), (error) => halt.abort(error));
  const judge = options.judge.withSpend?.(spend) ?? options.judge;
  // Before anything is opened or written: a user that cannot be had (no model key) fails the request at once.
  const mode = modeNamed(config.mode);
  const chosenUser = mode?.user ? (options.user ?? mode.user(config, (choice) => userSimulatorFor(choice, {}))) : undefined;
  const user = chosenUser?.withSpend?.(spend) ?? chosenUser;
  // The purple acts in one view of the org: the base org with the run's entropy plan applied to a copy.
  // After the data check, which read the dataset's own Ids: from here on the run sees only remapped ones.
  const remap = runRemap(config, options.idSecret, resumeFrom?.header);
  // Its queries are this run's: the query pool gives each run its share of the processes.
  const owner = `run ${spec.runId} #${++runsStarted}`;
  const view = resumeFrom
    ? await OrgView.open(data.org, resumeFrom.header.entropy, remap, owner)
    : await OrgView.plan(
        data.org,
        { drift_level: config.drift_level, rot_level: config.rot_level, seed: config.seed, ...(config.perturbations ? { only: config.perturbations } : {}) },
        chosen.selection.tasks,
        data.tasks.tasks,
        remap,
        owner,
      );
  // A paired run's second view: the same org, Ids and seed with drift and rot none.
  const cleanView = config.paired
    ? await openCleanView(data, config, chosen, remap, `${owner} clean`, resumeFrom?.header).catch(async (error: unknown) => {
        await view.close();
        throw error;
      })
    : undefined;
  const closeViews = async () => {
    await view.close();
    await cleanView?.close();
  };
  const moved = view.movedFields();
  const defaultToday = await view.today();
  const context: ScoringContext = { calibration: options.calibration, weights: config.weights, driftInRun: moved.size > 0 };
  const header =
    resumeFrom?.header ?? buildHeader({ spec, chosen, data, view, cleanView, judge, calibration: options.calibration, remap, keyed: Boolean(options.idSecret), createdAt: now() });
  if (!resumeFrom)
    await journal?.writeHeader(header).catch(async (error: unknown) => {
      await closeViews();
      throw error;
    });
  const started = performance.now();
  const plan = episodePlan(chosen.selection.tasks, config);
  const total = plan.length;
  const recorder = new Recorder(
    {
      judge,
      context,
      journal,
      onRecorded: (record, done) => onEvent({ kind: "task_finished", done, total, record }),
      // An episode scored after the cap was reached had its model verdicts refused: it is not recorded, and runs again on a resend.
      beforeJournal: () => {
        if (spend.exceeded) throw spend.exceeded;
      },
    },
    resumeFrom?.episodes ?? [],
  );
  onEvent({ kind: "started", total, resumed: recorder.count, selection: chosen.selection });
  const kept = recorder.positions();
  const episodeSignal = signal ? AbortSignal.any([signal, halt.signal]) : halt.signal;
  // Every episode in flight listens to it (its purple call, its HTTP request) and removes its
  // listeners when done: more than Node's default of 10 is the concurrency, not a leak.
  setMaxListeners(Math.max(10, 4 * config.concurrency), episodeSignal);
  const queue = plan.filter((entry) => !kept.has(entry.position));
  const cleanWorld = cleanView ? { view: cleanView, moved: cleanView.movedFields(), defaultToday: await cleanView.today(), context: { ...context, driftInRun: false } } : undefined;
  // Every episode's crm_task shows the run's configured levels, a clean episode's too: which view
  // an episode is in is the green's to know (a purple that knew could wait for the clean answer).
  const shownEntropy = { drift_level: view.plan.drift_level, rot_level: view.plan.rot_level };
  // The first message names the org type of the dataset the tasks are from, not a fixed one.
  const orgType = orgTypeOf(data.dataset);
  // The key of every episode's own task id and Ids: the run's remap, or with the dataset's own Ids
  // kept a map of the seed and secret used for the later episodes' layers alone.
  const episodeKeys = remap ?? IdRemap.forRun(config.seed, options.idSecret ?? "");
  const channel = config.mcp === false ? undefined : options.toolChannel;
  const playEpisode = async ({ task: source, position, trial, condition }: EpisodeItem): Promise<FollowUp | undefined> => {
    onEvent({ kind: "task_started", position, total, task: source });
    const world = condition === "clean" && cleanWorld ? cleanWorld : { view, moved, defaultToday, context };
    // A dataset with a task per trial (the twins: a twin per trial) gives each trial its own (the first trial the task itself);
    // it keeps the source's index, which the plan, the log and the trials' counts go by.
    const task = data.trialTask ? { ...data.trialTask(source, trial ?? 1), idx: source.idx } : source;
    const episode = world.view.episode(task, { ordinal: laterEpisode({ trial, condition }), keys: episodeKeys, entropy: shownEntropy, orgType });
    const { brief, text } = episode.brief(config.max_steps);
    // The log keeps the texts the purple was shown and the truth it is scored against, in the episode's Ids.
    const logged = episodeTask(task, { text, answer: episode.groundTruth() });
    const exposure = driftExposure(optimumFor(options.calibration, task.task).fields, world.moved);
    // Whole texts are kept for the journal, and for scoring a privacy task (a refusal that gives
    // away what an observation held is a leak, wherever in the observation it stood): without a
    // journal, memory keeps every other text cut.
    const keepWhole = journal !== undefined || task.reward_metric === "privacy_rejection";
    const texts = (keepWhole ? (options.wholeTexts ?? WHOLE_TEXTS) : NO_WHOLE_TEXTS).lease();
    const trajectory = await runEpisode(brief, task.idx, episode, purple, {
      maxSteps: config.max_steps,
      timeoutMs: config.timeout * 1000,
      firstMessage: config.first_message,
      defaultToday: world.defaultToday,
      entropy: { renamedInText: [...text.renamedInText], passages: [...text.passages], driftExposure: exposure },
      texts,
      signal: episodeSignal,
      ...(user ? { user } : {}),
      ...(channel ? { channel } : {}),
    });
    // A canceled episode did not finish: it is not recorded, and a resumed run plays it again.
    if (trajectory.termination === "canceled") {
      texts.release();
      return undefined;
    }
    const labels: EpisodeLabels = {
      ...(trial !== undefined ? { trial } : {}),
      ...(condition !== undefined ? { condition } : {}),
      ...(condition === "perturbed" ? { touchedBy: touchingKinds(view.plan, task.idx, trajectory.entropy, (id) => episode.shownId(remap ? remap.id(id) : id)) } : {}),
      ...(condition === "clean" ? { context: world.context } : {}),
    };
    return () =>
      recorder.record(position, logged, trajectory, texts, labels).catch((error: unknown) => {
        halt.abort("recording failed");
        throw error;
      });
  };
  let recordFailure: { error: unknown } | undefined;
  try {
    // A task's episodes one after another, so that none is in flight while another of its task
    // is (a purple could wait for its sibling and copy it); different tasks `concurrency` at a time.
    await runChains(taskChains(queue), { concurrency: config.concurrency, signal: episodeSignal, drain }, playEpisode);
    if (spend.exceeded) throw spend.exceeded;
  } catch (error) {
    recordFailure = { error };
  } finally {
    await closeViews();
  }
  const records = recorder.records();
  const footer: LogFooter = {
    kind: "footer",
    finishedAt: now().toISOString(),
    wallMs: performance.now() - started + (resumeFrom?.footer?.wallMs ?? 0),
    status: records.length === total ? "completed" : signal?.reason === CANCELED || drain?.reason === CANCELED ? "canceled" : "interrupted",
    judgeUsage: judgeUsage(judge),
  };
  const log = { header, episodes: records, footer };
  if (recordFailure) throw new RecordingFailure(recordFailure.error, log);
  // All is recorded but the last line: the results stand, and a resend finds every episode done.
  await journal?.finish(footer).catch((error: unknown) => {
    throw new RecordingFailure(error, log);
  });
  return log;
}

/** The run's model spend limits: its config's, else the defaults. */
export function spendLimits(config: Pick<AssessmentConfig, "max_model_calls" | "max_model_chars">): SpendLimits {
  return { calls: config.max_model_calls ?? DEFAULT_MAX_MODEL_CALLS, chars: config.max_model_chars ?? DEFAULT_MAX_MODEL_CHARS };
}

/** One episode of the run's plan: a task, which of its trials, in which view; `position` numbers it in the plan. */
export interface EpisodeItem {
  readonly task: TaskRecord;
  readonly position: number;
  /** Set in a run with trials above 1 or paired (absent: the run's layout is the single-trial one). */
  readonly trial?: number;
  readonly condition?: EpisodeCondition;
}

/**
 * The run's episodes: each task `trials` times and, in a paired run, each trial in the perturbed
 * view and then the clean one. A task's episodes are neighbours, so a shard holds all of them
 * (shards split the tasks, not the episodes) and a task's pass count is never split.
 */
export function episodePlan(tasks: readonly TaskRecord[], config: Pick<AssessmentConfig, "trials" | "paired">): EpisodeItem[] {
  const trials = config.trials ?? 1;
  if (trials === 1 && !config.paired) return tasks.map((task, i) => ({ task, position: i + 1 }));
  const conditions: EpisodeCondition[] = config.paired ? ["perturbed", "clean"] : [];
  const items: EpisodeItem[] = [];
  for (const task of tasks)
    for (let trial = 1; trial <= trials; trial++) {
      if (conditions.length === 0) items.push({ task, position: items.length + 1, trial });
      for (const condition of conditions) items.push({ task, position: items.length + 1, trial, condition });
    }
  return items;
}

/** An episode's place among its task's: none for the first (trial 1, its first view), which keeps the run's task id and Ids. */
export function laterEpisode(episode: Pick<EpisodeItem, "trial" | "condition">): { trial: number; condition?: EpisodeCondition } | undefined {
  const trial = episode.trial ?? 1;
  if (trial === 1 && (episode.condition === undefined || episode.condition === "perturbed")) return undefined;
  return { trial, ...(episode.condition !== undefined ? { condition: episode.condition } : {}) };
}

/**
 * The episodes left to play, as one chain per task in plan order: a resumed task goes on at its
 * first unrecorded episode, and its chains keep the order of their tasks' first episodes.
 */
export function taskChains(queue: readonly EpisodeItem[]): EpisodeItem[][] {
  const chains = new Map<number, EpisodeItem[]>();
  for (const item of queue) {
    const chain = chains.get(item.task.idx);
    if (chain) chain.push(item);
    else chains.set(item.task.idx, [item]);
  }
  return [...chains.values()];
}

/** A paired run's clean view: planned at drift and rot none, or reopened from a resumed run's header. */
async function openCleanView(
  data: AssessmentData,
  config: AssessmentConfig,
  chosen: ChosenTasks,
  remap: IdRemap | undefined,
  owner: string,
  resumed?: LogHeader,
): Promise<OrgView> {
  if (resumed) {
    if (!resumed.cleanEntropy) throw new Error("the run's journal has no clean view (it was not started paired); resume it with the config it started with");
    return OrgView.open(data.org, resumed.cleanEntropy, remap, owner);
  }
  return OrgView.plan(
    data.org,
    { drift_level: "none", rot_level: "none", seed: config.seed, ...(config.perturbations ? { only: config.perturbations } : {}) },
    chosen.selection.tasks,
    data.tasks.tasks,
    remap,
    owner,
  );
}

/**
 * A run stopped because an episode (or its footer) could not be recorded, a full disk say: the
 * cause, and the log of every episode that was recorded (interrupted, and resumable from the
 * journal once the disk has room; completed when only the footer failed), so that the client
 * still gets those results.
 */
export class RecordingFailure extends EntropicError {
  override readonly name = "RecordingFailure";
  constructor(
    override readonly cause: unknown,
    readonly partial: AssessmentLog,
  ) {
    super("journal", cause instanceof Error ? cause.message : String(cause), { cause });
  }
}

/**
 * Whole texts the episodes in flight of every assessment of the process may hold for their
 * journals (see WholeTextBudget): 64 million characters, or an eighth of the heap limit when that
 * is less (a character takes one or two bytes), so that they never crowd out the rest of the run.
 */
export const WHOLE_TEXTS = new WholeTextBudget(Math.min(64_000_000, Math.floor(getHeapStatistics().heap_size_limit / 8)));
const NO_WHOLE_TEXTS = new WholeTextBudget(0);
