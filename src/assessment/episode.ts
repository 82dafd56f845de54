import { setImmediate } from "node:timers/promises";
import { deflateRawSync, inflateRawSync } from "node:zlib";
import {
  type IdStatus,
  type ObservationRecord,
  STRING_WINDOWS,
  type StringInWindows,
  type Termination,
  type Trajectory,
  type TrajectoryStep,
  type UserTurn,
} from "../log/index.js";
import type { OrgRequest, ToolOutcome } from "../org/index.js";
import {
  type Action,
  countedMcpText,
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
import { findTool, toolsNamed } from "../tools/index.js";
import { MAX_USER_TURNS, type UserSimulator } from "../users/index.js";
import { elide, fullLength, idsIn, measureTokens, pieceEnd } from "../util/index.js";
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

/** Keeps the trajectory in memory small: whole texts go to the journal, memory keeps their start. */
export const MEMORY_TEXT_CHARS = 600;

/**
 * Characters of the purple's own words an episode's journal line keeps whole: its final answer
 * first, then its replies' texts and data and its actions, turn by turn. Beyond it each is kept as
 * memory keeps it (its first MEMORY_TEXT_CHARS and a marker of how much was cut) and the
 * trajectory's `journalCut` counts them: a purple sending 3.5 MB replies wrote 35 MB per episode.
 * Scoring reads them whole (within the process's WholeTextBudget); only the journal is cut.
 */
export const JOURNAL_REPLY_CHARS = 1_000_000;

/** One episode's share of a WholeTextBudget, given back once its journal line is written. */
export interface TextLease {
  /**
   * What a step holds of a text until its journal line: the text itself when short, else its cut
   * (as memory keeps it), the whole text being held packed while the budget allows.
   */
  keep(text: string): string;
  /** The trajectory with every text `keep` held put back whole (the others as they are): for scoring. */
  whole(trajectory: Trajectory): Trajectory;
  /**
   * The trajectory for its journal line: each text `keep` held is put back as a value that
   * unpacks only when the line is written (JSON.stringify and the journal's pieces call its
   * toJSON), so that one whole text at a time is made, not the episode's every text at once.
   * The purple's words are kept whole up to `replyChars` (JOURNAL_REPLY_CHARS), the rest cut.
   */
  forJournal(trajectory: Trajectory, replyChars?: number): Trajectory;
  release(): void;
}

/**
 * How many characters of whole texts (observations, replies, queries longer than
 * MEMORY_TEXT_CHARS) the episodes in flight may hold between a turn and their journal line. A
 * turn's observation can be 1 MB and an episode has up to 100 turns: at concurrency 256, unbounded,
 * that is gigabytes. Beyond the budget a text is kept cut, in memory and in the journal, where its
 * marker says how many characters were cut. Shared by every assessment of the process.
 *
 * Within the budget a text is held packed (deflated, outside the JavaScript heap) and the step
 * holds its cut, as memory keeps it; the episode's record is made whole again only to be scored
 * and journalled. Held as strings, the whole texts of the episodes in flight (7 MB an episode of
 * ten 0.64 MB observations) were live heap, and V8 let the garbage grow in proportion: a run with
 * a journal peaked 413 MB above idle (bench 3b).
 */
export class WholeTextBudget {
  private heldChars = 0;

  constructor(readonly limitChars: number) {}

  lease(): TextLease {
    let mine = 0;
    /** One entry per text longer than MEMORY_TEXT_CHARS that `keep` saw, in order: its cut, and the whole text packed when held. */
    let kept: { cut: string; packed?: PackedText }[] = [];
    /** The held texts in the order `keep` saw them, for one walk of the trajectory (see keptTexts). */
    const entries = () => {
      let next = 0;
      return (text: string): PackedText | undefined => {
        const entry = kept[next++];
        if (entry?.cut !== text) throw new Error(`the whole texts held for the journal do not match the trajectory (text ${next}): the steps were changed after the episode`);
        return entry.packed;
      };
    };
    return {
      keep: (text) => {
        if (text.length <= MEMORY_TEXT_CHARS) return text;
        const cut = elide(text, MEMORY_TEXT_CHARS);
        if (this.heldChars + text.length > this.limitChars) {
          kept.push({ cut });
          return cut;
        }
        this.heldChars += text.length;
        mine += text.length;
        kept.push({ cut, packed: pack(text) });
        return cut;
      },
      whole: (trajectory) => keptTexts(trajectory, entries(), unpack),
      forJournal: (trajectory, replyChars = JOURNAL_REPLY_CHARS) =>
        journalTexts(trajectory, replyChars, (words) => keptTexts(trajectory, entries(), (packed) => new PackedForJournal(packed) as unknown as string, words)),
      release: () => {
        this.heldChars -= mine;
        mine = 0;
        kept = [];
      },
    };
  }

  /** Characters held now by the episodes in flight. */
  get held(): number {
    return this.heldChars;
  }
}

/**
 * A whole text deflated window by window into buffers: a tenth or less of its size for the org's
 * records, no part of the JavaScript heap, and unpacked a window at a time as its journal line is
 * written (a window's string dies young; a whole 0.64 MB one made for the line outlived the
 * line's writes and was promoted, garbage only a full collection frees).
 */
type PackedText = readonly { readonly bytes: Buffer; readonly encoding: "utf8" | "utf16le" }[];

/** Characters a packed window holds: the journal's own piece size. */
const PACK_WINDOW_CHARS = 64 * 1024;

function pack(text: string): PackedText {
  const windows: { bytes: Buffer; encoding: "utf8" | "utf16le" }[] = [];
  for (let at = 0, end = 0; at < text.length; at = end) {
    // A window never ends inside a surrogate pair, so each is well formed wherever the whole is.
    end = pieceEnd(text, at, PACK_WINDOW_CHARS);
    const window = text.slice(at, end);
    // UTF-8 gives back only well-formed text: a lone surrogate (a purple's JSON can hold one) needs UTF-16.
    const encoding = (window as string & { isWellFormed(): boolean }).isWellFormed() ? "utf8" : "utf16le";
    // Level 1: a 0.64 MB observation in about 4 ms, on the event loop like the rest of the turn.
    windows.push({ bytes: deflateRawSync(Buffer.from(window, encoding), { level: 1 }), encoding });
  }
  return windows;
}

function* unpackWindows(packed: PackedText): Generator<string> {
  for (const window of packed) yield inflateRawSync(window.bytes).toString(window.encoding);
}

function unpack(packed: PackedText): string {
  return [...unpackWindows(packed)].join("");
}

/** A held text in a record bound for the journal: its line unpacks it a window at a time (json-pieces), JSON.stringify whole. */
class PackedForJournal implements StringInWindows {
  constructor(private readonly packed: PackedText) {}

  [STRING_WINDOWS](): Iterable<string> {
    return unpackWindows(this.packed);
  }

  toJSON(): string {
    return unpack(this.packed);
  }
}

/**
 * What an episode's journal line may still keep whole of the purple's words, and what it cut:
 * `take` says whether a text of that many characters is kept whole (and counts it), else counts its cut.
 */
class WordsBudget {
  texts = 0;
  chars = 0;
  constructor(private left: number) {}

  take(chars: number): boolean {
    if (chars <= this.left) {
      this.left -= chars;
      return true;
    }
    this.texts++;
    this.chars += chars - MEMORY_TEXT_CHARS;
    return false;
  }
}

/**
 * The trajectory for its journal line with the purple's words kept whole up to `replyChars`: the
 * final answer first (what a rescore reads), then each step's (`steps` walks them in order), and
 * the cut, if any, recorded in `journalCut`.
 */
function journalTexts(trajectory: Trajectory, replyChars: number, steps: (words: WordsBudget) => Trajectory): Trajectory {
  const words = new WordsBudget(replyChars);
  const answer = trajectory.answer;
  const keptAnswer = answer === undefined || answer.length <= MEMORY_TEXT_CHARS || words.take(answer.length) ? answer : elide(answer, MEMORY_TEXT_CHARS);
  const journalled = steps(words);
  return {
    ...journalled,
    ...(keptAnswer !== undefined ? { answer: keptAnswer } : {}),
    ...(words.texts > 0 ? { journalCut: { texts: words.texts, chars: words.chars, limitChars: replyChars } } : {}),
  };
}

/**
 * The trajectory with each long text a step passed through `keep` put back by `whole` when it
 * was held (`next` gives what `keep` held of each, in the order runEpisode keeps them: reply
 * text, reply data, action, observation); texts not longer than MEMORY_TEXT_CHARS were never held.
 * With `words`, the purple's words (all but the observations) are put back only while it lasts.
 */
function keptTexts(trajectory: Trajectory, next: (cut: string) => PackedText | undefined, whole: (packed: PackedText) => string, words?: WordsBudget): Trajectory {
  const held = (kept: string, purpleWords: boolean) => {
    if (kept.length <= MEMORY_TEXT_CHARS) return kept;
    // Asked first, whatever is kept: the held texts are given in the order they were kept.
    const packed = next(kept);
    if (!packed || (purpleWords && words && !words.take(fullLength(kept)))) return kept;
    return whole(packed);
  };
  const purple = (kept: string) => held(kept, true);
  return {
    ...trajectory,
    steps: trajectory.steps.map((step) => ({
      ...step,
      replyText: purple(step.replyText),
      replyData: wholeData(step.replyData, next, words),
      action: trimAction(step.action, purple),
      ...(step.observation ? { observation: { ...step.observation, text: held(step.observation.text, false) } } : {}),
    })),
  };
}

/** Reply data that keepData held as one note of its cut JSON: parsed back from the whole JSON when it was held (and `words` lets it). */
function wholeData(data: readonly Record<string, unknown>[], next: (cut: string) => PackedText | undefined, words?: WordsBudget): Record<string, unknown>[] {
  const note = data.length === 1 && Object.keys(data[0]!).length === 1 ? data[0]!.trimmed : undefined;
  if (typeof note !== "string" || note.length <= MEMORY_TEXT_CHARS) return [...data];
  const packed = next(note);
  if (!packed || (words && !words.take(fullLength(note)))) return [...data];
  return JSON.parse(unpack(packed)) as Record<string, unknown>[];
}

/** Keeps every text whole (for callers that hold one episode at a time). */
const UNBOUNDED: TextLease = { keep: (text) => text, whole: (trajectory) => trajectory, forJournal: (trajectory) => trajectory, release: () => undefined };

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
  // it is on its way, and each reply once the next message is (or when the episode ends). On its
  // way means written: counted after the replies that arrived with this one have had their next
  // messages sent (a turn of the event loop later), not before, when 256 replies arrive together.
  let countLastReply: (() => void) | undefined;
  let thread: { contextId?: string; taskId?: string } = {};
  let termination: Termination = "max_steps";
  let error: string | undefined;
  let answer: string | undefined;
  let warnedNoContext = false;
  // Interactive mode: the user opens with part of the request, and hears each respond.
  const conversation = options.user?.start({ persona: brief.persona, query: brief.prompt });
  let userLog: Trajectory["user"];
  let opening: UserTurn | undefined;
  if (conversation) {
    try {
      opening = await conversation.open();
      userLog = { label: options.user!.label, opening, replies: 0 };
    } catch (cause) {
      // A run stopped meanwhile (its model spend cap, a cancel) refused the user's call: the episode did not finish.
      termination = options.signal?.aborted ? "canceled" : "user_error";
      error = (cause as Error).message;
    }
  }
  const texts = options.texts ?? UNBOUNDED;
  // Interactive mode budgets as CRMArena-Pro does: max_steps agent turns after each respond (the
  // count starts again when the user speaks), the user speaking at most MAX_USER_TURNS times.
  // A step is an A2A reply or a call over the side channel (MCP): both count alike.
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
  const firstBrief = opening ? { ...brief, prompt: opening.text } : brief;
  const first = taskMessage(firstBrief, options.firstMessage, opening !== undefined, door?.access);
  // Counted with a standard access, so that where the green listens changes no count.
  const firstCounted = door ? countedMcpText(first.text, door.access) : first.text;
  let message: OutgoingMessage = first;

  const lastTurn = conversation ? options.maxSteps * (MAX_USER_TURNS + 1) : options.maxSteps;
  for (let exchange = 1; steps.length < lastTurn && steps.length - budgetFrom < options.maxSteps && termination !== "user_error" && termination !== "canceled"; exchange++) {
    if (options.signal?.aborted) {
      termination = "canceled";
      break;
    }
    const callStarted = performance.now();
    const call = purple.send(message, thread, options.timeoutMs, options.signal);
    // Awaited below, once the message is counted: a failure meanwhile is not an unhandled one.
    call.catch(() => undefined);
    const countedText = exchange === 1 ? firstCounted : message.text;
    const sentChars = countedText.length;
    await setImmediate();
    const sent = measureTokens(countedText);
    if (exchange === 1) firstMessageTokens = sent.tokens;
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
    if (action.kind === "answer" && conversation && userLog) {
      // The respond goes to the user: it is the answer so far, final once the user stops.
      answer = action.answer;
      try {
        userTurn = await conversation.reply(action.answer);
        userLog.replies++;
        if (userTurn.stop) termination = "answered";
        else {
          budgetFrom = turn;
          message = userMessage(userTurn.text, turn, options.maxSteps);
        }
      } catch (cause) {
        termination = options.signal?.aborted ? "canceled" : "user_error";
        error = (cause as Error).message;
      }
    } else if (action.kind === "answer") {
      answer = action.answer;
      termination = "answered";
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
  if (conversation && termination === "max_steps") answer = undefined;
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

/**
 * The trajectory as memory keeps it: every text of its steps cut to `chars` (MEMORY_TEXT_CHARS; the
 * journal has them whole), the reply's own text and data to `replyChars`, its answer and error to
 * MEMORY_TEXT_CHARS, as copies that keep nothing of the whole texts alive (see `detach`).
 */
export function trimForMemory(trajectory: Trajectory, chars = MEMORY_TEXT_CHARS, replyChars = chars): Trajectory {
  const cut = (text: string) => elide(text, chars);
  const cutReply = (text: string) => elide(text, replyChars);
  return {
    ...trajectory,
    steps: trajectory.steps.map((step) => ({
      ...step,
      replyText: cutReply(step.replyText),
      replyData: keepData(step.replyData, JSON.stringify(step.replyData), cutReply),
      ...(step.observation
        ? { observation: { ...step.observation, text: cut(step.observation.text), ...(step.observation.message !== undefined ? { message: cut(step.observation.message) } : {}) } }
        : {}),
      action: trimAction(step.action, cut),
      ...(step.warnings ? { warnings: step.warnings.map(cut) } : {}),
      ...(step.user ? { user: cutUserTurn(step.user, cut) } : {}),
    })),
    ...(trajectory.user ? { user: { ...trajectory.user, opening: cutUserTurn(trajectory.user.opening, cut) } } : {}),
    // One answer and one error an episode: cut as memory cuts any text, whatever `chars` the steps take.
    ...(trajectory.answer !== undefined ? { answer: elide(trajectory.answer, MEMORY_TEXT_CHARS) } : {}),
    ...(trajectory.error !== undefined ? { error: elide(trajectory.error, MEMORY_TEXT_CHARS) } : {}),
  };
}

/** A simulated user's turn with its texts cut (a model user's prompt holds up to USER_INPUT_BUDGET of the purple's words). */
function cutUserTurn(turn: UserTurn, cut: (text: string) => string): UserTurn {
  return { ...turn, text: cut(turn.text), ...(turn.prompt !== undefined ? { prompt: cut(turn.prompt) } : {}) };
}

/** Reply data as kept: itself when `keep` keeps its JSON whole, else one note with the JSON as `keep` cut it. */
function keepData(data: readonly Record<string, unknown>[], json: string, keep: (text: string) => string): Record<string, unknown>[] {
  const kept = keep(json);
  return kept === json ? [...data] : [{ trimmed: kept }];
}

/** An action with its long texts cut: answers and reasons here, a tool call's arguments by its own tool. */
function trimAction(action: Action, cut: (text: string) => string): Action {
  if (action.kind === "answer") return { ...action, answer: cut(action.answer) };
  if (action.kind === "invalid") return { ...action, reason: cut(action.reason) };
  const spec = findTool(action.tool);
  if (!spec || spec.final) throw new Error(`a trajectory step calls ${action.tool}, which is no registered tool of the org`);
  return { ...action, args: spec.trim(action.args, cut) };
}
