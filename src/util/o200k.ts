import { closeSync, openSync, readSync } from "node:fs";
import { createRequire } from "node:module";

/**
 * An o200k_base token counter that gives exactly what gpt-tokenizer's `countTokens` gives, holding
 * its 199,998 ranks in 4.2 MB of typed arrays (all token bytes end to end, their starts, and a hash
 * table to their ranks). We count ourselves for memory: the library's counter compiles its 2.4 MB
 * ranks module and fills a Map of 200k strings. Measured on Node.js 26: loading either and counting
 * a line takes a bare process from 42 MB resident to 102 with the library's (heap 20 MB) and to 62
 * with this one (heap 5 MB; the rest the arrays, module loading and V8's compiling of the parse
 * loops); an idle server from 141 to 129 MB (heap 54 to 40 MB). Nor is it slower: it loads in 80-95
 * ms of CPU (the library 140-170 ms), and the 14,743 strings of the real task file count in 110-130
 * ms (the library 150-175 ms). The library stays the source of truth: the ranks are its data file
 * (tiktoken's format, one `base64 rank` a line), the split pattern is its own, and
 * tests/util/tokens-o200k.test.ts checks every count against its `countTokens`.
 */
export interface O200kCounter {
  /** The number of o200k tokens of a text, as gpt-tokenizer counts them with no special token disallowed. */
  count(text: string): number;
}

const requireFromHere = createRequire(import.meta.url);

/**
 * The library's split pattern (a small module), copied: its own instance keeps state (lastIndex)
 * that its matchAll copies.
 */
function splitPattern(): RegExp {
  const constants = requireFromHere("gpt-tokenizer/encodingParams/constants") as { O200K_TOKEN_SPLIT_REGEX: RegExp };
  return new RegExp(constants.O200K_TOKEN_SPLIT_REGEX.source, constants.O200K_TOKEN_SPLIT_REGEX.flags);
}

/**
 * The ranks: every token's bytes end to end in `bytes` (token r is bytes[starts[r]..starts[r+1]]),
 * and an open-addressing table from an FNV-1a hash of a token's bytes to its rank + 1 (0 = empty).
 */
interface Ranks {
  readonly bytes: Uint8Array;
  readonly starts: Int32Array;
  readonly table: Int32Array;
  readonly mask: number;
}

const FNV_OFFSET = 0x811c9dc5;
const FNV_PRIME = 0x01000193;

function hashBytes(bytes: Uint8Array, start: number, end: number): number {
  let hash = FNV_OFFSET;
  for (let i = start; i < end; i++) hash = Math.imul(hash ^ bytes[i]!, FNV_PRIME);
  return hash >>> 0;
}

/** The base64 alphabet's values, -1 elsewhere ('=' is padding, skipped). */
const BASE64 = new Int8Array(128).fill(-1);
for (const [value, char] of [..."ABCDEFGHIJKLMNOPQRSTUVWXYZabcdefghijklmnopqrstuvwxyz0123456789+/"].entries()) BASE64[char.charCodeAt(0)] = value;

/** Hands a file to `read` in chunks of one reused buffer (a 3.6 MB read would leave its pages resident). */
function readInChunks(path: string, read: (chunk: Uint8Array, length: number) => void): void {
  const chunk = new Uint8Array(64 * 1024);
  const fd = openSync(path, "r");
  try {
    for (let length = readSync(fd, chunk); length > 0; length = readSync(fd, chunk)) read(chunk, length);
  } finally {
    closeSync(fd);
  }
}

/**
 * Parses a `.tiktoken` file with byte loops (no string per line): a first pass sizes the arrays
 * exactly (lines, and the bytes each line's base64 decodes to), a second fills them.
 */
function parseRanks(path: string): Ranks {
  let lines = 0;
  let byteCount = 0;
  let digits = 0;
  let inToken = true;
  readInChunks(path, (chunk, length) => {
    for (let i = 0; i < length; i++) {
      const char = chunk[i]!;
      if (char === 0x0a) {
        lines++;
        byteCount += Math.floor((digits * 6) / 8);
        digits = 0;
        inToken = true;
      } else if (char === 0x20) inToken = false;
      else if (inToken && (BASE64[char] ?? -1) >= 0) digits++;
    }
  });
  const bytes = new Uint8Array(byteCount);
  const starts = new Int32Array(lines + 1);
  let size = 1;
  while (size < lines * 2.5) size *= 2;
  const table = new Int32Array(size);
  const mask = size - 1;
  let written = 0;
  let count = 0;
  let bits = 0;
  let held = 0;
  let rank = 0;
  inToken = true;
  readInChunks(path, (chunk, length) => {
    for (let i = 0; i < length; i++) {
      const char = chunk[i]!;
      if (char === 0x0a) {
        if (rank !== count) throw new Error(`o200k ranks: expected rank ${count}, found ${rank}`);
        const tokenStart = starts[count]!;
        count++;
        starts[count] = written;
        let slot = hashBytes(bytes, tokenStart, written) & mask;
        while (table[slot] !== 0) slot = (slot + 1) & mask;
        table[slot] = rank + 1;
        bits = 0;
        held = 0;
        rank = 0;
        inToken = true;
      } else if (char === 0x20) inToken = false;
      else if (!inToken) rank = rank * 10 + (char - 0x30);
      else {
        const value = BASE64[char] ?? -1;
        if (value < 0) continue;
        bits = ((bits << 6) | value) & 0xffff;
        held += 6;
        if (held >= 8) {
          held -= 8;
          bytes[written++] = (bits >> held) & 0xff;
        }
      }
    }
  });
  // Every line ends with a line break in the file (a last line without one is not read).
  if (count !== lines) throw new Error(`o200k ranks: read ${count} of ${lines} lines`);
  return { bytes, starts, table, mask };
}

/** The rank of bytes[start..end], or -1. */
function lookup(ranks: Ranks, bytes: Uint8Array, start: number, end: number, hash: number): number {
  const { table, mask, starts } = ranks;
  const tokens = ranks.bytes;
  const length = end - start;
  for (let slot = hash & mask; ; slot = (slot + 1) & mask) {
    const entry = table[slot]!;
    if (entry === 0) return -1;
    const rank = entry - 1;
    const at = starts[rank]!;
    if (starts[rank + 1]! - at !== length) continue;
    let i = 0;
    while (i < length && tokens[at + i] === bytes[start + i]) i++;
    if (i === length) return rank;
  }
}

/** String.prototype.isWellFormed (ES2024, in every Node.js this project runs on): no lone surrogate. */
function isWellFormed(text: string): boolean {
  return (text as string & { isWellFormed(): boolean }).isWellFormed();
}

/** Whether bytes[start..end] starts with a UTF-8 byte order mark (EF BB BF). */
function startsWithBom(bytes: Uint8Array, start: number, end: number): boolean {
  return end - start >= 3 && bytes[start] === 0xef && bytes[start + 1] === 0xbb && bytes[start + 2] === 0xbf;
}

/** gpt-tokenizer's isValidUTF8 (utfUtil.ts), over bytes[start..end]. */
function isValidUtf8(bytes: Uint8Array, start: number, end: number): boolean {
  let i = start;
  while (i < end) {
    const first = bytes[i]!;
    let size: number;
    let code: number;
    if (first <= 0x7f) {
      size = 1;
      code = first;
    } else if ((first & 0xe0) === 0xc0) {
      if (first <= 0xc1) return false;
      size = 2;
      code = first & 0x1f;
    } else if ((first & 0xf0) === 0xe0) {
      size = 3;
      code = first & 0x0f;
    } else if ((first & 0xf8) === 0xf0) {
      if (first > 0xf4) return false;
      size = 4;
      code = first & 0x07;
    } else return false;
    if (i + size > end) return false;
    for (let j = 1; j < size; j++) {
      const next = bytes[i + j]!;
      if ((next & 0xc0) !== 0x80) return false;
      code = (code << 6) | (next & 0x3f);
    }
    if ((size === 2 && code < 0x80) || (size === 3 && code < 0x800) || (size === 4 && code < 0x10000)) return false;
    if ((code >= 0xd800 && code <= 0xdfff) || code > 0x10ffff) return false;
    i += size;
  }
  return true;
}

/**
 * The rank gpt-tokenizer's merge gives bytes[start..end] (its getBpeRankFromBytes), or -1. It looks
 * valid UTF-8 up by its decoded string, and its decoder drops a leading byte order mark: the nine
 * o200k tokens that start with one are never found as themselves, and one followed by more text is
 * found as that text's token ("\uFEFFusing" as "using"). Elsewhere this is the plain rank.
 */
function mergeRank(ranks: Ranks, bytes: Uint8Array, start: number, end: number): number {
  if (startsWithBom(bytes, start, end) && isValidUtf8(bytes, start, end)) {
    // The string after the mark; none of the library's string keys starts with another mark.
    if (end - start === 3 || startsWithBom(bytes, start + 3, end)) return -1;
    return lookup(ranks, bytes, start + 3, end, hashBytes(bytes, start + 3, end));
  }
  return lookup(ranks, bytes, start, end, hashBytes(bytes, start, end));
}

/**
 * Pieces longer than this are merged with a heap (n log n) rather than by scanning every pair for
 * each merge (n squared): a run of 16,000 spaces, one piece, took 190 ms by scanning.
 */
const LONG_PIECE_BYTES = 128;
/**
 * The UTF-8 bytes of the piece being counted, in one reused buffer up to SCRATCH_BYTES (a longer
 * piece, a run of spaces, gets its own, so that one odd text leaves nothing large behind), and the
 * short merge's parts and pair ranks (pieces over LONG_PIECE_BYTES take the heap's own arrays).
 */
const SCRATCH_BYTES = 16 * 1024;
const scratchBytes = new Uint8Array(SCRATCH_BYTES);
const partStarts = new Int32Array(LONG_PIECE_BYTES + 1);
const pairRanks = new Float64Array(LONG_PIECE_BYTES + 1);

/** The merge rank of the pair of parts i and i + 1 of `parts` (Infinity when none). */
function pairRank(ranks: Ranks, bytes: Uint8Array, starts: Int32Array, parts: number, i: number): number {
  if (i + 2 > parts) return Infinity;
  const rank = mergeRank(ranks, bytes, starts[i]!, starts[i + 2]!);
  return rank < 0 ? Infinity : rank;
}

/**
 * The number of parts tiktoken's byte_pair_merge leaves of bytes[0..length]: merge the adjacent
 * pair of lowest rank (the leftmost of equal ranks) until no pair is a token.
 */
function mergeCount(ranks: Ranks, bytes: Uint8Array, length: number): number {
  if (length > LONG_PIECE_BYTES) return mergeCountLong(ranks, bytes, length);
  const starts = partStarts;
  const pairs = pairRanks;
  let parts = length;
  for (let i = 0; i <= length; i++) starts[i] = i;
  for (let i = 0; i < parts - 1; i++) pairs[i] = pairRank(ranks, bytes, starts, parts, i);
  while (parts > 1) {
    let lowest = Infinity;
    let at = -1;
    for (let i = 0; i < parts - 1; i++) {
      const rank = pairs[i]!;
      if (rank < lowest) {
        lowest = rank;
        at = i;
      }
    }
    if (at < 0) break;
    // Parts at and at + 1 become one: the boundary between them goes, and the pair after them.
    starts.copyWithin(at + 1, at + 2, parts + 1);
    pairs.copyWithin(at + 1, at + 2, parts - 1);
    parts--;
    pairs[at] = pairRank(ranks, bytes, starts, parts, at);
    if (at > 0) pairs[at - 1] = pairRank(ranks, bytes, starts, parts, at - 1);
  }
  return parts;
}

/** A heap key: rank first, then the pair's position, so that equal ranks pop leftmost first. */
const POSITION_RANGE = 2 ** 24;

/**
 * mergeCount for long pieces, with the same merges in the same order: the parts a linked list of
 * their start offsets, and the pairs' ranks a binary min-heap of rank * POSITION_RANGE + start,
 * an entry stale once the pair at its start changed (its stamp no longer the start's).
 */
function mergeCountLong(ranks: Ranks, bytes: Uint8Array, length: number): number {
  if (length >= POSITION_RANGE) throw new Error("o200k: a piece too long to merge");
  const next = new Int32Array(length + 1);
  const prev = new Int32Array(length + 1);
  const stamp = new Int32Array(length + 1);
  // Every merge pushes at most two pairs: the first ranks plus two per merge bound the heap.
  const keys = new Float64Array(3 * length + 1);
  const stamps = new Int32Array(3 * length + 1);
  let size = 0;
  const push = (key: number, keyStamp: number): void => {
    let at = size++;
    while (at > 0) {
      const parent = (at - 1) >> 1;
      if (keys[parent]! <= key) break;
      keys[at] = keys[parent]!;
      stamps[at] = stamps[parent]!;
      at = parent;
    }
    keys[at] = key;
    stamps[at] = keyStamp;
  };
  const popInto = (): void => {
    const key = keys[--size]!;
    const keyStamp = stamps[size]!;
    let at = 0;
    for (;;) {
      let child = 2 * at + 1;
      if (child >= size) break;
      if (child + 1 < size && keys[child + 1]! < keys[child]!) child++;
      if (keys[child]! >= key) break;
      keys[at] = keys[child]!;
      stamps[at] = stamps[child]!;
      at = child;
    }
    keys[at] = key;
    stamps[at] = keyStamp;
  };
  /** Pushes the pair starting at `start` (its part and the next), if it is a token. */
  const pushPair = (start: number): void => {
    stamp[start]!++;
    const middle = next[start]!;
    if (middle >= length) return;
    const rank = mergeRank(ranks, bytes, start, next[middle]!);
    if (rank >= 0) push(rank * POSITION_RANGE + start, stamp[start]!);
  };
  for (let i = 0; i <= length; i++) {
    next[i] = i + 1;
    prev[i] = i - 1;
  }
  for (let i = 0; i + 1 < length; i++) pushPair(i);
  let parts = length;
  while (size > 0) {
    const key = keys[0]!;
    const keyStamp = stamps[0]!;
    popInto();
    const start = key % POSITION_RANGE;
    if (stamp[start] !== keyStamp) continue;
    // The part at `start` takes in the next one.
    const gone = next[start]!;
    const after = next[gone]!;
    next[start] = after;
    if (after <= length) prev[after] = start;
    stamp[gone]!++;
    parts--;
    pushPair(start);
    if (start > 0) pushPair(prev[start]!);
  }
  return parts;
}

/** The count of one pre-token (its bytes written into scratchBytes first). */
function countPiece(ranks: Ranks, encoder: TextEncoder, piece: string, wellFormed: boolean): number {
  // ASCII is written char by char (cheaper than a call to encodeInto for short pieces).
  let length = piece.length;
  const bytes = length * 3 <= SCRATCH_BYTES ? scratchBytes : new Uint8Array(length * 3);
  let hash = FNV_OFFSET;
  let ascii = true;
  for (let i = 0; i < length; i++) {
    const code = piece.charCodeAt(i);
    if (code >= 0x80) {
      ascii = false;
      break;
    }
    bytes[i] = code;
    hash = Math.imul(hash ^ code, FNV_PRIME);
  }
  if (ascii) {
    if (length === 1 || lookup(ranks, bytes, 0, length, hash >>> 0) >= 0) return 1;
    return mergeCount(ranks, bytes, length);
  }
  length = encoder.encodeInto(piece, bytes).written;
  // The library looks a whole piece up by its string first: a piece with a lone surrogate (which
  // the encoder writes as U+FFFD) or a leading mark (whose tokens it keeps as bytes) it merges.
  if ((wellFormed || isWellFormed(piece)) && !startsWithBom(bytes, 0, length) && lookup(ranks, bytes, 0, length, hashBytes(bytes, 0, length)) >= 0) return 1;
  return mergeCount(ranks, bytes, length);
}

/** Builds the counter from gpt-tokenizer's o200k data file (about 70 ms of CPU: two passes over its 3.6 MB). */
export function loadO200kCounter(): O200kCounter {
  const ranks = parseRanks(requireFromHere.resolve("gpt-tokenizer/data/o200k_base.tiktoken"));
  const splitRegex = splitPattern();
  const encoder = new TextEncoder();

  return {
    // A special token's text (`<|endoftext|>`) is counted as text, as the library does with
    // `disallowedSpecial: new Set()`: it is what a purple wrote, and its default (to throw) would
    // end the whole assessment over one reply.
    count(text: string): number {
      const wellFormed = isWellFormed(text);
      let total = 0;
      // Pieces are cut between successive ends of `test`, which allocates no match array: the
      // pattern matches wherever it starts (a space, a letter, a digit or any other code point
      // begins one of its alternatives), so its matches tile the text.
      splitRegex.lastIndex = 0;
      let start = 0;
      for (; start < text.length && splitRegex.test(text); start = splitRegex.lastIndex) {
        total += countPiece(ranks, encoder, text.slice(start, splitRegex.lastIndex), wellFormed);
      }
      if (start < text.length) throw new Error("o200k: the split pattern left text unmatched");
      return total;
    },
  };
}
