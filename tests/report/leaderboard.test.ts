import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { QUERIES, QUERIES_FILE, queriesJson, RANKED_FINGERPRINT, runLeaderboard, tableText } from "../../leaderboard/queries.js";
import { rankedTrack, trackFingerprint } from "../../src/report/index.js";
import { TRACK_TASKS, trackFixtureFiles } from "../fixtures/leaderboard-track.js";

/**
 * The leaderboard queries, run by DuckDB the way AgentBeats runs them: over a view `results` =
 * read_json_auto of a results folder. The fixtures hold a run in one shard, a run in four shards
 * of unequal size (one file, four result objects) of the same total, an agent's second and worse
 * run, an incomplete sharded run, and files in the older layouts 1.0.0 and 2.0.0; none carries the
 * ranking keys, so the tests that rank them mark them ranked first (`asRanked`). The track fixture
 * set (tests/fixtures/leaderboard-track.ts) is made by buildResults: a ranked run, the shards of
 * one, and each kind of run the leaderboard must not rank.
 */

const FIXTURES = fileURLToPath(new URL("../fixtures/leaderboard/", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "entropic-leaderboard-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Tables = Awaited<ReturnType<typeof runLeaderboard>>;

/** Every query's result over a results folder holding these fixture files (and `extra` documents, by file name). */
async function runQueries(files: string[], extra: Record<string, unknown> = {}): Promise<Tables> {
  const folder = mkdtempSync(join(work, "results-"));
  for (const file of files) copyFileSync(join(FIXTURES, file), join(folder, file));
  for (const [file, document] of Object.entries(extra)) writeFileSync(join(folder, file), JSON.stringify(document));
  return runLeaderboard(folder);
}

/**
 * A fixture file of the 2.1 layout as a ranked run's would be: each result object marked ranked
 * on the leaderboard's track, its `results` holding one entry per task it counts (the fixtures
 * keep a sample of the entries), the shard's own task indices.
 */
function asRanked(file: string): unknown {
  const document = JSON.parse(readFileSync(join(FIXTURES, file), "utf8")) as { results: Record<string, any>[] };
  return {
    ...document,
    results: document.results.map((object) => ({
      ...object,
      ranked: true,
      unranked_reasons: [],
      track_fingerprint: RANKED_FINGERPRINT,
      results: Array.from({ length: object.aggregates.total_tasks }, (_, i) => ({ task_idx: `${object.run.shard_index}-${i}` })),
    })),
  };
}

const ALL = readdirSync(FIXTURES).filter((file) => file.endsWith(".json"));
const LEGACY = ["v1.0.0.json", "v2.0.0.json"];
/** The earliest of the four shards' timestamps: a run's time is when it started, in the queries as in `merge`. */
const SHARDED_RUN_TIME = "2026-05-02 10:01:00";

const NEW = ["new-1shard-older.json", "new-1shard.json", "new-4shards.json", "new-partial.json"];
const rankedDocuments = () => Object.fromEntries(NEW.map((file) => [`ranked-${file}`, asRanked(file)]));
/** A row's values under these columns, in order. */
const pick = (rows: readonly Record<string, unknown>[], columns: readonly string[]) => rows.map((row) => columns.map((title) => row[title]));

describe("the leaderboard queries", () => {
  it("are the four tabs, and queries.json is what leaderboard/queries.ts writes (npm run leaderboard:queries)", () => {
    expect(QUERIES.map((query) => query.name)).toEqual(["Overall Performance", "Entropic Scores", "Original Scores", "All Runs"]);
    expect(readFileSync(QUERIES_FILE, "utf8")).toBe(queriesJson());
    // The fingerprint they rank is this build's ranked track's, written into them.
    expect(RANKED_FINGERPRINT).toBe(trackFingerprint(rankedTrack()));
    for (const { query } of QUERIES.slice(0, 3)) expect(query).toContain(`'${RANKED_FINGERPRINT}'`);
  });

  it("count a four-shard run once, with its summed total, in every tab, from sums and counts rather than averages", async () => {
    expect(ALL.sort()).toEqual(["new-1shard-older.json", "new-1shard.json", "new-4shards.json", "new-partial.json", "v1.0.0.json", "v2.0.0.json"]);
    const tables = await runQueries(LEGACY, rankedDocuments());
    for (const { columns } of Object.values(tables)) expect(columns[0]).toBe("id");

    // Best ranked run per agent. By hand, for the four shards (3 + 1 + 2 + 2 tasks): passed
    // 3 + 0 + 2 + 2 = 7, score sums 290.5 + 0 + 155.25 + 200 = 645.75 over 8 tasks = 80.72. The
    // incomplete run (two shards of four, all passed) and the older layouts are not ranked;
    // agent-solo's worse run is not its best. The chance floor is summed the same way: the shards'
    // zero-work passes 1 + 0 + 1 + 1 = 3 of 8 (37.5%), lift (7 − 3) / (8 − 3) = 80%; agent-solo's
    // 2 of 8 (25%), lift (6 − 2) / (8 − 2) = 66.7%. The 95% CI is Wilson's over the 8 tasks.
    expect(tables["Overall Performance"]!.rows).toEqual([
      {
        id: "agent-sharded",
        "Pass Rate %": 87.5,
        "95% CI": "52.9-97.8",
        "Floor %": 37.5,
        "Lift %": 80,
        "Entropic Score": 80.7,
        Tasks: 8,
        Passed: 7,
        "Robustness (diagnostic)": null,
        "Robustness 95% CI": null,
        "Robustness Flag": null,
        "Run Time": SHARDED_RUN_TIME,
      },
      {
        id: "agent-solo",
        "Pass Rate %": 75,
        "95% CI": "40.9-92.9",
        "Floor %": 25,
        "Lift %": 66.7,
        "Entropic Score": 76.5,
        Tasks: 8,
        Passed: 6,
        "Robustness (diagnostic)": null,
        "Robustness 95% CI": null,
        "Robustness Flag": null,
        "Run Time": "2026-05-03 09:00:00",
      },
    ]);

    // Each dimension is its summed sum over its summed count: FUNCTIONAL (290 + 0 + 130 + 200) / 8,
    // DRIFT_ADAPTATION (100 + 50) / 2 (shards without a drifted episode count 0), TOKEN 769 / 8,
    // QUERY 625 / 8, ERROR_RECOVERY never applied (NULL), TRAJECTORY 600 / 8, HALLUCINATION
    // 640 / 7 = 91.4 (the mean of the shards' averages would be 91.3).
    const entropic = tables["Entropic Scores"]!.rows;
    expect(entropic.map((row) => row.id)).toEqual(["agent-sharded", "agent-solo", "agent-solo"]);
    expect(entropic[0]).toEqual({
      id: "agent-sharded",
      Functional: 77.5,
      "Drift Adapt": 75,
      "Token Eff": 96.1,
      "Query Eff": 78.1,
      "Error Rec": null,
      "Trajectory Eff": 75,
      "No Hallucination": 91.4,
      Tasks: 8,
      "Run Time": SHARDED_RUN_TIME,
    });

    // Original accuracy: (2 + 0 + 2 + 0) passed of (3 + 1 + 2 + 2) scored.
    expect(tables["Original Scores"]!.rows).toEqual([
      { id: "agent-solo", "Accuracy %": 62.5, Passed: 5, Failed: 3, Tasks: 8, "Run Time": "2026-05-03 09:00:00" },
      { id: "agent-sharded", "Accuracy %": 50, Passed: 4, Failed: 4, Tasks: 8, "Run Time": SHARDED_RUN_TIME },
      { id: "agent-solo", "Accuracy %": 37.5, Passed: 3, Failed: 5, Tasks: 8, "Run Time": "2026-05-01 08:00:00" },
    ]);

    // Every run, newest first, the older layouts included, each unranked one with why.
    expect(pick(tables["All Runs"]!.rows, ["id", "Ranked", "Why Not Ranked", "Pass Rate %", "Floor %", "Lift %", "Entropic Score", "Original %", "Tasks", "Shards"])).toEqual([
      ["agent-solo", "yes", null, 75, 25, 66.7, 76.5, 62.5, 8, "1"],
      // The partial run's floor is NULL: one of its shards records one, the other none.
      ["agent-partial", "no", "2 of 4 shards; 8 of the 16 tasks selected", 100, null, null, 100, 100, 8, "2/4"],
      ["agent-sharded", "yes", null, 87.5, 37.5, 80, 80.7, 50, 8, "4"],
      ["agent-solo", "yes", null, 50, null, null, 65, 37.5, 8, "1"],
      ["agent-v2", "no", "results without the ranking keys (written before the ranked track)", 62.5, null, null, 70.3, 50, 8, "1"],
      ["agent-v1", "no", "results without the ranking keys (written before the ranked track)", 20, null, null, 56.5, null, 5, "1"],
    ]);
  });

  it("rank no run written before the ranking keys, and list every one in All Runs with why", async () => {
    const tables = await runQueries(ALL);
    for (const name of ["Overall Performance", "Entropic Scores", "Original Scores"]) expect(tables[name]!.rows, name).toEqual([]);
    expect(pick(tables["All Runs"]!.rows, ["id", "Ranked", "Tasks", "Shards", "Run Time"])).toEqual([
      ["agent-solo", "no", 8, "1", "2026-05-03 09:00:00"],
      ["agent-partial", "no", 8, "2/4", "2026-05-02 12:00:00"],
      ["agent-sharded", "no", 8, "4", SHARDED_RUN_TIME],
      ["agent-solo", "no", 8, "1", "2026-05-01 08:00:00"],
      ["agent-v2", "no", 8, "1", "2026-03-01 13:43:12.026212"],
      ["agent-v1", "no", 5, "1", "2026-01-09 11:44:29.545791"],
    ]);
    for (const row of tables["All Runs"]!.rows) expect(row["Why Not Ranked"]).toMatch(/^results without the ranking keys/);
  });

  it("give a run whose floor is every task a floor of 100% and no lift, and a run below its floor a negative lift", async () => {
    const run = (agent: string, runId: string, passed: number, floorPassed: number) => ({
      participants: { agent },
      results: [
        {
          summary: { pass_rate: passed / 4, total_tasks: 4, total_passed: passed, avg_score: 25 * passed },
          timestamp: "2026-06-01T10:00:00.000000",
          ranked: true,
          unranked_reasons: [],
          track_fingerprint: RANKED_FINGERPRINT,
          results: [0, 1, 2, 3].map((idx) => ({ task_idx: String(idx) })),
          run: { id: runId, shard_index: 0, num_shards: 1, selection: { mode: "all", size: 4 } },
          aggregates: { total_tasks: 4, passed, scored: 4, score_sum: 25 * passed, dimensions: {}, original: { scored: 4, passed }, floor_passed: floorPassed },
        },
      ],
    });
    const tables = await runQueries([], { "refuser.json": run("agent-refuser", "run-r", 4, 4), "guesser.json": run("agent-guesser", "run-g", 1, 2) });
    expect(pick(tables["Overall Performance"]!.rows, ["id", "Pass Rate %", "Floor %", "Lift %"])).toEqual([
      ["agent-refuser", 100, 100, null],
      // (1 − 2) / (4 − 2) = −50%
      ["agent-guesser", 25, 50, -50],
    ]);
  });

  it("leave an incomplete sharded run out of the ranked tabs even when it holds the most tasks", async () => {
    const tables = await runQueries(["v1.0.0.json"], { "partial.json": asRanked("new-partial.json"), "solo.json": asRanked("new-1shard.json") });
    expect(tables["Overall Performance"]!.rows.map((row) => row.id)).toEqual(["agent-solo"]);
    expect(pick(tables["All Runs"]!.rows, ["id", "Ranked", "Shards"])).toEqual([
      ["agent-solo", "yes", "1"],
      ["agent-partial", "no", "2/4"],
      ["agent-v1", "no", "1"],
    ]);
  });
});

describe("the leaderboard over the track fixture set (results made by buildResults)", () => {
  let tables: Tables;
  it("ranks exactly the ranked runs: the default run and the two shards of one run, added up", async () => {
    const folder = mkdtempSync(join(work, "track-"));
    for (const [file, document] of Object.entries(trackFixtureFiles())) writeFileSync(join(folder, file), JSON.stringify(document));
    tables = await runLeaderboard(folder);
    // The tables as the leaderboard shows them (npm run leaderboard:queries -- <folder> prints the same).
    console.log(
      Object.entries(tables)
        .map(([name, table]) => tableText(name, table))
        .join("\n\n"),
    );

    // The two shards (30 tasks each, one submitted twice) are one run of 60 tasks, 51 passed; the
    // honest run 39 of 60. The lookup run (60 of 60), the trials run, the weights run and the
    // 44-task sample (44 of 44) are not ranked, whatever their pass rate or episode count.
    expect(pick(tables["Overall Performance"]!.rows, ["id", "Pass Rate %", "95% CI", "Tasks", "Passed"])).toEqual([
      ["agent-sharded", 85, "73.9-91.9", TRACK_TASKS, 51],
      ["agent-honest", 65, "52.4-75.8", TRACK_TASKS, 39],
    ]);
    expect(tables["Entropic Scores"]!.rows.map((row) => [row.id, row.Functional, row.Tasks])).toEqual([
      ["agent-sharded", 85, TRACK_TASKS],
      ["agent-honest", 65, TRACK_TASKS],
    ]);
    expect(tables["Original Scores"]!.rows.map((row) => [row.id, row["Accuracy %"], row.Tasks])).toEqual([
      ["agent-sharded", 85, TRACK_TASKS],
      ["agent-honest", 65, TRACK_TASKS],
    ]);
  });

  it("shows a paired run's robustness beside its agent's ranked run, flagged when the clean rate is the lower, never as a ranking key", () => {
    // The honest agent's paired run failed 50 of its 60 clean episodes (10 clean passes against 39
    // perturbed): a ratio of 3.9, flagged; the row keeps its place from its pass rate.
    const honest = tables["Overall Performance"]!.rows.find((row) => row.id === "agent-honest")!;
    expect(honest).toMatchObject({ "Robustness (diagnostic)": 3.9, "Robustness Flag": "clean_below_perturbed" });
    expect(honest["Robustness 95% CI"]).toMatch(/^\d+(\.\d+)?-\d+(\.\d+)?$/);
    expect(tables["Overall Performance"]!.rows.map((row) => row.id)).toEqual(["agent-sharded", "agent-honest"]);
  });

  it("lists every run in All Runs with its tasks (not episodes) and why it is not ranked", () => {
    const rows = pick(tables["All Runs"]!.rows, ["id", "Ranked", "Tasks", "Episodes", "Shards"]);
    expect(rows).toEqual([
      ["agent-honest", "no", 60, 60, "1"],
      ["agent-sharded", "yes", 60, 60, "2"],
      ["agent-honest", "yes", 60, 60, "1"],
      ["agent-lookup", "no", 60, 60, "1"],
      ["agent-sample44", "no", 44, 44, "1"],
      ["agent-trials", "no", 60, 180, "1"],
      ["agent-weights", "no", 60, 60, "1"],
    ]);
    const why = Object.fromEntries(tables["All Runs"]!.rows.filter((row) => row.Ranked === "no").map((row) => [row.id, row["Why Not Ranked"] as string]));
    expect(why["agent-honest"]).toMatch(/^paired: a diagnostic mode/);
    expect(why["agent-lookup"]).toMatch(/^remap_ids off: .*; track trk-[0-9a-f]{16}, not the leaderboard's$/);
    expect(why["agent-sample44"]).toMatch(/^a partial task set \(task_limit, 44 tasks\)/);
    expect(why["agent-trials"]).toBe("trials 3: the ranked track runs each task once");
    expect(why["agent-weights"]).toMatch(/^custom weights: .*; track trk-[0-9a-f]{16}, not the leaderboard's$/);
  });

  it("rank a sharded run only when every shard is there", async () => {
    const files = trackFixtureFiles();
    const folder = mkdtempSync(join(work, "track-"));
    writeFileSync(join(folder, "sharded-0.json"), JSON.stringify(files["sharded-0.json"]));
    writeFileSync(join(folder, "honest.json"), JSON.stringify(files["honest.json"]));
    const partial = await runLeaderboard(folder);
    expect(partial["Overall Performance"]!.rows.map((row) => row.id)).toEqual(["agent-honest"]);
    expect(pick(partial["All Runs"]!.rows, ["id", "Ranked", "Why Not Ranked", "Tasks"])).toEqual([
      ["agent-sharded", "no", "1 of 2 shards; 30 of the 60 tasks selected", 30],
      ["agent-honest", "yes", null, 60],
    ]);
  });
});
