/**
 * JSON text in pieces: exactly what JSON.stringify gives for plain data (objects, arrays,
 * strings, numbers, booleans, null, and toJSON), without ever making the whole text. An
 * episode's journal line holds its observations whole and can be megabytes: made in one piece it
 * is a large object V8 frees only at a full collection (the heap of a run with a journal and
 * 0.64 MB observations peaked 550 MB above idle), and a buffer of its size whose memory glibc's
 * malloc keeps. Pieces of about PIECE_CHARS characters die young instead.
 *
 * A value that is short whole (most lines, and most members of a long one) is made by
 * JSON.stringify in one pass: built value by value, a 2 KB line cost 30 times its size in
 * short-lived strings and generator steps, a fifth of a run's allocations.
 */

import { pieceEnd } from "../util/index.js";

/**
 * About this many characters a piece: one can be longer by a value shorter than this, or by one
 * window of a long text once escaped (up to six times as long, for control characters).
 */
export const PIECE_CHARS = 64 * 1024;

/**
 * Marks a string value that hands out its text window by window (a text held packed, see
 * WholeTextBudget in src/assessment/held-texts.ts): jsonPieces writes the JSON string of the
 * windows joined without the whole string being made; its toJSON gives the whole string, for
 * JSON.stringify. A window never ends between the halves of a surrogate pair (as pieceEnd's).
 */
export const STRING_WINDOWS = Symbol("jsonPieces.stringWindows");
export interface StringInWindows {
  [STRING_WINDOWS](): Iterable<string>;
  toJSON(): string;
}

/**
 * A value whose strings and keys add up to at most this many characters is made whole by
 * JSON.stringify: its text is at most six times as long (a string of control characters, escaped).
 */
const WHOLE_CHARS = PIECE_CHARS / 4;

/** Characters of the longest number JSON.stringify writes (-1.2345678901234567e-308). */
const LONGEST_NUMBER = 24;

/**
 * Whether `value` is made whole: none of its values hands out windows, and its text is short (its
 * length with strings and keys unescaped, counting every other value as the longest a number
 * gives, is at most WHOLE_CHARS). Walked without allocating: it only reads.
 */
function isShort(value: unknown): boolean {
  return charsLeft(value, WHOLE_CHARS) >= 0;
}

/**
 * `left` less what `value` takes (as isShort counts it); negative once it takes more, or when it
 * hands out windows. Only an object made by a class can have a toJSON or windows (a plain object's
 * or an array's prototype has neither): the others are not asked, which keeps the walk a tenth of
 * JSON.stringify's time. Keys are counted from `for...in`, inherited ones too: at worst a value is
 * thought longer than it is.
 */
function charsLeft(value: unknown, left: number): number {
  if (typeof value === "string") return left - value.length - 2;
  if (value === null || typeof value !== "object") return left - LONGEST_NUMBER;
  if (Array.isArray(value)) {
    left -= 2;
    for (let i = 0; i < value.length && left >= 0; i++) left = charsLeft(value[i], left - 1);
    return left;
  }
  const prototype = Object.getPrototypeOf(value);
  if (prototype !== Object.prototype && prototype !== null) {
    if (STRING_WINDOWS in value) return -1;
    if (typeof (value as { toJSON?: unknown }).toJSON === "function") return charsLeft((value as { toJSON(): unknown }).toJSON(), left);
  }
  left -= 2;
  for (const key in value) {
    left = charsLeft((value as Record<string, unknown>)[key], left - key.length - 3);
    if (left < 0) break;
  }
  return left;
}

export function* jsonPieces(value: unknown): Generator<string> {
  let buffer = "";
  // Each emit appends to the buffer; a full buffer is handed out between members.
  function* text(value: unknown, inArray: boolean): Generator<string> {
    if (value !== null && typeof value === "object" && isShort(value)) {
      // A toJSON that gives nothing: null in an array, as JSON.stringify writes it there.
      buffer += JSON.stringify(value) ?? (inArray ? "null" : "");
      return;
    }
    if (value !== null && typeof value === "object" && STRING_WINDOWS in value) {
      yield* windows(value as StringInWindows);
      return;
    }
    if (value !== null && typeof value === "object" && typeof (value as { toJSON?: unknown }).toJSON === "function") {
      value = (value as { toJSON(): unknown }).toJSON();
    }
    if (value === null || (inArray && (value === undefined || typeof value === "function" || typeof value === "symbol"))) {
      buffer += "null";
    } else if (typeof value === "string") {
      yield* string(value);
    } else if (typeof value === "number" || typeof value === "boolean") {
      buffer += JSON.stringify(value);
    } else if (typeof value === "bigint") {
      throw new TypeError("Do not know how to serialize a BigInt");
    } else if (Array.isArray(value)) {
      buffer += "[";
      for (let i = 0; i < value.length; i++) {
        if (i > 0) buffer += ",";
        yield* text(value[i], true);
        if (buffer.length >= PIECE_CHARS) yield take();
      }
      buffer += "]";
    } else if (typeof value === "object") {
      buffer += "{";
      let first = true;
      for (const key of Object.keys(value)) {
        const member = (value as Record<string, unknown>)[key];
        if (member === undefined || typeof member === "function" || typeof member === "symbol") continue;
        buffer += `${first ? "" : ","}${JSON.stringify(key)}:`;
        first = false;
        yield* text(member, false);
        if (buffer.length >= PIECE_CHARS) yield take();
      }
      buffer += "}";
    }
  }
  // A long string is escaped a window at a time, each as it would be within the whole string.
  function* string(value: string): Generator<string> {
    if (value.length <= PIECE_CHARS) {
      buffer += JSON.stringify(value);
      return;
    }
    buffer += '"';
    for (let at = 0, end = 0; at < value.length; at = end) {
      end = pieceEnd(value, at, PIECE_CHARS);
      buffer += JSON.stringify(value.slice(at, end)).slice(1, -1);
      if (buffer.length >= PIECE_CHARS) yield take();
    }
    buffer += '"';
  }
  function* windows(value: StringInWindows): Generator<string> {
    buffer += '"';
    for (const window of value[STRING_WINDOWS]()) {
      buffer += JSON.stringify(window).slice(1, -1);
      if (buffer.length >= PIECE_CHARS) yield take();
    }
    buffer += '"';
  }
  function take(): string {
    const piece = buffer;
    buffer = "";
    return piece;
  }
  yield* text(value, false);
  if (buffer.length > 0) yield buffer;
}
