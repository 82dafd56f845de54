import type { IdStatus, ObservationRecord, Termination, Trajectory, TrajectoryStep, UserTurn } from "../log/index.js";
import type { OrgRequest, ToolOutcome } from "../org/index.js";
import {
  type Action,
  countedMcpAccess,
  type FirstMessageFormat,
  formatReminder,
  type OutgoingMessage,
  observationMessage,
  parseAction,
  type TaskBrief,
  taskMessage,
  userMessage,
} from "../protocol/index.js";
import { type PurpleClient, PurpleError, PurpleGoneError, type PurpleTurn } from "../purple/index.js";
import { toolsNamed } from "../tools/index.js";
import type { UserSimulator } from "../users/index.js";
import { idsIn, measureTokens } from "../util/index.js";
import { type EpisodeUser, simulatedUser, wholeRequestUser } from "./episode-user.js";
import { keepData, type TextLease, trimAction, UNBOUNDED } from "./held-texts.js";
import { observationRecordOf, SideCalls, type ToolChannel } from "./side-calls.js";

/** The world an episode acts in: the org's tools as the purple sees them, and what the org knows of an Id. */
export interface EpisodeWorld {
  runTool(request: OrgRequest, today: string): Promise<ToolOutcome>;
  /** Is this Id a live record, a distractor that rot put there, or nothing the org has? */
  idStatus(id: string): IdStatus;
}

export interface EpisodeOptions {
  readonly maxSteps: number;
  readonly timeoutMs: number;
  /** The date SOQL's TODAY means when the task names none: the org's own latest date, never the clock. */
  readonly defaultToday: string;
  /** What drift and rot did to the task, logged in the trajectory. */
  readonly entropy: Pick<Trajectory["entropy"], "renamedInText" | "passages" | "driftExposure">;
  /** Aborts the purple call in flight (cancel, shutdown): the episode ends as canceled. */
  readonly signal?: AbortSignal;
  /** Which long texts the steps keep whole (all of them when absent). */
  readonly texts?: TextLease;
  /** How the first message's text is written (config `first_message`). */
  readonly firstMessage?: FirstMessageFormat;
  /** Interactive mode: the simulated user who holds the request; its replies answer the purple's responds. */
  readonly user?: UserSimulator;
  /** A second way in for the episode's tool calls (the green's MCP endpoint), offered in the first message. */
  readonly channel?: ToolChannel;
}

/**
 * Drives one task: the purple agent acts in the org, one action per turn, until it answers,
 * runs out of turns, fails, or is canceled. Never throws: every ending is a termination reason in
 * the returned trajectory.
 */
export function runEpisode(brief: TaskBrief, taskIdx: number, world: EpisodeWorld, purple: PurpleClient, options: EpisodeOptions): Promise<Trajectory> {
  return new Episode(brief, taskIdx, world, purple, options).run();
}

/** A reply as a turn handles it: what came back, with the time the purple took and the warnings it earned. */
interface ReplyInHand {
  readonly reply: PurpleTurn;
  readonly purpleMs: number;
  readonly greenStarted: number;
  readonly sent: { readonly chars: number; readonly tokens: number; readonly estimated?: boolean };
}

/** A reply's action as acted on (the purple's next message is set meanwhile): what its step records. */
interface Acted {
  readonly action: Action;
  readonly warnings: string[];
  readonly observation?: ObservationRecord;
  readonly userTurn?: UserTurn;
}

/**
 * One episode as its loop runs (tau2's orchestrator): the purple, the user it speaks for (always
 * there; see episode-user.ts), the org behind the tools, and the side channel, each turn a message
 * out, a reply in, an action acted on and a step recorded, until a termination reason.
 */
class Episode {
  private readonly started = performance.now();
  private readonly startedAt = new Date().toISOString();
  private readonly steps: TrajectoryStep[] = [];
  private readonly offered: ReturnType<typeof toolsNamed>;
  private readonly today: string;
  private readonly distractorsSeen = new Set<string>();
  private readonly user: EpisodeUser;
  private readonly texts: TextLease;
  private readonly side: SideCalls | undefined;
  private firstMessageTokens = 0;
  // Token counting is the green's bookkeeping, not the purple's wait: each message is counted once
  // it is on its way, and each reply once the next message is (or when the episode ends).
  private countLastReply: (() => void) | undefined;
  private thread: { contextId?: string; taskId?: string } = {};
  private termination: Termination = "max_steps";
  private error: string | undefined;
  private answer: string | undefined;
  private warnedNoContext = false;
  // max_steps agent turns after each answer the user replies to (the count starts again when the
  // user speaks), up to the user's lastTurn. A step is an A2A reply or a call over the side
  // channel (MCP): both count alike.
  private budgetFrom = 0;
  // From a reply's arrival to its step: its step is spoken for, so no side call takes its place.
  private replyInHand = false;
  /** The purple's next message. */
  private message: OutgoingMessage | undefined;

  constructor(
    private readonly brief: TaskBrief,
    private readonly taskIdx: number,
    private readonly world: EpisodeWorld,
    private readonly purple: PurpleClient,
    private readonly options: EpisodeOptions,
  ) {
    this.offered = toolsNamed(brief.tools);
    this.today = brief.today ?? options.defaultToday;
    // The user the episode speaks for opens it (the whole request, or a simulated user's opening) and hears each answer.
    this.user = options.user ? simulatedUser(options.user, brief, options.maxSteps) : wholeRequestUser(brief.prompt, options.maxSteps);
    this.texts = options.texts ?? UNBOUNDED;
    this.side = options.channel
      ? new SideCalls({
          world,
          today: this.today,
          offered: this.offered,
          maxSteps: options.maxSteps,
          texts: this.texts,
          distractorsSeen: this.distractorsSeen,
          label: brief.taskId,
          used: () => this.steps.length - this.budgetFrom + (this.replyInHand ? 1 : 0),
          nextTurn: () => this.steps.length + 1,
          push: (step) => this.steps.push({ turn: this.steps.length + 1, ...step }),
        })
      : undefined;
  }

  async run(): Promise<Trajectory> {
    let opened: Awaited<ReturnType<EpisodeUser["open"]>> = { prompt: this.brief.prompt };
    try {
      opened = await this.user.open();
    } catch (cause) {
      // A run stopped meanwhile (its model spend cap, a cancel) refused the user's call: the episode did not finish.
      this.endByUser(cause);
    }
    const door = this.side && this.termination !== "user_error" ? this.options.channel!.open(this.side) : undefined;
    const firstBrief = { ...this.brief, prompt: opened.prompt };
    const userSpeaks = opened.opening !== undefined;
    const first = taskMessage(firstBrief, this.options.firstMessage, userSpeaks, door?.access);
    // Counted with a standard access, so that where the green listens changes no count.
    const firstCounted = door ? taskMessage(firstBrief, this.options.firstMessage, userSpeaks, countedMcpAccess(door.access)).text : first.text;
    this.message = first;
    for (let exchange = 1; this.turnsLeft(); exchange++) {
      if (this.options.signal?.aborted) {
        this.termination = "canceled";
        break;
      }
      const inHand = await this.exchange(this.message, exchange === 1 ? firstCounted : this.message.text, exchange === 1);
      if (!inHand) break;
      this.takeTurn(inHand, await this.actOn(inHand));
      if (this.termination === "answered" || this.termination === "user_error" || this.termination === "canceled") break;
    }
    // Closed before the trajectory is made: later calls are refused, those in flight are recorded.
    door?.close();
    return this.trajectory();
  }

  private turnsLeft(): boolean {
    const { steps, termination } = this;
    return steps.length < this.user.lastTurn && steps.length - this.budgetFrom < this.options.maxSteps && termination !== "user_error" && termination !== "canceled";
  }

  /** Sends a message and waits for the reply; undefined when the turn ended the episode (canceled, a purple gone, a failed turn). */
  private async exchange(message: OutgoingMessage, countedText: string, first: boolean): Promise<ReplyInHand | undefined> {
    const { options } = this;
    const callStarted = performance.now();
    const call = this.purple.send(message, this.thread, options.timeoutMs, options.signal);
    const sent = measureTokens(countedText);
    if (first) this.firstMessageTokens = sent.tokens;
    this.countLastReply?.();
    this.countLastReply = undefined;
    let reply: PurpleTurn;
    try {
      reply = await call;
    } catch (cause) {
      // Canceled, or a purple gone past its retry window: the episode did not finish, and is not recorded (a resend runs it again).
      if (options.signal?.aborted || cause instanceof PurpleGoneError) this.termination = "canceled";
      else ({ termination: this.termination, error: this.error } = failureOf(cause));
      return undefined;
    }
    // The side calls made during the turn are the green's time, and their steps come first.
    await this.side?.settle();
    this.replyInHand = true;
    const purpleMs = Math.max(0, performance.now() - callStarted - (this.side?.takeBusyMs() ?? 0));
    return { reply, purpleMs, greenStarted: performance.now(), sent: { chars: countedText.length, tokens: sent.tokens, ...(sent.estimated ? { estimated: true } : {}) } };
  }

  /** Acts on the reply's action: an answer goes to the user, an invalid action is reminded of the format, a tool call runs in the org. */
  private async actOn({ reply }: ReplyInHand): Promise<Acted> {
    const turn = this.steps.length + 1;
    const warnings: string[] = this.side?.takeWarnings() ?? [];
    if (this.thread.contextId !== undefined && reply.contextId !== undefined && reply.contextId !== this.thread.contextId) {
      warnings.push(`the purple changed the A2A contextId from ${this.thread.contextId} to ${reply.contextId}; the episode follows the new one`);
    }
    this.thread = { contextId: reply.contextId ?? this.thread.contextId, taskId: reply.openTaskId };
    const action = parseAction(reply.reply, this.offered);
    // Without a contextId the next turn is a new conversation to the purple: a purple that keeps its
    // state per context starts over every turn until max_steps. Said once, where it first happens.
    if (this.thread.contextId === undefined && action.kind !== "answer" && !this.warnedNoContext) {
      this.warnedNoContext = true;
      warnings.push(
        "the purple's reply has no A2A contextId, so the next turn cannot continue this conversation (a purple that keeps its state per context starts over each turn); reply with the request's contextId (the A2A SDKs do when the reply is built from the request context)",
      );
    }
    const remaining = this.options.maxSteps - (turn - this.budgetFrom);
    if (action.kind === "answer") return { action, warnings, ...(await this.hear(action.answer, turn)) };
    if (action.kind === "invalid") {
      this.message = formatReminder(action.reason, turn, remaining, this.offered);
      return { action, warnings, observation: { ok: false, code: "INVALID_ACTION", message: action.reason, text: this.message.text } };
    }
    const outcome = await this.world.runTool({ tool: action.tool, ...action.args }, this.today);
    this.message = observationMessage(outcome, turn, remaining);
    for (const id of idsIn(this.message.text)) if (this.world.idStatus(id) === "distractor") this.distractorsSeen.add(id);
    return { action, warnings, observation: observationRecordOf(outcome, this.message.text) };
  }

  /** The answer goes to the user: the answer so far, final once the user stops; else what the user says is the next message. */
  private async hear(answer: string, turn: number): Promise<Pick<Acted, "userTurn">> {
    this.answer = answer;
    try {
      const heard = await this.user.hear(answer);
      if (heard.stop) this.termination = "answered";
      else {
        this.budgetFrom = turn;
        this.message = userMessage(heard.turn.text, turn, this.options.maxSteps);
      }
      return heard.turn ? { userTurn: heard.turn } : {};
    } catch (cause) {
      this.endByUser(cause);
      return {};
    }
  }

  private endByUser(cause: unknown): void {
    this.termination = this.options.signal?.aborted ? "canceled" : "user_error";
    this.error = (cause as Error).message;
  }

  /** Records the turn's step, its reply's tokens counted once the next message is on its way. */
  private takeTurn({ reply, purpleMs, greenStarted, sent }: ReplyInHand, { action, warnings, observation, userTurn }: Acted): void {
    const { texts } = this;
    const replyText = reply.reply.texts.join("\n");
    const received: TrajectoryStep["received"] = { chars: replyText.length, tokens: 0, bytes: reply.bytes };
    const replyData = reply.reply.data;
    const dataJson = JSON.stringify(replyData);
    this.countLastReply = () => {
      const count = measureTokens(replyData.length === 0 ? replyText : `${replyText}\n${dataJson}`);
      received.tokens = count.tokens;
      if (count.estimated) received.estimated = true;
    };
    this.replyInHand = false;
    this.steps.push({
      turn: this.steps.length + 1,
      sent,
      received,
      replyText: texts.keep(replyText),
      replyData: keepData(replyData, dataJson, texts.keep),
      action: trimAction(action, texts.keep),
      ...(observation ? { observation: { ...observation, text: texts.keep(observation.text) } } : {}),
      ...(reply.usage ? { usage: reply.usage } : {}),
      ...(warnings.length > 0 ? { warnings } : {}),
      ...(userTurn ? { user: userTurn } : {}),
      // The user is shown the whole reply of an answer or respond, not only the action parsed from it.
      ...(action.kind === "answer" ? { toUser: true as const } : {}),
      purpleMs,
      greenMs: performance.now() - greenStarted,
    });
  }

  /** The episode's record, once the side channel has settled: its late warnings on the last step. */
  private async trajectory(): Promise<Trajectory> {
    const { steps, side } = this;
    side?.close();
    await side?.settle();
    const late = side?.takeWarnings() ?? [];
    const last = steps.at(-1);
    if (late.length > 0 && last) last.warnings = [...(last.warnings ?? []), ...late];
    this.countLastReply?.();
    // CRMArena-Pro scores an interactive episode when its user stops; one that ran out of turns first has no answer.
    const answer = !this.user.keepsUnfinishedAnswer && this.termination === "max_steps" ? undefined : this.answer;
    const userLog = this.user.log();
    const purpleMs = steps.reduce((sum, step) => sum + step.purpleMs, 0);
    const totalMs = performance.now() - this.started;
    return {
      taskIdx: this.taskIdx,
      category: this.brief.category,
      startedAt: this.startedAt,
      firstMessageTokens: this.firstMessageTokens,
      steps,
      entropy: { ...this.options.entropy, distractorIdsSeen: [...this.distractorsSeen].sort() },
      answerIds: answer === undefined ? [] : idsIn(answer).map((id) => ({ id, status: this.world.idStatus(id) })),
      termination: this.termination,
      ...(this.error !== undefined ? { error: this.error } : {}),
      ...(answer !== undefined ? { answer } : {}),
      ...(userLog ? { user: userLog } : {}),
      totalMs,
      purpleMs,
      greenMs: Math.max(0, totalMs - purpleMs),
      ...(this.purple.protocolVersion ? { a2aVersion: this.purple.protocolVersion } : {}),
    };
  }
}

/**
 * How a failed turn ends its episode (docs/protocol.md, section 11): no answer in time is
 * `timeout`; a reply that is no usable A2A reply (an HTTP error or redirect, not JSON-RPC, a
 * JSON-RPC error, a result that is no Message or Task, too large) is `protocol_error`; a purple
 * that could not be reached (refused, reset, gone) or whose task failed is `purple_error`.
 */
export function failureOf(cause: unknown): { termination: Termination; error: string } {
  const failure = cause instanceof PurpleError ? cause : new PurpleError("protocol", `the purple agent's turn failed: ${String(cause)}`);
  const termination: Termination = failure.kind === "timeout" ? "timeout" : failure.kind === "protocol" || failure.kind === "too_large" ? "protocol_error" : "purple_error";
  return { termination, error: failure.message };
}
