import type { IdStatus, ObservationRecord, Termination, Trajectory, TrajectoryStep, UserTurn } from "../log/index.js";
import type { OrgRequest, ToolOutcome } from "../org/index.js";
import {
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
export async function runEpisode(brief: TaskBrief, taskIdx: number, world: EpisodeWorld, purple: PurpleClient, options: EpisodeOptions): Promise<Trajectory> {
  const started = performance.now();
  const startedAt = new Date().toISOString();
  const steps: TrajectoryStep[] = [];
  const offered = toolsNamed(brief.tools);
  const today = brief.today ?? options.defaultToday;
  let firstMessageTokens = 0;
  const distractorsSeen = new Set<string>();
  // Token counting is the green's bookkeeping, not the purple's wait: each message is counted once
  // it is on its way, and each reply once the next message is (or when the episode ends).
  let countLastReply: (() => void) | undefined;
  let thread: { contextId?: string; taskId?: string } = {};
  let termination: Termination = "max_steps";
  let error: string | undefined;
  let answer: string | undefined;
  let warnedNoContext = false;
  // The user the episode speaks for opens it (the whole request, or a simulated user's opening) and hears each answer.
  const user = options.user ? simulatedUser(options.user, brief, options.maxSteps) : wholeRequestUser(brief.prompt, options.maxSteps);
  let opened: Awaited<ReturnType<EpisodeUser["open"]>> = { prompt: brief.prompt };
  try {
    opened = await user.open();
  } catch (cause) {
    // A run stopped meanwhile (its model spend cap, a cancel) refused the user's call: the episode did not finish.
    termination = options.signal?.aborted ? "canceled" : "user_error";
    error = (cause as Error).message;
  }
  const texts = options.texts ?? UNBOUNDED;
  // max_steps agent turns after each answer the user replies to (the count starts again when the
  // user speaks), up to the user's lastTurn. A step is an A2A reply or a call over the side
  // channel (MCP): both count alike.
  let budgetFrom = 0;
  // From a reply's arrival to its step: its step is spoken for, so no side call takes its place.
  let replyInHand = false;
  const side = options.channel
    ? new SideCalls({
        world,
        today,
        offered,
        maxSteps: options.maxSteps,
        texts,
        distractorsSeen,
        label: brief.taskId,
        used: () => steps.length - budgetFrom + (replyInHand ? 1 : 0),
        nextTurn: () => steps.length + 1,
        push: (step) => steps.push({ turn: steps.length + 1, ...step }),
      })
    : undefined;
  const door = side && termination !== "user_error" ? options.channel!.open(side) : undefined;
  const firstBrief = { ...brief, prompt: opened.prompt };
  const userSpeaks = opened.opening !== undefined;
  const first = taskMessage(firstBrief, options.firstMessage, userSpeaks, door?.access);
  // Counted with a standard access, so that where the green listens changes no count.
  const firstCounted = door ? taskMessage(firstBrief, options.firstMessage, userSpeaks, countedMcpAccess(door.access)).text : first.text;
  let message: OutgoingMessage = first;

  for (let exchange = 1; steps.length < user.lastTurn && steps.length - budgetFrom < options.maxSteps && termination !== "user_error" && termination !== "canceled"; exchange++) {
    if (options.signal?.aborted) {
      termination = "canceled";
      break;
    }
    const callStarted = performance.now();
    const call = purple.send(message, thread, options.timeoutMs, options.signal);
    const countedText = exchange === 1 ? firstCounted : message.text;
    const sent = measureTokens(countedText);
    if (exchange === 1) firstMessageTokens = sent.tokens;
    const sentChars = countedText.length;
    countLastReply?.();
    countLastReply = undefined;
    let reply: PurpleTurn;
    try {
      reply = await call;
    } catch (cause) {
      // Canceled, or a purple gone past its retry window: the episode did not finish, and is not recorded (a resend runs it again).
      if (options.signal?.aborted || cause instanceof PurpleGoneError) {
        termination = "canceled";
        break;
      }
      ({ termination, error } = failureOf(cause));
      break;
    }
    // The side calls made during the turn are the green's time, and their steps come first.
    await side?.settle();
    replyInHand = true;
    const purpleMs = Math.max(0, performance.now() - callStarted - (side?.takeBusyMs() ?? 0));
    const greenStarted = performance.now();
    const turn = steps.length + 1;
    const warnings: string[] = side?.takeWarnings() ?? [];
    if (thread.contextId !== undefined && reply.contextId !== undefined && reply.contextId !== thread.contextId) {
      warnings.push(`the purple changed the A2A contextId from ${thread.contextId} to ${reply.contextId}; the episode follows the new one`);
    }
    thread = { contextId: reply.contextId ?? thread.contextId, taskId: reply.openTaskId };
    const action = parseAction(reply.reply, offered);
    // Without a contextId the next turn is a new conversation to the purple: a purple that keeps its
    // state per context starts over every turn until max_steps. Said once, where it first happens.
    if (thread.contextId === undefined && action.kind !== "answer" && !warnedNoContext) {
      warnedNoContext = true;
      warnings.push(
        "the purple's reply has no A2A contextId, so the next turn cannot continue this conversation (a purple that keeps its state per context starts over each turn); reply with the request's contextId (the A2A SDKs do when the reply is built from the request context)",
      );
    }
    const replyText = reply.reply.texts.join("\n");
    const remaining = options.maxSteps - (turn - budgetFrom);
    let observation: ObservationRecord | undefined;
    let userTurn: UserTurn | undefined;
    if (action.kind === "answer") {
      // The answer goes to the user: the answer so far, final once the user stops.
      answer = action.answer;
      try {
        const heard = await user.hear(action.answer);
        userTurn = heard.turn;
        if (heard.stop) termination = "answered";
        else {
          budgetFrom = turn;
          message = userMessage(heard.turn.text, turn, options.maxSteps);
        }
      } catch (cause) {
        termination = options.signal?.aborted ? "canceled" : "user_error";
        error = (cause as Error).message;
      }
    } else if (action.kind === "invalid") {
      message = formatReminder(action.reason, turn, remaining, offered);
      observation = { ok: false, code: "INVALID_ACTION", message: action.reason, text: message.text };
    } else {
      const outcome = await world.runTool({ tool: action.tool, ...action.args }, today);
      message = observationMessage(outcome, turn, remaining);
      observation = observationRecordOf(outcome, message.text);
      for (const id of idsIn(message.text)) if (world.idStatus(id) === "distractor") distractorsSeen.add(id);
    }
    const received: TrajectoryStep["received"] = { chars: replyText.length, tokens: 0, bytes: reply.bytes };
    const replyData = reply.reply.data;
    const dataJson = JSON.stringify(replyData);
    countLastReply = () => {
      const count = measureTokens(replyData.length === 0 ? replyText : `${replyText}\n${dataJson}`);
      received.tokens = count.tokens;
      if (count.estimated) received.estimated = true;
    };
    replyInHand = false;
    steps.push({
      turn: steps.length + 1,
      sent: { chars: sentChars, tokens: sent.tokens, ...(sent.estimated ? { estimated: true } : {}) },
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
    if (termination === "answered" || termination === "user_error" || termination === "canceled") break;
  }
  // Closed before the trajectory is made: later calls are refused, those in flight are recorded.
  door?.close();
  side?.close();
  await side?.settle();
  const late = side?.takeWarnings() ?? [];
  const last = steps.at(-1);
  if (late.length > 0 && last) last.warnings = [...(last.warnings ?? []), ...late];
  countLastReply?.();
  // CRMArena-Pro scores an interactive episode when its user stops; one that ran out of turns first has no answer.
  if (!user.keepsUnfinishedAnswer && termination === "max_steps") answer = undefined;
  const userLog = user.log();
  const purpleMs = steps.reduce((sum, step) => sum + step.purpleMs, 0);
  const totalMs = performance.now() - started;
  return {
    taskIdx,
    category: brief.category,
    startedAt,
    firstMessageTokens,
    steps,
    entropy: { ...options.entropy, distractorIdsSeen: [...distractorsSeen].sort() },
    answerIds: answer === undefined ? [] : idsIn(answer).map((id) => ({ id, status: world.idStatus(id) })),
    termination,
    ...(error !== undefined ? { error } : {}),
    ...(answer !== undefined ? { answer } : {}),
    ...(userLog ? { user: userLog } : {}),
    totalMs,
    purpleMs,
    greenMs: Math.max(0, totalMs - purpleMs),
    ...(purple.protocolVersion ? { a2aVersion: purple.protocolVersion } : {}),
  };
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
