import { countTokens as countO200k } from "gpt-tokenizer";

const MEMO_LIMIT = 50_000;
const memo = new Map<string, number>();

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
  let count = memo.get(text);
  if (count === undefined) {
    count = countO200k(text);
    if (memo.size >= MEMO_LIMIT) memo.clear();
    memo.set(text, count);
  }
  return count;
}

/** A token count, and whether any of it was estimated rather than counted. */
export interface TokenCount {
  readonly tokens: number;
  readonly estimated: boolean;
}

/** The o200k count of a text with no run longer than LONGEST_EXACT_RUN, line by line (memoised). */
function countExact(text: string): number {
  let total = 0;
  // o200k's pre-tokenizer never joins a line break with the text after it, so lines count the same apart.
  for (const piece of text.split(/(?<=\n)(?=\S)/)) total += countLine(piece);
  return total;
}

/**
 * Tokens of a text under the o200k_base encoding (GPT-4o family): a real BPE count for the first
 * EXACT_TOKEN_CHARS characters, in time linear in the text, and an estimate beyond (the exact part's
 * rate extrapolated), as for runs of more than LONGEST_EXACT_RUN characters without a space (one
 * token per four characters). A purple's reply can therefore never hold the event loop.
 * tests/tokens.test.ts checks the exact part against the tokenizer on every real task message.
 */
export function measureTokens(text: string): TokenCount {
  if (text.length === 0) return { tokens: 0, estimated: false };
  const head = text.length > EXACT_TOKEN_CHARS ? text.slice(0, EXACT_TOKEN_CHARS) : text;
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
