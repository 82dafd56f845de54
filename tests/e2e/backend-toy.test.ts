import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AssessmentData, assess, parseConfig, runSpecFor } from "../../src/assessment/index.js";
import { type Strategy, servePurple, solverStrategy } from "../../src/baselines/index.js";
import type { AssessmentLog } from "../../src/log/index.js";
import { openBackend, RowsBackend, registerBackend } from "../../src/org/index.js";
import { A2APurpleClient } from "../../src/purple/index.js";
import { loadTaskFile } from "../../src/tasks/load.js";
import { memoryBackend } from "../fixtures/extensions/memory-backend.js";
import { assessmentParams, calibration, rawStream, SAMPLE_ORG, SAMPLE_TASKS, sampleData, startGreen } from "../support/helpers.js";

/**
 * A second backend needs one module and its registration, nothing else: the module is
 * fixtures/extensions/memory-backend.ts (rows held in JS, no SQL, no `derive`), the registration
 * the line below. Opened through the factory by its URI, it serves the sample org, and the
 * reference solver passes the sample on it at drift and rot none and high, over A2A; at high
 * the view's copy (materialised from the rows, Ids remapped) answers exactly as SQLite's does.
 */
const unregister = registerBackend(memoryBackend);
let memory: AssessmentData;
let sqlite: AssessmentData;
let solver: Awaited<ReturnType<typeof servePurple>>;

beforeAll(async () => {
  const org = await openBackend(`memory:${SAMPLE_ORG}`);
  memory = { tasks: loadTaskFile(SAMPLE_TASKS), org, dataset: "sample", sources: { tasks: { path: SAMPLE_TASKS, kind: "sample" }, org: { path: SAMPLE_ORG, kind: "sample" } } };
  sqlite = await sampleData();
  solver = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
});

afterAll(async () => {
  solver.server.close();
  await memory.org.close();
  await sqlite.org.close();
  unregister();
});

const failuresOf = (results: { results: { success: boolean; task_idx: number; task_category: string; agent_answer: unknown; expected_answer: unknown }[] }) =>
  results.results.filter((entry) => !entry.success).map((entry) => `${entry.task_idx} ${entry.task_category}: ${entry.agent_answer} vs ${entry.expected_answer}`);

describe("a second backend, from its own file", () => {
  it("opens through the factory by its URI, and offers no SQL", async () => {
    expect(memory.org).toBeInstanceOf(RowsBackend);
    expect(memory.org.derive).toBeUndefined();
    expect([...memory.org.capabilities].sort()).toEqual(["soql", "sosl"]);
    await expect(openBackend("nowhere:x")).rejects.toThrow("bad org spec: field 'backend': no backend named nowhere; the backends are sqlite, memory");
    const seen: { tools?: string[]; sql?: Record<string, unknown> } = {};
    const probe: Strategy = async (task, tools) => {
      seen.tools = (task.data.tools as { function: { name: string } }[]).map((tool) => tool.function.name);
      seen.sql = await tools.call("sql_query", { query: "SELECT 1" });
      return "None";
    };
    const purple = await servePurple("probe", probe, "127.0.0.1", 0);
    try {
      const { config } = parseConfig({ task_ids: [0] });
      await assess(memory, new A2APurpleClient(purple.url), { spec: runSpecFor({ participantUrl: purple.url, config, tasksSource: memory.sources.tasks.path }), calibration });
      expect(seen.tools).toEqual(["describe_schema", "soql_query", "sosl_search", "respond"]);
      expect(seen.sql).toMatchObject({ type: "format_error", error: { message: 'unknown tool "sql_query"; the tools are describe_schema, soql_query, sosl_search, respond' } });
    } finally {
      purple.server.close();
    }
  }, 60_000);

  it("serves the sample to the solver over A2A, every task passed, at drift and rot none", async () => {
    const green = await startGreen(memory);
    try {
      const lines = await rawStream(green.url, assessmentParams({ participants: { agent: solver.url }, config: { concurrency: 8 } }));
      const results = lines.map((line) => line.result).find((event) => event.kind === "artifact-update").artifact.parts[1].data;
      expect(failuresOf(results)).toEqual([]);
      expect(results.summary.total_tasks).toBe(memory.tasks.tasks.length);
    } finally {
      await green.close();
    }
  }, 120_000);

  it("passes at drift and rot high, its materialised copy answering every query as SQLite's derived copy does", async () => {
    const { config } = parseConfig({ drift_level: "high", rot_level: "high", seed: 7, concurrency: 8 });
    const run = (data: AssessmentData) =>
      assess(data, new A2APurpleClient(solver.url), { spec: runSpecFor({ participantUrl: solver.url, config, tasksSource: data.sources.tasks.path }), calibration });
    expect(config.remap_ids, "the copies remap every Id").toBe(true);
    const onMemory = await run(memory);
    const onSqlite = await run(sqlite);
    expect(failuresOf(onMemory.results as never)).toEqual([]);
    expect(onMemory.log.header.entropy).toEqual(onSqlite.log.header.entropy);
    const observations = (log: AssessmentLog) =>
      log.episodes.map((record) => ({ task: record.task.idx, answer: record.trajectory.answer, seen: record.trajectory.steps.map((step) => step.observation?.text) }));
    expect(observations(onMemory.log).flatMap((episode) => episode.seen.filter((text) => text !== undefined)).length).toBeGreaterThan(2 * memory.tasks.tasks.length);
    expect(observations(onMemory.log)).toEqual(observations(onSqlite.log));
  }, 180_000);
});
