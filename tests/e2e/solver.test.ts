import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AssessmentData } from "../../src/assessment/index.js";
import { servePurple, solverStrategy } from "../../src/baselines/index.js";
import { assessmentParams, calibration, rawStream, sampleData, startGreen } from "../support/helpers.js";

let data: AssessmentData;
let green: Awaited<ReturnType<typeof startGreen>>;
let solver: Awaited<ReturnType<typeof servePurple>>;

beforeAll(async () => {
  data = await sampleData();
  green = await startGreen(data);
  solver = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
});

afterAll(async () => {
  solver.server.close();
  await green.close();
  await data.org.close();
});

describe("the solver purple", () => {
  it("solves every sample task through the protocol with SOQL and SOSL only, with no access to ground truth", async () => {
    const lines = await rawStream(green.url, assessmentParams({ participants: { agent: solver.url }, config: { concurrency: 8 } }));
    const artifact = lines.map((line) => line.result).find((event) => event.kind === "artifact-update");
    const results = artifact.artifact.parts[1].data;
    const failures = results.results
      .filter((entry: any) => !entry.success)
      .map((entry: any) => `${entry.task_idx} ${entry.task_category}: ${entry.agent_answer} vs ${entry.expected_answer}`);
    expect(failures).toEqual([]);
    expect(results.summary.total_tasks).toBe(data.tasks.tasks.length);
    expect(Object.keys(results.by_category)).toHaveLength(22);
    // The calibration (data/calibration.json) is what this solver needs: it reaches 100 on every efficiency dimension.
    for (const entry of results.results) {
      const measured = calibration.categories[entry.task_category]!;
      expect(entry.metrics.turns, `${entry.task_idx} turns`).toBeLessThanOrEqual(measured.turns);
      expect(entry.metrics.queries, `${entry.task_idx} queries`).toBeLessThanOrEqual(measured.queries);
      for (const [dimension, value] of Object.entries(entry.dimension_scores)) if (value !== null) expect(value, `${entry.task_idx} ${dimension}`).toBe(100);
    }
    expect(results.summary.avg_score).toBe(100);
    const kinds = new Set(results.results.flatMap((entry: any) => entry.trajectory.steps.map((step: any) => step.action.split(":")[0])));
    expect([...kinds].sort()).toEqual(["describe_schema", "respond", "soql_query", "sosl_search"]);
    for (const entry of results.results) {
      expect(entry.trajectory.steps[0].action).toBe("describe_schema");
      if (entry.dataset_reference.reward_metric !== "privacy_rejection") expect(entry.metrics.queries).toBeGreaterThan(0);
      for (const step of entry.trajectory.steps) expect(step.action).toMatch(/^(describe_schema|soql_query|sosl_search|respond)\b/);
    }
  }, 120_000);
});
