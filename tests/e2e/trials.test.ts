import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, describe, expect, it } from "vitest";
import { QUERIES } from "../../leaderboard/queries.js";
import { assess, parseConfig, rescore, runSpecFor } from "../../src/assessment/index.js";
import { naiveStrategy, type Strategy, servePurple, solverStrategy } from "../../src/baselines/index.js";
import { readLog } from "../../src/log/index.js";
import { A2APurpleClient } from "../../src/purple/index.js";
import {
  buildResults,
  compareResults,
  compareText,
  episodeViews,
  mergeShards,
  parseReportResults,
  passHat,
  type ResultsObject,
  renderReport,
  reportModel,
  summaryText,
} from "../../src/report/index.js";
import { HeuristicJudge } from "../../src/scoring/index.js";
import { Random } from "../../src/util/index.js";
import { calibration, sampleData } from "../support/helpers.js";
import { inProcessPurple } from "../support/in-process-purple.js";
import { SLOW_TESTS } from "../support/tier.js";

/**
 * Trials (pass^k with intervals) and paired robustness (clean versus perturbed) on the sample.
 * The purples answer in the test's process (tests/support/in-process-purple.ts): what is checked is the
 * runs' arithmetic, not the transport; one run goes to a purple served on loopback. A trials run,
 * a paired run and what the report, compare and the leaderboard show of them run in `npm test`;
 * the rest (shards, a journal's resume, the solver's runs) in the slow tier (tests/support/tier.ts).
 */

const data = await sampleData();
const servers: { close(): void }[] = [];
const work = mkdtempSync(join(tmpdir(), "entropic-trials-"));
afterAll(async () => {
  rmSync(work, { recursive: true, force: true });
  for (const server of servers) server.close();
  await data.org.close();
});

/**
 * The solver, but each of its episodes fails one time in three, seeded: the n-th episode with a
 * task id fails when Random(`flaky:<task id>:<n>`) says so (every episode has its own task id, so
 * n is 1 but for a purple told the same id twice), so the outcomes do not depend on the order the
 * episodes run in.
 */
function flakySolver(): Strategy {
  const episodes = new Map<string, number>();
  return async (task, tools) => {
    const n = (episodes.get(task.taskId) ?? 0) + 1;
    episodes.set(task.taskId, n);
    if (new Random(`flaky:${task.taskId}:${n}`).chance(1 / 3)) return "I could not work it out.";
    return solverStrategy(task, tools);
  };
}

async function run(strategy: Strategy, config: Record<string, unknown>, transport: "in-process" | "served" = "in-process"): Promise<ResultsObject> {
  let purple = inProcessPurple(strategy);
  if (transport === "served") {
    const { server, url } = await servePurple("trials", strategy, "127.0.0.1", 0);
    servers.push(server);
    purple = new A2APurpleClient(url);
  }
  const parsed = parseConfig({ task_limit: 12, seed: 7, concurrency: 4, ...config }).config;
  const { results } = await assess(data, purple, {
    spec: runSpecFor({ participantUrl: "http://purple.test/", config: parsed, tasksSource: data.sources.tasks.path }),
    calibration,
  });
  return results;
}

/** A tab of the leaderboard over results files (file name -> the file's list of result objects), as AgentBeats runs it. */
async function leaderboardTab(files: Record<string, unknown[]>, tab: string): Promise<Record<string, unknown>[]> {
  const folder = mkdtempSync(join(work, "results-"));
  for (const [file, objects] of Object.entries(files))
    writeFileSync(join(folder, file), JSON.stringify({ participants: { agent: file.replace(/\.json$/, "") }, results: objects }));
  const connection = await (await DuckDBInstance.create(":memory:")).connect();
  try {
    await connection.run(`CREATE VIEW results AS SELECT * FROM read_json_auto('${join(folder, "*.json")}')`);
    const reader = await connection.runAndReadAll(QUERIES.find((query) => query.name === tab)!.query);
    return reader.getRowObjectsJson() as Record<string, unknown>[];
  } finally {
    connection.closeSync();
  }
}

let flakyTrials: ResultsObject | undefined;
let naivePaired: ResultsObject | undefined;

describe("pass^k", () => {
  it("estimate pass^k without bias from each task's count", () => {
    expect(passHat([{ trials: 4, passed: 2 }], 2)).toBeCloseTo(1 / 6);
    expect(passHat([{ trials: 4, passed: 4 }], 4)).toBe(1);
    expect(passHat([{ trials: 2, passed: 1 }], 3)).toBeNull();
  });
});

describe("trials", () => {
  it("run each task k times and report pass^1..k with a seeded 95% bootstrap interval", async () => {
    const results = await run(flakySolver(), { trials: 3 });
    flakyTrials = results;
    const trials = results.trials!;
    expect(trials.k).toBe(3);
    expect(trials.tasks).toBe(12);
    expect(results.results).toHaveLength(36);
    expect(results.summary.total_tasks).toBe(36);
    expect(new Set(results.results.map((entry) => (entry as { trial?: number }).trial))).toEqual(new Set([1, 2, 3]));
    // The per-task counts are the entries' own, and pass^k is tau-bench's estimator over them.
    for (const task of trials.per_task) {
      const entries = results.results.filter((entry) => Number(entry.task_idx) === task.task_idx);
      expect(task.trials).toBe(3);
      expect(task.passed).toBe(entries.filter((entry) => entry.success).length);
    }
    const byHand = (k: number) =>
      trials.per_task.reduce(
        (sum, task) =>
          sum +
          [
            [0, 0, 0],
            [1 / 3, 0, 0],
            [2 / 3, 1 / 3, 0],
            [1, 1, 1],
          ][task.passed]![k - 1]!,
        0,
      ) / 12;
    for (const k of [1, 2, 3]) expect(trials.pass_hat[String(k)]).toBeCloseTo(byHand(k), 4);
    expect(trials.pass_at_1).toBe(trials.pass_hat["1"]);
    expect(trials.pass_hat["1"]).toBeCloseTo(results.summary.total_passed / 36, 4);
    // Failing one episode in three: some tasks lose a trial, so pass^k falls with k.
    expect(trials.pass_hat["1"]!).toBeGreaterThan(trials.pass_hat["3"]!);
    expect(trials.pass_hat["2"]!).toBeGreaterThanOrEqual(trials.pass_hat["3"]!);
    for (const k of ["1", "2", "3"]) {
      const [low, high] = trials.interval[k]!;
      expect(low).toBeLessThanOrEqual(trials.pass_hat[k]!);
      expect(high).toBeGreaterThanOrEqual(trials.pass_hat[k]!);
      expect(high - low).toBeGreaterThan(0);
    }
    for (const figures of Object.values(trials.by_category)) expect(Object.keys(figures.pass_hat)).toEqual(["1", "2", "3"]);
    // The same run (seed, tasks, outcomes) gives the same interval.
    expect((await run(flakySolver(), { trials: 3 })).trials).toEqual(trials);
  }, 120_000);

  it("give a purple that always passes pass^k = 1 and a zero-width interval", async () => {
    const results = await run(solverStrategy, { trials: 3 });
    expect(results.trials!.pass_hat).toEqual({ "1": 1, "2": 1, "3": 1 });
    expect(results.trials!.interval).toEqual({ "1": [1, 1], "2": [1, 1], "3": [1, 1] });
  }, 120_000);

  it("leave a single-trial unpaired run's results without the new keys", async () => {
    const results = (await run(solverStrategy, {}, "served")) as Record<string, unknown>;
    expect(results.trials).toBeUndefined();
    expect(results.robustness).toBeUndefined();
    expect(Object.keys(results.aggregates as object)).not.toContain("tasks");
    expect(Object.keys((results.results as object[])[0]!)).not.toContain("trial");
  }, 60_000);
});

describe("paired robustness", () => {
  it("runs each task clean and perturbed, and reports both pass rates, their ratio and each kind's losses", async () => {
    const results = await run(naiveStrategy, { paired: true, drift_level: "high", rot_level: "high", task_limit: 44 });
    naivePaired = results;
    const robustness = results.robustness!;
    expect(results.results).toHaveLength(88);
    // The run's own figures are the perturbed episodes'.
    expect(results.summary.total_tasks).toBe(44);
    expect(robustness.perturbed.episodes).toBe(44);
    expect(robustness.clean.episodes).toBe(44);
    expect(robustness.perturbed.passed).toBe(results.summary.total_passed);
    expect(robustness.clean.pass_rate!).toBeGreaterThan(robustness.perturbed.pass_rate!);
    expect(robustness.ratio).toBeCloseTo(robustness.perturbed.pass_rate! / robustness.clean.pass_rate!, 3);
    expect(robustness.ratio!).toBeLessThan(1);
    const [low, high] = robustness.ratio_interval!;
    expect(low).toBeLessThanOrEqual(robustness.ratio!);
    expect(high).toBeGreaterThanOrEqual(robustness.ratio!);
    // Losses per kind: only on episodes the kind touched, and they account for the lost answers.
    const kinds = Object.entries(robustness.by_kind);
    expect(kinds.length).toBeGreaterThan(3);
    const lossy = kinds.filter(([, entry]) => entry.lost > 0);
    expect(lossy.length).toBeGreaterThan(0);
    for (const [, entry] of kinds) expect(entry.lost).toBeLessThanOrEqual(entry.clean_passed);
    expect(robustness.lost).toBeGreaterThan(0);
    const perturbed = results.results.filter((entry) => (entry as { condition?: string }).condition === "perturbed") as { touched_by?: string[]; success: boolean }[];
    for (const [kind, entry] of kinds) expect(entry.touched).toBe(perturbed.filter((e) => e.touched_by?.includes(kind)).length);
    for (const figures of Object.values(robustness.by_category)) expect(figures.clean.episodes).toBe(figures.perturbed.episodes);
  }, 180_000);

  it.skipIf(!SLOW_TESTS)(
    "gives the solver a ratio of 1 (slow tier)",
    async () => {
      const results = await run(solverStrategy, { paired: true, drift_level: "high", rot_level: "high", task_limit: 44 });
      expect(results.robustness!.ratio).toBe(1);
      expect(results.robustness!.lost).toBe(0);
    },
    180_000,
  );
});

describe.skipIf(!SLOW_TESTS)("sharded trials and paired runs (slow tier)", () => {
  it("merge to exactly the unsharded figures", async () => {
    const config = { trials: 2, paired: true, drift_level: "high", rot_level: "high", task_limit: 15 };
    const whole = await run(flakySolver(), config);
    const shards = [];
    // One purple for the shards too: its episodes count per task, as across the unsharded run's.
    for (let shard = 0; shard < 3; shard++) shards.push(await run(flakySolver(), { ...config, num_shards: 3, shard_index: shard }));
    const merged = mergeShards(shards as unknown as Record<string, unknown>[]);
    expect(merged.trials).toEqual(whole.trials);
    expect(merged.robustness).toEqual(whole.robustness);
    expect(merged.summary).toEqual(whole.summary);
    expect(merged.by_category).toEqual(whole.by_category);
    expect(merged.aggregates).toEqual(whole.aggregates);
  }, 240_000);
});

describe.skipIf(!SLOW_TESTS)("the leaderboard queries (slow tier)", () => {
  it("show the trials, pass^k, pass@1's interval and the robustness ratio; a sharded run its pass^k and ratio", async () => {
    const trials = flakyTrials!.trials!;
    const robustness = naivePaired!.robustness!;
    const config = { trials: 2, paired: true, drift_level: "high", rot_level: "high", task_limit: 15 };
    const shards = [];
    for (let shard = 0; shard < 3; shard++) shards.push(await run(flakySolver(), { ...config, num_shards: 3, shard_index: shard }));
    const merged = mergeShards(shards as unknown as Record<string, unknown>[]);
    const rows = await leaderboardTab({ "flaky.json": [flakyTrials], "naive.json": [naivePaired], "sharded.json": shards, "merged.json": [merged] }, "All Runs");
    const row = (id: string) => rows.find((entry) => entry.id === id)!;
    const percent = (value: number) => Math.round(value * 1000) / 10;
    expect(row("flaky")).toMatchObject({
      Trials: 3,
      "Pass^k %": percent(trials.pass_hat["3"]!),
      "95% CI": `${percent(trials.interval["1"]![0])}-${percent(trials.interval["1"]![1])}`,
      Robustness: null,
    });
    expect(row("naive")).toMatchObject({ Trials: 1, Robustness: Math.round(robustness.ratio! * 1000) / 1000 });
    // The shards add up to the merged run's pass^k and ratio; the interval needs the merged object.
    expect(row("sharded")["Pass^k %"]).toBe(percent(merged.trials!.pass_hat["2"]!));
    expect(row("sharded").Robustness).toBe(Math.round(merged.robustness!.ratio! * 1000) / 1000);
    expect(row("sharded")["95% CI"]).toBeNull();
    expect(row("merged")["95% CI"]).toBe(`${percent(merged.trials!.interval["1"]![0])}-${percent(merged.trials!.interval["1"]![1])}`);
  }, 240_000);
});

/** The report page of a results object (Chart.js left out: the test reads the page's text). */
function reportPage(results: ResultsObject): string {
  const parsed = parseReportResults(JSON.parse(JSON.stringify(results)), "results.json");
  return renderReport(reportModel({ results: parsed, label: "results.json", source: "compact", episodes: episodeViews(parsed) }), { chartJs: "" });
}

describe("the report and compare", () => {
  it("show pass^k with its intervals, and the robustness section with each kind's losses", () => {
    const trials = flakyTrials!.trials!;
    const page = reportPage(flakyTrials!);
    expect(page).toContain('<section id="trials">');
    for (const k of ["1", "2", "3"]) expect(page).toContain(`<th>pass^${k}</th>`);
    const percent = (value: number) => `${(value * 100).toFixed(1)}%`;
    expect(page).toContain(`${percent(trials.interval["3"]![0])}–${percent(trials.interval["3"]![1])}`);
    expect(page).not.toContain('<section id="robustness">');

    const robustness = naivePaired!.robustness!;
    const paired = reportPage(naivePaired!);
    expect(paired).toContain('<section id="robustness">');
    expect(paired).toContain(`<td data-figure="ratio">${robustness.ratio!.toFixed(3)}`);
    for (const [kind, entry] of Object.entries(robustness.by_kind)) expect(paired).toContain(`<td data-figure="lost-${kind}">${entry.lost}</td>`);
    expect(paired).toContain("chart-robustness");
    expect(summaryText(flakyTrials!)).toMatch(/Trials: 3 per task over 12 tasks; pass\^1 [\d.]+%, pass\^2 [\d.]+%, pass\^3 [\d.]+%; pass@1's 95% interval [\d.]+%-[\d.]+%/);
    expect(summaryText(naivePaired!)).toContain(`ratio ${robustness.ratio!.toFixed(3)}`);
  });

  it("say whether a difference in pass rate is beyond the runs' intervals", async () => {
    const always = await run(solverStrategy, { trials: 3 });
    const text = compareText(compareResults(parseReportResults(always, "a"), parseReportResults(flakyTrials, "b"), { before: "always", after: "flaky" }));
    const comparison = compareResults(parseReportResults(always, "a"), parseReportResults(flakyTrials, "b"), { before: "always", after: "flaky" });
    // The always-passing run's interval is [1, 1]; the flaky one's ends below 1.
    expect(comparison.passInterval.before).toEqual([1, 1]);
    expect(comparison.passInterval.beyond).toBe(true);
    expect(text).toMatch(/pass@1 95% interval .* beyond the intervals/);
    const same = compareResults(parseReportResults(flakyTrials, "b"), parseReportResults(flakyTrials, "b"), { before: "x", after: "y" });
    expect(same.passInterval.beyond).toBe(false);
    expect(compareText(same)).toMatch(/within the intervals/);
  }, 60_000);
});

describe.skipIf(!SLOW_TESTS)("a trials and paired run's journal (slow tier)", () => {
  it("resumes with only the missing episodes, and re-scores to the same figures", async () => {
    const purple = inProcessPurple(flakySolver());
    const config = parseConfig({ task_limit: 10, seed: 7, concurrency: 2, trials: 2, paired: true, drift_level: "high", rot_level: "high", run_id: "trials-resume" }).config;
    const spec = runSpecFor({ participantUrl: "http://purple.test/", config, tasksSource: data.sources.tasks.path });
    const logDir = mkdtempSync(join(work, "journal-"));
    const drain = new AbortController();
    let finished = 0;
    const first = await assess(data, purple, {
      spec,
      calibration,
      logDir,
      drain: drain.signal,
      onEvent: (event) => {
        if (event.kind === "task_finished" && ++finished === 13) drain.abort("stop");
      },
    });
    expect(first.results.status).toBe("interrupted");
    expect(first.log.episodes.length).toBeLessThan(40);
    let played = 0;
    const resumed = await assess(data, purple, {
      spec,
      calibration,
      logDir,
      resume: true,
      onEvent: (event) => {
        if (event.kind === "task_started") played++;
      },
    });
    expect(resumed.results.status).toBe("completed");
    expect(played).toBe(40 - first.log.episodes.length);
    const positions = resumed.log.episodes.map((record) => record.position);
    expect(positions).toEqual(Array.from({ length: 40 }, (_, i) => i + 1));
    expect(resumed.log.episodes.filter((record) => record.condition === "clean")).toHaveLength(20);
    expect(new Set(resumed.log.episodes.map((record) => `${record.task.idx}:${record.trial}:${record.condition}`)).size).toBe(40);
    // The flaky purple counted every episode once, across both attempts: the same outcomes as one run.
    const whole = await run(flakySolver(), { task_limit: 10, concurrency: 2, trials: 2, paired: true, drift_level: "high", rot_level: "high" });
    expect(resumed.results.trials).toEqual(whole.trials);
    expect(resumed.results.robustness).toEqual(whole.robustness);
    const stored = await readLog(resumed.logFile!);
    expect(stored.header.cleanEntropy?.drift_level).toBe("none");
    const rescored = await rescore(stored, new HeuristicJudge(), calibration);
    expect(buildResults(rescored).robustness).toEqual(resumed.results.robustness);
    expect(buildResults(rescored).trials).toEqual(resumed.results.trials);
  }, 240_000);
});
