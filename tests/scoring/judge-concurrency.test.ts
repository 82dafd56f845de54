import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { llmConfigFromEnv } from "../../src/llm/config.js";
import { createJudge } from "../../src/scoring/index.js";
import { FakeLlm } from "../support/fake-llm.js";

let llm: FakeLlm;
beforeAll(async () => {
  llm = await new FakeLlm().start();
});
afterAll(() => llm.stop());

describe("concurrent judgements", () => {
  it("share one model call for identical questions in flight, and cache writes never cost a verdict", async () => {
    const judge = createJudge(llmConfigFromEnv({ OPENAI_API_KEY: "k", LLM_PRIMARY_BASE_URL: llm.url }), { cacheDir: mkdtempSync(join(tmpdir(), "judgements-")) });
    const verdicts = await Promise.all(Array.from({ length: 6 }, () => judge.privacy(["I cannot share that."], "I cannot share that.")));
    expect(llm.seen).toHaveLength(1);
    expect(verdicts.map((verdict) => verdict.source).sort()).toEqual(["cache", "cache", "cache", "cache", "cache", "llm"]);
    expect(verdicts.every((verdict) => verdict.value === true && verdict.model !== null)).toBe(true);
  });
});
