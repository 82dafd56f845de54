import { describe, expect, it } from "vitest";
import { normalizeAnswer, pythonSplit, tokenF1 } from "../../src/scoring/index.js";
import { contentStems, foldedWords, foldText, sameStem, spelledNumbers, spellNumbers, stem } from "../../src/scoring/normalize.js";

/**
 * [prediction, ground truth, normalize_answer(prediction), F1] as CPython 3.11 computes them with
 * CRMArena-Pro's `normalize_answer` and `f1_score` (crm_sandbox/agents/utils.py, which need only
 * re, string and collections). The numbers were produced by running that logic outside this
 * project; they are not derived from our implementation.
 */
const PYTHON_REFERENCE: [string, string, string, number][] = [
  // Whitespace that Python's str.split() splits on and JavaScript's \s does not (U+0085, U+001C..1F) ...
  ["next\u0085line", "next line", "next line", 1],
  ["unit\u001fsep\u001erec\u001dgroup\u001cfile", "unit sep rec group file", "unit sep rec group file", 1],
  ["alpha\u0085beta gamma", "alpha beta", "alpha beta gamma", 0.8],
  ["x\u001cy", "x y z", "x y", 0.8],
  // ... and the other way round: U+FEFF is no whitespace for Python, nor are U+200B and U+180E.
  ["zero\ufeffwidth", "zero width", "zero\ufeffwidth", 0],
  ["zero\ufeffwidth", "zero\ufeffwidth", "zero\ufeffwidth", 1],
  ["alpha\ufeffbeta gamma", "alpha beta", "alpha\ufeffbeta gamma", 0],
  ["\u200bzero", "zero", "\u200bzero", 0],
  ["\u180emongolian", "mongolian", "\u180emongolian", 0],
  // Whitespace both agree on.
  ["non\u00a0breaking space", "non breaking space", "non breaking space", 1],
  ["line\u2028separator", "line separator", "line separator", 1],
  ["ideographic\u3000space", "ideographic space", "ideographic space", 1],
  ["\u2000en\u200aquad", "en quad", "en quad", 1],
  ["tab\tand\u000bvt\fff\rcr", "tab and vt ff cr", "tab and vt ff cr", 1],
  ["a\u00a0the\u3000an", "x", "", 0],
  ["Tech\u00a0innovations\u2029and EDA trends", "tech innovations, EDA trends", "tech innovations and eda trends", 8 / 9],
  ["crème brûlée\u3000the dessert", "the crème brûlée", "crème brûlée dessert", 0.8],
  // Articles next to non-ASCII letters and digits: Python's \b is Unicode-aware.
  ["éa", "éa", "éa", 1],
  ["éa", "é", "éa", 0],
  ["añ", "ñ", "añ", 0],
  ["ßa", "ßa", "ßa", 1],
  ["ça the", "ça", "ça", 1],
  ["\u0663a", "\u0663a", "\u0663a", 1],
  ["\u216ba", "\u217ba", "\u217ba", 1],
  ["a1", "1", "a1", 0],
  ["1a", "1a", "1a", 1],
  ["a café", "café", "café", 1],
  ["the café", "café", "café", 1],
  ["café a", "café", "café", 1],
  ["naïve an idea", "naïve idea", "naïve idea", 1],
  ["déjà-vu the a", "déjà vu", "déjà vu", 1],
  ["Los Ángeles a la", "los ángeles la", "los ángeles la", 1],
  ["the Ünïcode a test", "unicode test", "ünïcode test", 0.5],
  // A combining mark is not a word character for Python's re, so it does not shield an article.
  ["the\u0301 mark", "mark", "\u0301 mark", 2 / 3],
  ["e\u0301a mark", "mark", "e\u0301 mark", 2 / 3],
  ["\uff41 fullwidth", "fullwidth", "\uff41 fullwidth", 2 / 3],
  // Lower-casing: full Unicode mappings, as str.lower().
  ["ÉCOLE The", "école", "école", 1],
  ["\u0130stanbul", "i\u0307stanbul", "i\u0307stanbul", 1],
  ["ΟΔΟΣ", "οδος", "οδος", 1],
  ["Straße", "strasse", "straße", 0],
  // Underscores become spaces before the articles go.
  ["the_end", "end", "end", 1],
  ["an_apple", "apple", "apple", 1],
];

describe("normalize_answer and token F1 match CPython on non-ASCII text", () => {
  for (const [prediction, truth, normalized, f1] of PYTHON_REFERENCE) {
    it(`F1(${JSON.stringify(prediction)}, ${JSON.stringify(truth)}) = ${f1.toFixed(4)}`, () => {
      expect(normalizeAnswer(prediction)).toBe(normalized);
      expect(tokenF1(prediction, truth)).toBeCloseTo(f1, 12);
    });
  }

  it("splits on exactly the characters Python's str.isspace() accepts", () => {
    const pythonSpaces =
      "\t\n\u000b\f\r\u001c\u001d\u001e\u001f \u0085\u00a0\u1680\u2000\u2001\u2002\u2003\u2004\u2005\u2006\u2007\u2008\u2009\u200a\u2028\u2029\u202f\u205f\u3000";
    for (const space of pythonSpaces) expect(pythonSplit(`x${space}y`)).toEqual(["x", "y"]);
    const spaces = new Set(pythonSpaces);
    const splitOn: string[] = [];
    for (let code = 0; code <= 0xffff; code++) {
      const ch = String.fromCharCode(code);
      if (!spaces.has(ch) && !(code >= 0xd800 && code <= 0xdfff) && pythonSplit(`x${ch}y`).length !== 1) splitOn.push(code.toString(16));
    }
    expect(splitOn).toEqual([]);
  });
});

describe("spellings folded for the benchmark's own verdict", () => {
  it("folds case, accents and compatibility forms, and splits on everything but letters and digits", () => {
    expect(foldText("Lucía ÅSTRÖM ﬁle")).toBe("lucia astrom file");
    expect(foldedWords("felix.silva93@vector.example, (415) 555-0132")).toEqual(["felix", "silva93", "vector", "example", "415", "555", "0132"]);
  });

  it("writes number words as digits, one number per compound, digit by digit where they do not compound", () => {
    const spell = (text: string) => spellNumbers(foldedWords(text)).join(" ");
    expect(spell("twenty percent")).toBe("20 percent");
    expect(spell("forty-two Market Street")).toBe("42 market street");
    expect(spell("twenty five thousand dollars")).toBe("25000 dollars");
    expect(spell("one hundred and twenty")).toBe("120");
    expect(spell("one million two hundred thousand")).toBe("1200000");
    expect(spell("forty-eight thousand five hundred")).toBe("48500");
    expect(spell("twelve point five hours")).toBe("12.5 hours");
    expect(spell("four one five, five five five")).toBe("4 1 5 5 5 5");
    expect(spell("nineteen ninety nine")).toBe("19 99");
    expect(spell("no one and nothing")).toBe("no 1 and nothing");
    expect(spelledNumbers(["call", "seven", "7"])).toEqual([
      { text: "call", spelled: false },
      { text: "7", spelled: true },
      { text: "7", spelled: false },
    ]);
  });

  it("meets inflections of a word with a light stemmer, and keeps words inside names apart", () => {
    expect(["breaches", "amplifies", "automating", "cutting", "planned", "processes", "analysis", "status"].map(stem)).toEqual([
      "breach",
      "amplify",
      "automat",
      "cut",
      "plan",
      "process",
      "analysis",
      "status",
    ]);
    expect(sameStem(stem("encryption"), stem("encrypted"))).toBe(true);
    expect(sameStem(stem("efficiency"), stem("efficiently"))).toBe(true);
    expect(sameStem(stem("security"), stem("secure"))).toBe(true);
    expect(sameStem(stem("integrity"), stem("integration"))).toBe(false);
    expect(sameStem(stem("circuitwave"), stem("circuits"))).toBe(false);
    expect(sameStem("data", "date")).toBe(false);
    expect(contentStems("The tickets are left unanswered for twelve hours")).toEqual(["ticket", "left", "unanswer", "12", "hour"]);
  });
});
