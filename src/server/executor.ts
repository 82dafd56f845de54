import { randomUUID } from "node:crypto";
import { type Message, type Part, Role, type Task, type TaskArtifactUpdateEvent, TaskState, type TaskStatusUpdateEvent } from "@a2a-js/sdk";
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import {
  type Admission,
  type AssessmentData,
  type AssessmentEvent,
  admitSession,
  CANCELED,
  type OutcomeKind,
  runSession,
  type SessionDeps,
  type SessionEvent,
  type SessionOutcome,
  type SpendCeiling,
  statusWords,
  type ToolChannel,
  unknownKeysMessage,
} from "../assessment/index.js";
import { SAMPLE } from "../datasets/index.js";
import { JournalWriteError } from "../log/index.js";
import { a2aPurpleClients, describeError, fetchAgentCard, type PurpleClientFactory, participantEndpoint } from "../purple/index.js";
import { type ResultsObject, summaryText } from "../report/index.js";
import type { Calibration, Judge } from "../scoring/index.js";
import type { UserChoice, UserSimulator } from "../users/index.js";
import { EntropicError } from "../util/index.js";
import { collectGarbage } from "./collect.js";
import { ProgressLines } from "./progress.js";
import { type AssessmentRequest, type DataForConfig, type DoneWithData, RequestRejection, rejectionOf, requestDocument, validateRequest } from "./request.js";
import { TASK_TOKEN_KEY } from "./task-access.js";

export const RESULTS_ARTIFACT_NAME = "CRMArena Assessment Results";

/** How long after the last assessment ends its garbage is collected (after its reply is written). */
const GC_DELAY_MS = 300;

/** The abort reason of assessments stopped by a server shutdown (they are resumable). */
export const SHUTDOWN = "shutdown";

export interface ExecutorOptions {
  /** The token that opens a task to its creator (task-access.ts), handed back in the task's metadata; none without it. */
  readonly taskToken?: (taskId: string) => string;
  /** The data a request's config chooses: the server's lazily loaded datasets (data/'s DatasetShelf). */
  readonly dataFor: DataForConfig;
  /** Called once for each data `dataFor` gave, when its assessment (or its rejection) is done with it. */
  readonly doneWith?: DoneWithData;
  /** The calibration a run on this dataset is scored against (a dataset may have its own: data/'s calibrationFor). */
  readonly calibration: (dataset: string) => Calibration;
  /** A fresh judge per assessment, so that each result reports its own model usage. */
  readonly createJudge: () => Judge;
  /** The operator's secret in the Id remap's key (resolved by the command line); none: the seed alone keys it. */
  readonly idSecret?: string | undefined;
  /** The operator's ceiling on a request's model spend caps; none: the config's range. */
  readonly spendCeiling?: SpendCeiling | undefined;
  /** Interactive mode's simulated user (with its model); the offline choice when absent. */
  readonly createUser?: ((choice: UserChoice) => UserSimulator) | undefined;
  /** The client each assessment speaks to its purple through; A2A with the default retry window when absent. */
  readonly createPurple?: PurpleClientFactory | undefined;
  readonly logger: Logger;
  /** Longest silence between status updates; the AgentBeats client gives up after 300 s of silence. */
  readonly heartbeatMs?: number;
  /** Where each assessment's journal (`<run id>.jsonl`, one per shard) goes. */
  readonly runsDir?: string;
  /** The gateway's proxy (Amber's `proxy` slot, PROXY_URL): loopback participant URLs are reached through it. */
  readonly proxyUrl?: string;
  /** Time allowed to fetch the purple agent's card before rejecting the request. */
  readonly cardTimeoutMs?: number;
  /** Assessments running or being admitted at once; more are rejected with a clear message (each holds an org copy and its episodes). */
  readonly maxAssessments?: number;
  /** Where episodes also take tool calls over MCP (the server's endpoint). */
  readonly toolChannel?: ToolChannel;
}

/** One assessment in flight: how to stop it gently (no new episodes) and at once (calls in flight aborted). */
interface Running {
  readonly drain: AbortController;
  readonly abort: AbortController;
  readonly done: Promise<void>;
}

export const DEFAULT_MAX_ASSESSMENTS = 8;

/**
 * Runs one assessment per A2A request and reports it the way the AgentBeats client reads it:
 * one Task, working updates (a heartbeat when nothing else happens), one results artifact, then a
 * final update. A cancel aborts the purple calls in flight; a shutdown stops new episodes, gives
 * the running ones a grace period, then ends every assessment with its partial results. Events are
 * A2A 1.0's types; the SDK writes them in the version of the request (1.0, or 0.3 through its
 * compatibility layer). The SDK settles the event bus when `execute` returns, so it returns only
 * once the assessment has ended.
 */
export class AssessmentExecutor implements AgentExecutor {
  private readonly heartbeatMs: number;
  private readonly running = new Map<string, Running>();
  /**
   * Assessments being admitted or running: the limit counts both, and a request takes its slot
   * before its first `await`, so requests that arrive together cannot all pass the check.
   */
  private slots = 0;
  /** The journals (run and shard) of the assessments admitted or being admitted. */
  private readonly journals = new Set<string>();
  private stopping = false;

  constructor(private readonly options: ExecutorOptions) {
    this.heartbeatMs = options.heartbeatMs ?? 20_000;
  }

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const { taskId, contextId } = context;
    const log = this.options.logger.child({ taskId });
    const publish = (state: TaskState, lines: readonly string[]) => bus.publish(AgentEvent.statusUpdate(statusUpdate(taskId, contextId, state, lines)));
    const progress = new ProgressLines((lines) => publish(TaskState.TASK_STATE_WORKING, lines));
    const status = (state: TaskState, text: string) => {
      progress.flush();
      publish(state, [text]);
    };
    // Every call starts with the Task (the SDK requires it of follow-up messages too).
    const task: Task = {
      id: taskId,
      contextId,
      status: { state: TaskState.TASK_STATE_SUBMITTED, message: undefined, timestamp: new Date().toISOString() },
      artifacts: [],
      history: [context.userMessage],
      // Only the creator gets this first event: reading, canceling or resubscribing to the task needs the token.
      metadata: this.options.taskToken ? { [TASK_TOKEN_KEY]: this.options.taskToken(taskId) } : undefined,
    };
    bus.publish(AgentEvent.task(task));
    let finished: () => void = () => undefined;
    let heartbeat: NodeJS.Timeout | undefined;
    let release: () => void = () => undefined;
    try {
      const admitted = await this.admit(context, log);
      if ("rejection" in admitted) {
        log.warn({ reason: admitted.rejection }, "assessment request rejected");
        status(TaskState.TASK_STATE_REJECTED, `Request rejected: ${admitted.rejection}`);
        return;
      }
      release = admitted.release;
      const { admission } = admitted;
      const { spec, data, protocol } = admission;
      const { runId, config } = spec;
      const total = admission.chosen.selection.tasks.length;
      const drain = new AbortController();
      const abort = new AbortController();
      this.running.set(taskId, { drain, abort, done: new Promise<void>((resolve) => (finished = resolve)) });
      // A typo in a key runs the assessment without it: say so before any work, with the key it likely meant.
      const unknownNote = admission.ignoredConfigKeys.length > 0 ? ` WARNING: ${unknownKeysMessage([...admission.ignoredConfigKeys])}; they are ignored.` : "";
      const dataNote =
        data.dataset === SAMPLE.name
          ? " WARNING: running on the bundled SAMPLE data, not the real CRMArena-Pro org (run `npx tsx src/cli.ts data fetch` (`entropic-crmarena data fetch` when installed))."
          : "";
      status(
        TaskState.TASK_STATE_WORKING,
        `Starting assessment with ${total} tasks on the ${data.dataset} dataset. Drift: ${config.drift_level}, Rot: ${config.rot_level}. Run ${runId}. Config: ${JSON.stringify(config)}. The purple agent is spoken to in A2A ${protocol.version}: ${protocol.reason}.${unknownNote}${dataNote}`,
      );
      log.info({ total, config, runId, dataset: data.dataset, a2a: protocol.version }, "assessment started");
      let done = 0;
      const started = Date.now();
      let lastUpdate = Date.now();
      const publishWorking = (text: string) => {
        lastUpdate = Date.now();
        progress.add(text);
      };
      // Checked every second, so the longest silence is at most three quarters of the promise plus a second.
      heartbeat = setInterval(
        () => {
          if (Date.now() - lastUpdate >= this.heartbeatMs * 0.75)
            publishWorking(`Still working: ${done}/${total} tasks finished after ${Math.round((Date.now() - started) / 1000)} s.`);
        },
        Math.min(1_000, Math.max(50, Math.floor(this.heartbeatMs / 4))),
      );
      const outcome = await runSession(
        admission,
        this.sessionDeps((event) => {
          if (event.kind === "journal_notice") {
            log.warn({ runId }, event.text);
            publishWorking(event.text);
            return;
          }
          const line = progressText(event, runId);
          if (event.kind === "task_finished") done = event.done;
          if (line !== undefined) publishWorking(line);
        }),
        {
          signal: abort.signal,
          drain: drain.signal,
          // A request seen before continues its journal: nothing finished is lost or run twice.
          resume: true,
          logDir: this.options.runsDir,
        },
      );
      clearInterval(heartbeat);
      const words = statusWords(outcome, total, this.options.runsDir);
      progress.flush();
      if (ATTACHES_RESULTS[outcome.kind]) bus.publish(AgentEvent.artifactUpdate(resultsArtifact(taskId, contextId, outcome.results, words.artifactNote)));
      logOutcome(log, outcome);
      status(taskStateOf(outcome), words.status);
    } catch (error) {
      log.error({ err: error }, "assessment failed");
      // Only the header can fail this way (an episode's failure comes back with the results): nothing was recorded.
      const again = error instanceof JournalWriteError ? "; nothing was recorded, and the same request starts the run afresh once the runs folder has room" : "";
      status(TaskState.TASK_STATE_FAILED, `Assessment failed: ${describeError(error)}${again}`);
    } finally {
      if (heartbeat) clearInterval(heartbeat);
      progress.stop();
      this.running.delete(taskId);
      release();
      finished();
      // The assessment's garbage goes soon, not at V8's next full collection; not while others
      // run. Soon, not at once: the results reply is still to be serialised and written, and
      // its megabytes are garbage only after that.
      if (this.running.size === 0) setTimeout(() => this.running.size === 0 && collectGarbage(), GC_DELAY_MS).unref();
    }
  }

  /**
   * Validates a request, reaches the purple's card, chooses the A2A version to speak and names the
   * run (the session's admission); or says why not. An admitted request holds its slot (and its
   * journal) until `release`; a rejected one has given them back.
   */
  private async admit(context: RequestContext, log: Logger): Promise<{ admission: Admission; release: () => void } | { rejection: string }> {
    if (this.stopping) return { rejection: "the server is shutting down; send the request again to its next instance" };
    const limit = this.options.maxAssessments ?? DEFAULT_MAX_ASSESSMENTS;
    if (this.slots >= limit)
      return {
        rejection: `the server is busy: ${this.slots} assessments running or being admitted (its limit, --max-assessments, is ${limit}); send the request again when one has finished`,
      };
    // Taken before the first await, given back once (a rejection, a failure, or the assessment's end).
    this.slots++;
    let journal: string | undefined;
    let data: AssessmentData | undefined;
    let held = true;
    const release = () => {
      if (!held) return;
      held = false;
      this.slots--;
      if (journal) this.journals.delete(journal);
      if (data) this.options.doneWith?.(data);
    };
    let request: AssessmentRequest | undefined;
    let endpoint: string | undefined;
    try {
      request = await validateRequest(requestDocument(context.userMessage), this.options.dataFor, this.options.doneWith, this.options.spendCeiling);
      endpoint = participantEndpoint(request.participantUrl, this.options.proxyUrl);
      // The session hands the data back on a rejection of the purple: the slot's release must not again.
      const admission = await admitSession({ ...request, request: { ...request.request, endpoint } }, { fetchCard: this.fetchCard, doneWith: this.options.doneWith });
      data = admission.data;
      // A shutdown that began while the card was awaited waits for no one admitted after it.
      if (this.stopping) throw new RequestRejection("the server is shutting down; send the request again to its next instance");
      const { runId, config } = admission.spec;
      // Two attempts at one shard of a run would write one journal: the second waits its turn (or names another run).
      const shardJournal = `${runId}#${config.shard_index}/${config.num_shards}`;
      if (this.options.runsDir && this.journals.has(shardJournal))
        throw new RequestRejection(
          `run ${runId} (the same purple, config and tasks; this shard) is already in progress on this server; wait for it to finish or set config.run_id`,
        );
      journal = shardJournal;
      this.journals.add(journal);
      return { admission, release };
    } catch (error) {
      release();
      // The project's own errors say what is wrong with the request: a rejection; anything else is the server's failure.
      if (error instanceof EntropicError) return { rejection: rejectionOf(error, request && endpoint ? { participantUrl: request.participantUrl, endpoint } : undefined).message };
      log.error({ err: error }, "request validation failed");
      throw error;
    }
  }

  private readonly fetchCard = (endpoint: string) => fetchAgentCard(endpoint, this.options.cardTimeoutMs ?? 10_000);

  /** What each session of this server runs with. */
  private sessionDeps(onEvent: SessionDeps["onEvent"]): SessionDeps {
    return {
      dataFor: this.options.dataFor,
      createJudge: this.options.createJudge,
      calibration: this.options.calibration,
      idSecret: this.options.idSecret,
      createUser: this.options.createUser,
      createPurple: this.options.createPurple ?? DEFAULT_PURPLES,
      fetchCard: this.fetchCard,
      toolChannel: this.options.toolChannel,
      onEvent,
    };
  }

  /** Aborts the purple calls in flight; the episodes end, the task ends as canceled. */
  async cancelTask(taskId: string): Promise<void> {
    const running = this.running.get(taskId);
    running?.drain.abort(CANCELED);
    running?.abort.abort(CANCELED);
  }

  /**
   * Stops every assessment: no new episodes at once; after `graceMs` the episodes still running
   * are aborted. Each assessment then ends with its partial results; resolves when all have.
   */
  async shutdown(graceMs: number): Promise<void> {
    this.stopping = true;
    const running = [...this.running.values()];
    for (const assessment of running) assessment.drain.abort(SHUTDOWN);
    const all = Promise.all(running.map((assessment) => assessment.done));
    let timer: NodeJS.Timeout | undefined;
    const grace = new Promise<void>((resolve) => (timer = setTimeout(resolve, graceMs)));
    await Promise.race([all, grace]);
    clearTimeout(timer);
    for (const assessment of running) assessment.abort.abort(SHUTDOWN);
    await all;
  }

  /** Assessments in flight. */
  get inFlight(): number {
    return this.running.size;
  }
}

function resultsArtifact(taskId: string, contextId: string, results: ResultsObject, note?: string): TaskArtifactUpdateEvent {
  return {
    taskId,
    contextId,
    artifact: {
      artifactId: randomUUID(),
      name: RESULTS_ARTIFACT_NAME,
      description: "",
      parts: [
        textPart(note ? `${summaryText(results)}\n${note}` : summaryText(results)),
        { content: { $case: "data", value: results }, metadata: undefined, filename: "", mediaType: "application/json" },
      ],
      metadata: undefined,
      extensions: [],
    },
    append: false,
    lastChunk: true,
    metadata: undefined,
  };
}

function textPart(text: string): Part {
  return { content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" };
}

/** The purple client of a server given none: A2A, the default retry window. */
const DEFAULT_PURPLES = a2aPurpleClients();

/** The A2A task state each outcome ends in (a journal that failed after the last episode leaves whole results: completed). */
export function taskStateOf(outcome: SessionOutcome): TaskState {
  if (outcome.kind === "journal_failed") return outcome.results.status === "completed" ? TaskState.TASK_STATE_COMPLETED : TaskState.TASK_STATE_FAILED;
  return TASK_STATES[outcome.kind];
}

const TASK_STATES: Record<Exclude<OutcomeKind, "journal_failed">, TaskState> = {
  completed: TaskState.TASK_STATE_COMPLETED,
  canceled: TaskState.TASK_STATE_CANCELED,
  interrupted: TaskState.TASK_STATE_FAILED,
  stopped_early: TaskState.TASK_STATE_FAILED,
  incompatible: TaskState.TASK_STATE_FAILED,
};

/** Whether the results go back as an artifact: not for a canceled run, nor for a purple whose answers did not count. */
const ATTACHES_RESULTS: Record<OutcomeKind, boolean> = {
  completed: true,
  canceled: false,
  interrupted: true,
  stopped_early: true,
  incompatible: false,
  journal_failed: true,
};

/** The server log's line for an outcome. */
function logOutcome(log: Logger, outcome: SessionOutcome): void {
  const { summary } = outcome.results;
  if (outcome.kind === "incompatible") log.warn({ reason: outcome.reason }, "assessment stopped: the purple speaks another A2A version");
  else if (outcome.kind === "stopped_early") log.warn({ summary, reason: outcome.reason }, "assessment stopped early: the purple agent is gone");
  else if (outcome.kind === "journal_failed") log.error({ summary, reason: outcome.reason }, "assessment stopped: its journal cannot be written");
  else if (outcome.kind === "interrupted") log.warn({ summary }, "assessment interrupted");
  else if (outcome.kind === "completed") log.info({ summary }, "assessment completed");
}

/** The working update an event gives, if any. */
function progressText(event: Exclude<SessionEvent, { kind: "journal_notice" }>, runId: string): string | undefined {
  // A resend of a request seen before continues its journal, or returns it whole: say which, so a
  // developer who changed the purple (but not its card) knows these are not fresh scores.
  if (event.kind === "started")
    return event.resumed === 0
      ? undefined
      : event.resumed >= event.total
        ? `Run ${runId} is already complete in this server's journal: returning its stored results, nothing runs again (to run anew, change the purple's card, e.g. its version, or set config.run_id).`
        : `Continuing run ${runId} from its journal: ${event.resumed} of ${event.total} episodes are already done and are not run again.`;
  if (event.kind === "task_started") return `[${event.position}/${event.total}] started task ${event.task.idx} (${event.task.task})`;
  return progressLine(event);
}

/** A finished episode's line, numbered by completion. */
function progressLine(event: Extract<AssessmentEvent, { kind: "task_finished" }>): string {
  const { record } = event;
  const ok = record.score?.original.passed ?? false;
  const score = record.score ? record.score.totalScore.toFixed(1) : "0.0";
  const seconds = (record.trajectory.totalMs / 1000).toFixed(1);
  const note = record.score ? "" : ` (${record.unscored ?? record.trajectory.termination})`;
  return `[${event.done}/${event.total}] ${ok ? "✓" : "✗"} ${record.task.idx} ${record.task.category} score=${score} ${seconds}s${note}`;
}

/** A status update with its lines, a text part each; A2A 0.3 clients get `final: true` on the terminal states (the SDK derives it). */
function statusUpdate(taskId: string, contextId: string, state: TaskState, lines: readonly string[]): TaskStatusUpdateEvent {
  const message: Message = {
    messageId: randomUUID(),
    contextId,
    taskId,
    role: Role.ROLE_AGENT,
    parts: lines.map(textPart),
    metadata: undefined,
    extensions: [],
    referenceTaskIds: [],
  };
  return { taskId, contextId, status: { state, message, timestamp: new Date().toISOString() }, metadata: undefined };
}
