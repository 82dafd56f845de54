import { detach } from "./elide.js";
import { loadO200kCounter } from "./o200k.js";

/**
 * The o200k counter (o200k.ts, which says why it is ours and what it costs), loaded on the first
 * count (or by `loadTokenizer`): the threads and processes that import this folder without
 * counting (the org's derive thread) never pay for it.
 */
let tokenizer: ((text: string) => number) | undefined;

/** Loads the tokenizer now (a server does before it takes requests, so that no request pays for it). */
export function loadTokenizer(): (text: string) => number {
  tokenizer ??= loadO200kCounter().count;
  return tokenizer;
}

function countO200k(text: string): number {
  return (tokenizer ?? loadTokenizer())(text);
}

/**
 * Line counts remembered, for the lines task messages share (instructions, tool schemas). Bounded
 * by characters, not entries, and only for lines up to MEMO_LINE_CHARS: the keys are copies, since
 * a line cut from a text keeps the whole text alive in V8 (300 observations of 0.64 MB kept 181 MB).
 */
const MEMO_CHARS = 2_000_000;
const MEMO_LINE_CHARS = 8_000;
const memo = new Map<string, number>();
let memoChars = 0;

/** Text counted exactly, per message; beyond it the count is extrapolated. Counting is linear up to here. */
export const EXACT_TOKEN_CHARS = 64_000;
/**
 * BPE merges within one pre-token cost time that grows faster than linearly with its length
 * (a 120 KB run of letters took 15 s): longer runs without a break are estimated, never encoded.
 */
const LONGEST_EXACT_RUN = 400;
// Anchored at a run's start: unanchored, the engine retried from every character inside each word.
const LONG_RUN = new RegExp(`(?<!\\S)\\S{${LONGEST_EXACT_RUN + 1},}`, "g");
const CHARS_PER_TOKEN_ESTIMATE = 4;

function countLine(text: string): number {
  if (text.length > MEMO_LINE_CHARS) return countO200k(text);
  let count = memo.get(text);
  if (count === undefined) {
    count = countO200k(text);
    if (memoChars + text.length > MEMO_CHARS) {
      memo.clear();
      memoChars = 0;
    }
    memo.set(detach(text), count);
    memoChars += text.length;
  }
  return count;
}

/** A token count, and whether any of it was estimated rather than counted. */
export interface TokenCount {
  readonly tokens: number;
  readonly estimated: boolean;
}

/**
 * The o200k count of a text when none of its lines holds a run longer than LONGEST_EXACT_RUN,
 * else undefined. Only the lines not remembered are scanned for a long run: a remembered line has
 * none (it was counted after its runs were replaced), and the lines a run shares (instructions,
 * tool schemas, common context) are most of every task message.
 */
function countWithoutLongRuns(text: string): number | undefined {
  let total = 0;
  let start = 0;
  for (let at = text.indexOf("\n"); ; at = text.indexOf("\n", at + 1)) {
    const last = at === -1 || at + 1 >= text.length;
    if (!last && isSpace(text.charCodeAt(at + 1))) continue;
    const line = last ? text.slice(start) : text.slice(start, at + 1);
    const known = line.length <= MEMO_LINE_CHARS ? memo.get(line) : undefined;
    if (known !== undefined) total += known;
    else if (hasLongRun(line)) return undefined;
    else total += countLine(line);
    if (last) return total;
    start = at + 1;
  }
}

/** The o200k count of a text with no run longer than LONGEST_EXACT_RUN, line by line (memoised). */
function countExact(text: string): number {
  let total = 0;
  // o200k's pre-tokenizer never joins a line break with the text after it when that text starts
  // with a non-space, so such lines count the same apart (a split at /(?<=\n)(?=\S)/, found with
  // indexOf rather than a lookbehind regex, which cost more than the counting it saved).
  let start = 0;
  for (let at = text.indexOf("\n"); at !== -1 && at + 1 < text.length; at = text.indexOf("\n", at + 1)) {
    if (isSpace(text.charCodeAt(at + 1))) continue;
    total += countLine(text.slice(start, at + 1));
    start = at + 1;
  }
  return total + countLine(text.slice(start));
}

/** JavaScript's \s: what the long-run and line-split rules mean by a space. */
function isSpace(code: number): boolean {
  if (code <= 0x20) return code === 0x20 || (code >= 0x09 && code <= 0x0d);
  if (code < 0xa0) return false;
  return (
    code === 0xa0 ||
    code === 0x1680 ||
    (code >= 0x2000 && code <= 0x200a) ||
    code === 0x2028 ||
    code === 0x2029 ||
    code === 0x202f ||
    code === 0x205f ||
    code === 0x3000 ||
    code === 0xfeff
  );
}

/** Whether a text holds a run of more than LONGEST_EXACT_RUN characters without a space (one linear pass). */
function hasLongRun(text: string): boolean {
  let run = 0;
  for (let i = 0; i < text.length; i++) {
    if (isSpace(text.charCodeAt(i))) run = 0;
    else if (++run > LONGEST_EXACT_RUN) return true;
  }
  return false;
}

/**
 * Tokens of a text under the o200k_base encoding (GPT-4o family): a real BPE count for the first
 * EXACT_TOKEN_CHARS characters, in time linear in the text, and an estimate beyond (the exact part's
 * rate extrapolated), as for runs of more than LONGEST_EXACT_RUN characters without a space (one
 * token per four characters). A purple's reply can therefore never hold the event loop.
 * tests/util/tokens.test.ts checks the exact part against the tokenizer on every real task message.
 */
export function measureTokens(text: string): TokenCount {
  if (text.length === 0) return { tokens: 0, estimated: false };
  const head = text.length > EXACT_TOKEN_CHARS ? text.slice(0, EXACT_TOKEN_CHARS) : text;
  const plain = countWithoutLongRuns(head);
  if (plain !== undefined) {
    if (head.length === text.length) return { tokens: plain, estimated: false };
    return { tokens: Math.round(plain * (text.length / head.length)), estimated: true };
  }
  let longRunChars = 0;
  let longRunTokens = 0;
  const counted = head.replace(LONG_RUN, (run) => {
    longRunChars += run.length;
    longRunTokens += Math.ceil(run.length / CHARS_PER_TOKEN_ESTIMATE);
    return " ";
  });
  const headTokens = countExact(counted) + longRunTokens;
  const estimated = longRunChars > 0 || head.length < text.length;
  if (head.length === text.length) return { tokens: headTokens, estimated };
  return { tokens: Math.round(headTokens * (text.length / head.length)), estimated };
}

/** The token count alone (see measureTokens). */
export function countTokens(text: string): number {
  return measureTokens(text).tokens;
}
