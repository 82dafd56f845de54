import { countTokens as reference } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";
import { plainTaskText } from "../src/entropy/index.js";
import { taskMessage } from "../src/protocol/index.js";
import { loadTaskFile } from "../src/tasks/load.js";
import { countTokens, measureTokens } from "../src/util/tokens.js";
import { buildBrief } from "../src/world/index.js";
import { REAL_TASKS, SAMPLE_TASKS } from "./helpers.js";

describe("token counting", () => {
  it("counts exactly what the o200k tokenizer counts on the whole text, for every task message", () => {
    for (const path of [REAL_TASKS, SAMPLE_TASKS]) {
      for (const task of loadTaskFile(path).tasks) {
        const text = taskMessage(buildBrief(task, plainTaskText(task), 10, { drift_level: "none", rot_level: "none", seed: 42 })).text;
        expect(countTokens(text)).toBe(reference(text));
      }
    }
  }, 60_000);

  it("handles blank lines, indentation and text without line breaks", () => {
    for (const text of ["", "one line", "a\n\nb", "a\n  b\n\n\n  c\n", "x:\n- y\n- z\r\nw", '{\n  "k": [1, 2]\n}', "  lead\ntrail  "]) {
      expect(countTokens(text)).toBe(text ? reference(text) : 0);
    }
  });
});

describe("token counting never holds the event loop", () => {
  it("counts a 1 MB run of one letter in linear time, as an estimate, and says so", () => {
    const started = performance.now();
    const count = measureTokens("a".repeat(1_000_000));
    // The old count took over 300 s on this input; linear counting takes well under a second.
    expect(performance.now() - started).toBeLessThan(10_000);
    expect(count.estimated).toBe(true);
    expect(count.tokens).toBeGreaterThan(100_000);
  });

  it("counts exactly up to its limit and extrapolates beyond", () => {
    const words = "alpha beta gamma delta ".repeat(10_000);
    const exact = measureTokens(words.slice(0, 60_000));
    expect(exact).toEqual({ tokens: reference(words.slice(0, 60_000)), estimated: false });
    const big = measureTokens(words);
    expect(big.estimated).toBe(true);
    expect(Math.abs(big.tokens - reference(words)) / reference(words)).toBeLessThan(0.02);
  });
});
