import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";
import { countTokens as reference } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";
import { plainTaskText } from "../../src/entropy/index.js";
import { taskMessage } from "../../src/protocol/index.js";
import { loadTaskFile } from "../../src/tasks/load.js";
import { BUILT_IN_TOOLS } from "../../src/tools/index.js";
import { countTokens, measureTokens } from "../../src/util/tokens.js";
import { buildBrief } from "../../src/world/index.js";
import { REAL_TASKS, SAMPLE_TASKS } from "../support/helpers.js";

describe("token counting", () => {
  it("counts exactly what the o200k tokenizer counts on the whole text, for every task message", () => {
    for (const path of [REAL_TASKS, SAMPLE_TASKS]) {
      for (const task of loadTaskFile(path).tasks) {
        const text = taskMessage(buildBrief(task, plainTaskText(task), 10, { drift_level: "none", rot_level: "none" }, BUILT_IN_TOOLS)).text;
        expect(countTokens(text)).toBe(reference(text));
      }
    }
  }, 60_000);

  it("handles blank lines, indentation and text without line breaks", () => {
    const unicodeSpaces = ["\u00a0", "\u2003", "\u3000", "\ufeff", "\u2028", "\u0085", "\u000b"];
    const texts = ["", "one line", "a\n\nb", "a\n  b\n\n\n  c\n", "x:\n- y\n- z\r\nw", '{\n  "k": [1, 2]\n}', "  lead\ntrail  ", "\n", "\nlead", "end\n", "a\n\n"];
    // A line break followed by each kind of space (no split there) and by a letter after it (a split).
    for (const space of unicodeSpaces) texts.push(`first line\n${space}second\nthird${space}\n`, `${"word ".repeat(50)}\n${space}${"x".repeat(380)}`);
    for (const text of texts) {
      expect(countTokens(text)).toBe(text ? reference(text) : 0);
    }
  });
});

describe("token counting never holds the event loop", () => {
  it("counts a 1 MB run of one letter in linear time, as an estimate, and says so", () => {
    // The old count took over 300 s on this input; linear counting takes well under a second
    // (npm run bench times it).
    const count = measureTokens("a".repeat(1_000_000));
    expect(count.estimated).toBe(true);
    expect(count.tokens).toBeGreaterThan(100_000);
  });

  it("estimates only runs of more than 400 characters without a JavaScript space, whatever the space", () => {
    for (const space of [" ", "\t", "\u00a0", "\u2003", "\u3000", "\ufeff"]) {
      const short = `${"b".repeat(400)}${space}${"c".repeat(400)}`;
      expect(measureTokens(short)).toEqual({ tokens: reference(short), estimated: false });
      expect(measureTokens(`${"b".repeat(401)}${space}c`).estimated).toBe(true);
    }
    // U+0085 is no JavaScript space: the run goes on through it.
    expect(measureTokens(`${"b".repeat(300)}\u0085${"c".repeat(300)}`).estimated).toBe(true);
  });

  it("keeps nothing of the texts it counted: 100 observations of 0.64 MB leave the heap as it was", () => {
    setFlagsFromString("--expose-gc");
    const gc = runInNewContext("gc") as () => void;
    const row = (i: number, j: number) =>
      `${i}-${j} | 00XWt000000${String(i).padStart(4, "0")}AAA | ${"lorem ipsum dolor sit amet ".repeat(22)} | 2024-01-${String(1 + (j % 28)).padStart(2, "0")}`;
    gc();
    const before = process.memoryUsage().heapUsed;
    for (let i = 0; i < 100; i++) measureTokens(Array.from({ length: 1000 }, (_, j) => row(i, j)).join("\n"));
    gc();
    // Remembered line counts used to hold a cut of each text, and with it the whole text: 60 MB here.
    expect((process.memoryUsage().heapUsed - before) / 2 ** 20).toBeLessThan(15);
  }, 60_000);

  it("counts exactly up to its limit and extrapolates beyond", () => {
    const words = "alpha beta gamma delta ".repeat(10_000);
    const exact = measureTokens(words.slice(0, 60_000));
    expect(exact).toEqual({ tokens: reference(words.slice(0, 60_000)), estimated: false });
    const big = measureTokens(words);
    expect(big.estimated).toBe(true);
    expect(Math.abs(big.tokens - reference(words)) / reference(words)).toBeLessThan(0.02);
  });
});
