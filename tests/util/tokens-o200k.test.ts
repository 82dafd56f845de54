import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { countTokens } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";
import { loadO200kCounter } from "../../src/util/o200k.js";
import { Random } from "../../src/util/random.js";
import { REAL_TASKS, SAMPLE_ORG, SAMPLE_TASKS } from "../support/helpers.js";

/** The library's count of a text, a special token's text counted as text (as ours does). */
const reference = (text: string) => countTokens(text, { disallowedSpecial: new Set() });

/** Every string inside a parsed JSON value (keys too: they reach the purple in the task's JSON). */
function stringsIn(value: unknown, into: string[] = []): string[] {
  if (typeof value === "string") into.push(value);
  else if (Array.isArray(value)) for (const item of value) stringsIn(item, into);
  else if (value !== null && typeof value === "object")
    for (const [key, item] of Object.entries(value)) {
      into.push(key);
      stringsIn(item, into);
    }
  return into;
}

/** The count, or the error's message when the counter throws. */
function outcome(count: (text: string) => number, text: string): number | string {
  try {
    return count(text);
  } catch (error) {
    return `throws: ${(error as Error).message}`;
  }
}

/** The texts where the two counters differ (at most 5, shown with both outcomes). */
function differences(texts: readonly string[]): string[] {
  const ours = loadO200kCounter();
  const found: string[] = [];
  for (const text of texts) {
    const mine = outcome(ours.count, text);
    const theirs = outcome(reference, text);
    if (mine !== theirs && found.length < 5) found.push(`${JSON.stringify(text).slice(0, 200)}: ours ${mine}, gpt-tokenizer ${theirs}`);
  }
  return found;
}

/** Pieces the random texts are drawn from: where the pre-tokenizer and the byte merge differ most. */
const PIECES = [
  ..."abcXYZ019 .,;:!?'\"-_/\\()[]{}<>|@#$%^&*+=~`",
  "The",
  "HELLO",
  "'s",
  "'LL",
  "'Re",
  "123",
  "4567",
  "  ",
  "\t",
  "\n",
  "\r\n",
  "\n\n",
  "   \n",
  "é",
  "ñ",
  "Ü",
  "ǅ",
  "ʰ",
  "\u0301",
  "ﬁ",
  "日本",
  "語",
  "출장안마",
  "😀",
  "👍🏽",
  "\u{1f9d1}\u200d\u{1f4bb}",
  "\u00a0",
  "\u2003",
  "\u3000",
  "\u0085",
  "\u2028",
  "\ufeff",
  "\ufeffusing",
  "\ufeff\ufeff",
  "\ud800",
  "\udc00",
  "\udbff\udfff",
  "<|",
  "|>",
  "<|endoftext",
  "endoftext|>",
  "using",
  "namespace",
  "00QWt0000089AekMAE",
  '{"k": [1, 2]}',
];

function randomTexts(seed: number, count: number): string[] {
  const random = new Random(seed);
  const texts: string[] = [];
  for (let i = 0; i < count; i++) {
    let text = "";
    if (i % 4 === 3) {
      // Any UTF-16 code units at all, lone surrogates included.
      for (let n = random.int(1, 40); n > 0; n--) text += String.fromCharCode(random.int(0, 0xffff));
    } else {
      for (let n = random.int(1, 40); n > 0; n--) text += PIECES[random.int(0, PIECES.length - 1)];
    }
    texts.push(text);
  }
  return texts;
}

describe("the o200k counter counts exactly what gpt-tokenizer counts", () => {
  it("on every string of every real and sample task", () => {
    const texts = [REAL_TASKS, SAMPLE_TASKS].flatMap((path) => stringsIn(JSON.parse(readFileSync(path, "utf8"))));
    expect(texts.length).toBeGreaterThan(10_000);
    expect(differences(texts)).toEqual([]);
  }, 60_000);

  it("on the sample org: every row of every table, and each table's file whole", () => {
    const texts: string[] = [];
    for (const file of readdirSync(SAMPLE_ORG)) {
      const csv = readFileSync(join(SAMPLE_ORG, file), "utf8");
      texts.push(csv, ...csv.split("\n"));
    }
    expect(texts.length).toBeGreaterThan(1_000);
    expect(differences(texts)).toEqual([]);
  }, 60_000);

  it("on seeded random texts of letters, digits, spaces, punctuation, accents, CJK, emoji, byte order marks and lone surrogates", () => {
    expect(differences(randomTexts(31, 4_000))).toEqual([]);
  }, 60_000);

  it("on long pieces (merged with a heap beyond 128 bytes): runs of one character and seeded random words", () => {
    const texts = [" ".repeat(2_000), "\n".repeat(500), "\t \n".repeat(200), "a".repeat(400), "9".repeat(300), "é".repeat(300), "\ufeff".repeat(100), "😀".repeat(100)];
    for (const length of [127, 128, 129, 130, 200, 255, 256, 257]) texts.push(" ".repeat(length), "x".repeat(length), `${"ab".repeat(length)}`.slice(0, length));
    // Letters from a small alphabet repeat pairs, so equal ranks compete for the leftmost merge.
    const random = new Random(7);
    const alphabets = ["ab", "abc ", "ing", "théâtre", "日本語", "\ufeffus", "\ud800a", "😀é"];
    for (let i = 0; i < 300; i++) {
      const alphabet = [...alphabets[i % alphabets.length]!];
      let text = "";
      for (let n = random.int(60, 400); n > 0; n--) text += alphabet[random.int(0, alphabet.length - 1)];
      texts.push(text);
    }
    expect(differences(texts)).toEqual([]);
  });

  it("on special-token texts: counts them as text, as the library does when none is disallowed (its default throws)", () => {
    const texts = ["<|endoftext|>", "a <|im_start|> b", "x<|fim_prefix|>y<|endofprompt|>", "<|endoftext", "<|startoftext|>", "<|end|>", "<|im_sep|>", "<|| |>"];
    expect(differences(texts)).toEqual([]);
    expect(outcome(loadO200kCounter().count, "say <|endoftext|> now")).toBe(reference("say <|endoftext|> now"));
    expect(reference("<|endoftext|>")).toBeGreaterThan(1);
  });

  it("counts the cases a plain tiktoken port gets wrong as the library does (it never forms a byte-order-mark token)", () => {
    const ours = loadO200kCounter();
    // U+FEFF is one o200k token, yet the library's merge looks it up as decoded text without its mark.
    expect(ours.count("\ufeff")).toBe(reference("\ufeff"));
    expect(ours.count("\ufeff")).toBe(2);
    expect(ours.count("x \ufeffusing\ud800 y")).toBe(reference("x \ufeffusing\ud800 y"));
  });
});
