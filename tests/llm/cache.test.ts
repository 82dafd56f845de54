import { mkdtempSync, readdirSync, statSync, utimesSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { JudgementCache, llmConfigFromEnv } from "../../src/llm/index.js";

/** The verdict files of a cache folder, with their sizes. */
function files(dir: string): { path: string; bytes: number }[] {
  return readdirSync(dir).flatMap((folder) =>
    readdirSync(join(dir, folder))
      .filter((name) => name.endsWith(".json"))
      .map((name) => ({ path: join(dir, folder, name), bytes: statSync(join(dir, folder, name)).size })),
  );
}

const question = (i: number) => [{ role: "user" as const, content: `question ${i}: ${"x".repeat(900)}` }];

describe("the judgement cache is bounded", () => {
  it("keeps what it was given within its budget, removing the oldest written verdicts first", async () => {
    const dir = mkdtempSync(join(tmpdir(), "judge-cache-"));
    // About 1 KB a verdict, a budget of 20 KB: a sweep every 1.25 KB written.
    const cache = new JudgementCache(dir, 20 * 1024);
    for (let i = 0; i < 60; i++) {
      await cache.put("model", question(i), `verdict ${i}`);
      // Each verdict older than the next by a second, as the clock would have them over a run.
      const written = files(dir).find((file) => file.path.endsWith(`${JudgementCache.key("model", question(i))}.json`))!;
      const at = new Date(Date.UTC(2026, 0, 1, 0, 0, i));
      utimesSync(written.path, at, at);
    }
    await cache.sweep();
    const total = files(dir).reduce((sum, file) => sum + file.bytes, 0);
    expect(total).toBeLessThanOrEqual(20 * 1024);
    expect(total).toBeGreaterThan(0);
    // The newest are there, the oldest are gone; a removed verdict is only a miss.
    expect(await cache.get("model", question(59))).toBe("verdict 59");
    expect(await cache.get("model", question(0))).toBeUndefined();
  });

  it("does nothing while the cache is within its budget", async () => {
    const dir = mkdtempSync(join(tmpdir(), "judge-cache-"));
    const cache = new JudgementCache(dir, 1024 * 1024);
    for (let i = 0; i < 5; i++) await cache.put("model", question(i), `verdict ${i}`);
    expect(await cache.sweep()).toBe(0);
    expect(files(dir)).toHaveLength(5);
  });

  it("takes its budget from ENTROPIC_JUDGE_CACHE_MB, refusing a value that is no size", () => {
    expect(llmConfigFromEnv({ ENTROPIC_JUDGE_CACHE_MB: "2" }).cacheBytes).toBe(2 * 1024 * 1024);
    expect(llmConfigFromEnv({}).cacheBytes).toBeUndefined();
    expect(() => llmConfigFromEnv({ ENTROPIC_JUDGE_CACHE_MB: "lots" })).toThrow(/ENTROPIC_JUDGE_CACHE_MB must be a number from 1 to 10000000/);
  });
});
