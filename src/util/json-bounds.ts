import { EntropicError, type ErrorDetails } from "./errors.js";

/**
 * The shape of a JSON text measured before it is parsed: how deeply it nests and how many values
 * its arrays and objects hold. JSON.parse itself copes with any depth, but what reads the value
 * afterwards (JSON.stringify, structuredClone, zod, the A2A SDK's translators) recurses, and a
 * value nested 200,000 deep ends in "Maximum call stack size exceeded" wherever it is first
 * copied; a text of a million tiny members costs its readers a million steps. One iterative pass
 * over the characters (bytes for a Buffer: no UTF-8 byte of a multibyte character is one of the
 * characters looked at) finds both, and stops at the first limit passed.
 */

export interface JsonBounds {
  /** Arrays and objects open at once, at most. */
  readonly maxDepth: number;
  /** Array elements and object members in the whole text, at most. */
  readonly maxItems: number;
}

/** What a scan found: within the bounds, or which was passed. */
export type JsonShape = { readonly ok: true; readonly depth: number; readonly items: number } | { readonly ok: false; readonly reason: string };

const QUOTE = 0x22;
const BACKSLASH = 0x5c;
const OPEN_ARRAY = 0x5b;
const CLOSE_ARRAY = 0x5d;
const OPEN_OBJECT = 0x7b;
const CLOSE_OBJECT = 0x7d;
const COMMA = 0x2c;

function isSpace(code: number): boolean {
  return code === 0x20 || code === 0x0a || code === 0x0d || code === 0x09;
}

/**
 * Measures a JSON text (a string, or its UTF-8 bytes) against `bounds`. It does not validate the
 * text: an invalid one is for JSON.parse to refuse, and a scan of it only counts what it sees.
 */
export function scanJson(text: string | Uint8Array, bounds: JsonBounds): JsonShape {
  const length = text.length;
  const codeAt = typeof text === "string" ? (i: number) => text.charCodeAt(i) : (i: number) => text[i]!;
  let depth = 0;
  let deepest = 0;
  let items = 0;
  let inString = false;
  // Just after an opening bracket: the next non-space character says whether the container holds an item.
  let opened = false;
  for (let i = 0; i < length; i++) {
    const code = codeAt(i);
    if (inString) {
      if (code === BACKSLASH) i++;
      else if (code === QUOTE) inString = false;
      continue;
    }
    if (isSpace(code)) continue;
    if (opened) {
      opened = false;
      if (code !== CLOSE_ARRAY && code !== CLOSE_OBJECT) items++;
    }
    if (code === QUOTE) inString = true;
    else if (code === OPEN_ARRAY || code === OPEN_OBJECT) {
      depth++;
      opened = true;
      if (depth > deepest) deepest = depth;
      if (depth > bounds.maxDepth) return { ok: false, reason: `it nests deeper than ${bounds.maxDepth} levels of arrays and objects` };
    } else if (code === CLOSE_ARRAY || code === CLOSE_OBJECT) depth--;
    else if (code === COMMA && depth > 0) items++;
    if (items > bounds.maxItems) return { ok: false, reason: `it holds more than ${bounds.maxItems} array elements and object members` };
  }
  return { ok: true, depth: deepest, items };
}

/** JSON.parse after a scan: a text past a bound is refused with a JsonBoundsError naming the bound, and never parsed. */
export function parseBoundedJson(text: string, bounds: JsonBounds, what: string): unknown {
  const shape = scanJson(text, bounds);
  if (!shape.ok) throw new JsonBoundsError(`${what} is refused: ${shape.reason}`);
  return JSON.parse(text);
}

/** A JSON text past a bound, said before it was parsed. */
export class JsonBoundsError extends EntropicError {
  override readonly name = "JsonBoundsError";
  constructor(message: string, details: ErrorDetails = {}) {
    super("invalid_request", message, details);
  }
}
