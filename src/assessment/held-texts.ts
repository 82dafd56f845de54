import { deflateRawSync, inflateRawSync } from "node:zlib";
import { STRING_WINDOWS, type StringInWindows, type Trajectory, type UserTurn } from "../log/index.js";
import type { Action } from "../protocol/index.js";
import { findTool } from "../tools/index.js";
import { elide, fullLength, pieceEnd } from "../util/index.js";

/*
 * The texts an episode holds between its turns and its journal line: what memory keeps of each
 * (its start), the whole texts held packed within a process-wide budget for scoring and the
 * journal, the purple's words a journal line keeps whole, and the trajectory as memory keeps it
 * once it is journalled.
 */

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
export const UNBOUNDED: TextLease = { keep: (text) => text, whole: (trajectory) => trajectory, forJournal: (trajectory) => trajectory, release: () => undefined };

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
export function keepData(data: readonly Record<string, unknown>[], json: string, keep: (text: string) => string): Record<string, unknown>[] {
  const kept = keep(json);
  return kept === json ? [...data] : [{ trimmed: kept }];
}

/** An action with its long texts cut: answers and reasons here, a tool call's arguments by its own tool. */
export function trimAction(action: Action, cut: (text: string) => string): Action {
  if (action.kind === "answer") return { ...action, answer: cut(action.answer) };
  if (action.kind === "invalid") return { ...action, reason: cut(action.reason) };
  const spec = findTool(action.tool);
  if (!spec || spec.final) throw new Error(`a trajectory step calls ${action.tool}, which is no registered tool of the org`);
  return { ...action, args: spec.trim(action.args, cut) };
}
