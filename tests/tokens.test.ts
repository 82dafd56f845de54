import { countTokens as reference } from "gpt-tokenizer";
import { describe, expect, it } from "vitest";
import { briefFor, parseConfig } from "../src/assessment/index.js";
import { taskMessage } from "../src/protocol/index.js";
import { loadTaskFile } from "../src/tasks/load.js";
import { countTokens } from "../src/util/tokens.js";
import { REAL_TASKS, SAMPLE_TASKS } from "./helpers.js";

describe("token counting", () => {
  it("counts exactly what the o200k tokenizer counts on the whole text, for every task message", () => {
    const { config } = parseConfig({});
    for (const path of [REAL_TASKS, SAMPLE_TASKS]) {
      for (const task of loadTaskFile(path).tasks) {
        const text = taskMessage(briefFor(task, config).brief).text;
        expect(countTokens(text)).toBe(reference(text));
      }
    }
  }, 60_000);

  it("handles blank lines, indentation and text without line breaks", () => {
    for (const text of ["", "one line", "a\n\nb", "a\n  b\n\n\n  c\n", "x:\n- y\n- z\r\nw", "{\n  \"k\": [1, 2]\n}", "  lead\ntrail  "]) {
      expect(countTokens(text)).toBe(text ? reference(text) : 0);
    }
  });
});
