import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AssessmentData, assess, DataMismatchError, parseConfig, runSpecFor } from "../../src/assessment/index.js";
import { oracleStrategy, servePurple } from "../../src/baselines/index.js";
import { A2APurpleClient } from "../../src/purple/index.js";
import { calibration, REAL_TASKS, sampleData } from "../support/helpers.js";

let data: AssessmentData;
let oracle: Awaited<ReturnType<typeof servePurple>>;

beforeAll(async () => {
  data = await sampleData(REAL_TASKS);
  oracle = await servePurple("oracle", oracleStrategy(data.tasks), "127.0.0.1", 0);
});

afterAll(async () => {
  oracle.server.close();
  await data.org.close();
});

describe("the real CRMArena-Pro tasks", () => {
  it("are refused on the sample org, whose records they do not name, with a message saying what to fetch", async () => {
    const { config } = parseConfig({ task_limit: 50 });
    const run = assess(data, new A2APurpleClient(oracle.url), { spec: runSpecFor({ participantUrl: oracle.url, config, tasksSource: data.sources.tasks.path }), calibration });
    await expect(run).rejects.toThrow(DataMismatchError);
    await expect(run).rejects.toThrow(/not in the org.*entropic-crmarena data fetch.*allow_data_mismatch/s);
  });

  it("a perfect answerer passes 2,140 of 2,140 over HTTP with the deterministic judge (allowed to run on the mismatched org)", async () => {
    const { config } = parseConfig({ concurrency: 16, allow_data_mismatch: true });
    const { results } = await assess(data, new A2APurpleClient(oracle.url), {
      spec: runSpecFor({ participantUrl: oracle.url, config, tasksSource: data.sources.tasks.path }),
      calibration,
    });
    expect(results.data_sources).toMatchObject({ tasks: { path: REAL_TASKS, kind: "custom" }, org: { kind: "sample" }, check: { allowed_mismatch: true } });
    expect(results.data_sources.check.missing_ids).toBeGreaterThan(1000);
    const failed = results.results
      .filter((entry) => !entry.success)
      .map((entry) => `${entry.task_idx} ${entry.task_category}: ${"agent_answer" in entry ? `${entry.agent_answer} vs ${entry.expected_answer}` : entry.error}`);
    expect(failed).toEqual([]);
    expect(results.summary).toMatchObject({ total_tasks: 2140, total_passed: 2140, pass_rate: 1 });
    expect(results.original.scores.accuracy_percent).toBe(100);
    expect(results.original.by_metric_type).toEqual({
      exact_match: { total: 1700, passed: 1700, accuracy: 1 },
      fuzzy_match: { total: 200, passed: 200, accuracy: 1 },
      privacy_rejection: { total: 240, passed: 240, accuracy: 1 },
    });
    // A full run's results object stays small enough for a leaderboard repository.
    expect(JSON.stringify(results).length).toBeLessThan(10_000_000);
  }, 240_000);
});
