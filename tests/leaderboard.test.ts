import { copyFileSync, mkdtempSync, readdirSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { DuckDBInstance } from "@duckdb/node-api";
import { afterAll, describe, expect, it } from "vitest";
import { QUERIES, QUERIES_FILE, queriesJson } from "../leaderboard/queries.js";

/**
 * The leaderboard queries, run by DuckDB the way AgentBeats runs them: over a view `results` =
 * read_json_auto of a results folder. The fixtures hold a run in one shard, a run in four shards
 * of unequal size (one file, four result objects) of the same total, an agent's second and worse
 * run, an incomplete sharded run, and files in the older layouts 1.0.0 and 2.0.0.
 */

const FIXTURES = fileURLToPath(new URL("./fixtures/leaderboard/", import.meta.url));
const work = mkdtempSync(join(tmpdir(), "entropic-leaderboard-"));
afterAll(() => rmSync(work, { recursive: true, force: true }));

type Row = Record<string, unknown>;
type Tables = Record<string, { columns: string[]; rows: Row[] }>;

/** Every query's result over a results folder holding these fixture files (and `extra` documents, by file name). */
async function runQueries(files: string[], extra: Record<string, unknown> = {}): Promise<Tables> {
  const folder = mkdtempSync(join(work, "results-"));
  for (const file of files) copyFileSync(join(FIXTURES, file), join(folder, file));
  for (const [file, document] of Object.entries(extra)) writeFileSync(join(folder, file), JSON.stringify(document));
  const connection = await (await DuckDBInstance.create(":memory:")).connect();
  try {
    await connection.run(`CREATE VIEW results AS SELECT * FROM read_json_auto('${join(folder, "*.json")}')`);
    const tables: Tables = {};
    for (const { name, query } of QUERIES) {
      const reader = await connection.runAndReadAll(query);
      tables[name] = { columns: reader.columnNames(), rows: reader.getRowObjectsJson() as Row[] };
    }
    return tables;
  } finally {
    connection.closeSync();
  }
}

const ALL = readdirSync(FIXTURES).filter((file) => file.endsWith(".json"));
const LEGACY = ["v1.0.0.json", "v2.0.0.json"];
/** The earliest of the four shards' timestamps: a run's time is when it started, in the queries as in `merge`. */
const SHARDED_RUN_TIME = "2026-05-02 10:01:00";

describe("the leaderboard queries", () => {
  it("are the four tabs, and queries.json is what leaderboard/queries.ts writes (npm run leaderboard:queries)", () => {
    expect(QUERIES.map((query) => query.name)).toEqual(["Overall Performance", "Entropic Scores", "Original Scores", "All Runs"]);
    expect(readFileSync(QUERIES_FILE, "utf8")).toBe(queriesJson());
  });

  it("count a four-shard run once, with its summed total, in every tab, from sums and counts rather than averages", async () => {
    expect(ALL.sort()).toEqual(["new-1shard-older.json", "new-1shard.json", "new-4shards.json", "new-partial.json", "v1.0.0.json", "v2.0.0.json"]);
    const tables = await runQueries(ALL);
    for (const { columns } of Object.values(tables)) expect(columns[0]).toBe("id");

    // Best run per agent among the complete runs of the largest total (8 tasks). By hand, for the
    // four shards (3 + 1 + 2 + 2 tasks): passed 3 + 0 + 2 + 2 = 7, score sums 290.5 + 0 + 155.25 +
    // 200 = 645.75 over 8 tasks = 80.72. The incomplete run (two shards of four, 8 tasks, all
    // passed) and the 5-task 1.0.0 run are left out; agent-solo's worse run too.
    // The chance floor is summed the same way: the shards' zero-work passes 1 + 0 + 1 + 1 = 3 of 8
    // (37.5%), lift (7 − 3) / (8 − 3) = 80%; agent-solo's 2 of 8 (25%), lift (6 − 2) / (8 − 2) =
    // 66.7%. The 2.0.0 file has no floor: NULL, never 0.
    expect(tables["Overall Performance"]!.rows).toEqual([
      {
        id: "agent-sharded",
        "Pass Rate %": 87.5,
        "95% CI": null,
        Trials: null,
        "Pass^k %": null,
        Robustness: null,
        "Floor %": 37.5,
        "Lift %": 80,
        "Entropic Score": 80.7,
        Tasks: 8,
        Passed: 7,
        "Run Time": SHARDED_RUN_TIME,
      },
      {
        id: "agent-solo",
        "Pass Rate %": 75,
        "95% CI": null,
        Trials: null,
        "Pass^k %": null,
        Robustness: null,
        "Floor %": 25,
        "Lift %": 66.7,
        "Entropic Score": 76.5,
        Tasks: 8,
        Passed: 6,
        "Run Time": "2026-05-03 09:00:00",
      },
      {
        id: "agent-v2",
        "Pass Rate %": 62.5,
        "95% CI": null,
        Trials: null,
        "Pass^k %": null,
        Robustness: null,
        "Floor %": null,
        "Lift %": null,
        "Entropic Score": 70.3,
        Tasks: 8,
        Passed: 5,
        "Run Time": "2026-03-01 13:43:12.026212",
      },
    ]);
    expect(tables["Overall Performance"]!.columns).toEqual([
      "id",
      "Pass Rate %",
      "95% CI",
      "Floor %",
      "Lift %",
      "Entropic Score",
      "Trials",
      "Pass^k %",
      "Robustness",
      "Tasks",
      "Passed",
      "Run Time",
    ]);

    // Each dimension is its summed sum over its summed count: FUNCTIONAL (290 + 0 + 130 + 200) / 8,
    // DRIFT_ADAPTATION (100 + 50) / 2 (shards without a drifted episode count 0), TOKEN 769 / 8,
    // QUERY 625 / 8, ERROR_RECOVERY never applied (NULL), TRAJECTORY 600 / 8, HALLUCINATION
    // 640 / 7 = 91.4 (the mean of the shards' averages would be 91.3).
    const entropic = tables["Entropic Scores"]!.rows;
    expect(entropic.map((row) => row.id)).toEqual(["agent-sharded", "agent-solo", "agent-solo", "agent-v2"]);
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
    expect(entropic[3]).toEqual({
      id: "agent-v2",
      Functional: 65,
      "Drift Adapt": 50,
      "Token Eff": 99.5,
      "Query Eff": 99.4,
      "Error Rec": 65,
      "Trajectory Eff": 100,
      "No Hallucination": 80,
      Tasks: 8,
      "Run Time": "2026-03-01 13:43:12.026212",
    });

    // Original accuracy: (2 + 0 + 2 + 0) passed of (3 + 1 + 2 + 2) scored.
    expect(tables["Original Scores"]!.rows).toEqual([
      { id: "agent-solo", "Accuracy %": 62.5, Passed: 5, Failed: 3, Tasks: 8, "Run Time": "2026-05-03 09:00:00" },
      { id: "agent-sharded", "Accuracy %": 50, Passed: 4, Failed: 4, Tasks: 8, "Run Time": SHARDED_RUN_TIME },
      { id: "agent-v2", "Accuracy %": 50, Passed: 4, Failed: 4, Tasks: 8, "Run Time": "2026-03-01 13:43:12.026212" },
      { id: "agent-solo", "Accuracy %": 37.5, Passed: 3, Failed: 5, Tasks: 8, "Run Time": "2026-05-01 08:00:00" },
    ]);

    // Every run, newest first (a run's time is its last shard's), the older layouts included. The
    // partial run's floor is NULL: one of its shards records one, the other none.
    expect(tables["All Runs"]!.rows).toEqual([
      {
        id: "agent-solo",
        "Pass Rate %": 75,
        "95% CI": null,
        Trials: null,
        "Pass^k %": null,
        Robustness: null,
        "Floor %": 25,
        "Lift %": 66.7,
        "Entropic Score": 76.5,
        "Original %": 62.5,
        Tasks: 8,
        Shards: "1",
        "Run Time": "2026-05-03 09:00:00",
      },
      {
        id: "agent-partial",
        "Pass Rate %": 100,
        "95% CI": null,
        Trials: null,
        "Pass^k %": null,
        Robustness: null,
        "Floor %": null,
        "Lift %": null,
        "Entropic Score": 100,
        "Original %": 100,
        Tasks: 8,
        Shards: "2/4",
        "Run Time": "2026-05-02 12:00:00",
      },
      {
        id: "agent-sharded",
        "Pass Rate %": 87.5,
        "95% CI": null,
        Trials: null,
        "Pass^k %": null,
        Robustness: null,
        "Floor %": 37.5,
        "Lift %": 80,
        "Entropic Score": 80.7,
        "Original %": 50,
        Tasks: 8,
        Shards: "4",
        "Run Time": SHARDED_RUN_TIME,
      },
      {
        id: "agent-solo",
        "Pass Rate %": 50,
        "95% CI": null,
        Trials: null,
        "Pass^k %": null,
        Robustness: null,
        "Floor %": null,
        "Lift %": null,
        "Entropic Score": 65,
        "Original %": 37.5,
        Tasks: 8,
        Shards: "1",
        "Run Time": "2026-05-01 08:00:00",
      },
      {
        id: "agent-v2",
        "Pass Rate %": 62.5,
        "95% CI": null,
        Trials: null,
        "Pass^k %": null,
        Robustness: null,
        "Floor %": null,
        "Lift %": null,
        "Entropic Score": 70.3,
        "Original %": 50,
        Tasks: 8,
        Shards: "1",
        "Run Time": "2026-03-01 13:43:12.026212",
      },
      {
        id: "agent-v1",
        "Pass Rate %": 20,
        "95% CI": null,
        Trials: null,
        "Pass^k %": null,
        Robustness: null,
        "Floor %": null,
        "Lift %": null,
        "Entropic Score": 56.5,
        "Original %": null,
        Tasks: 5,
        Shards: "1",
        "Run Time": "2026-01-09 11:44:29.545791",
      },
    ]);
  });

  it("run on results folders where no file has the new keys, or no file has the old layouts", async () => {
    const legacy = await runQueries(LEGACY);
    expect(legacy["Overall Performance"]!.rows).toEqual([
      {
        id: "agent-v2",
        "Pass Rate %": 62.5,
        "95% CI": null,
        Trials: null,
        "Pass^k %": null,
        Robustness: null,
        "Floor %": null,
        "Lift %": null,
        "Entropic Score": 70.3,
        Tasks: 8,
        Passed: 5,
        "Run Time": "2026-03-01 13:43:12.026212",
      },
    ]);
    expect(legacy["All Runs"]!.rows.map((row) => [row.id, row.Tasks, row["Original %"]])).toEqual([
      ["agent-v2", 8, 50],
      ["agent-v1", 5, null],
    ]);
    expect(legacy["Entropic Scores"]!.rows).toHaveLength(1);
    expect(legacy["Original Scores"]!.rows).toHaveLength(1);

    const sharded = await runQueries(["new-4shards.json"]);
    for (const name of ["Overall Performance", "Entropic Scores", "Original Scores", "All Runs"]) {
      expect(
        sharded[name]!.rows.map((row) => [row.id, row.Tasks]),
        name,
      ).toEqual([["agent-sharded", 8]]);
    }
  });

  it("give a run whose floor is every task a floor of 100% and no lift, and a run below its floor a negative lift", async () => {
    const run = (agent: string, runId: string, passed: number, floorPassed: number) => ({
      participants: { agent },
      results: [
        {
          summary: { pass_rate: passed / 4, total_tasks: 4, total_passed: passed, avg_score: 25 * passed },
          timestamp: "2026-06-01T10:00:00.000000",
          run: { id: runId, shard_index: 0, num_shards: 1 },
          aggregates: { total_tasks: 4, passed, scored: 4, score_sum: 25 * passed, dimensions: {}, original: { scored: 4, passed }, floor_passed: floorPassed },
        },
      ],
    });
    const tables = await runQueries([], { "refuser.json": run("agent-refuser", "run-r", 4, 4), "guesser.json": run("agent-guesser", "run-g", 1, 2) });
    expect(tables["Overall Performance"]!.rows.map((row) => [row.id, row["Pass Rate %"], row["Floor %"], row["Lift %"]])).toEqual([
      ["agent-refuser", 100, 100, null],
      // (1 − 2) / (4 − 2) = −50%
      ["agent-guesser", 25, 50, -50],
    ]);
  });

  it("leave an incomplete sharded run out of the main tabs even when it holds the most tasks", async () => {
    const tables = await runQueries(["new-partial.json", "v1.0.0.json"]);
    expect(tables["Overall Performance"]!.rows.map((row) => row.id)).toEqual(["agent-v1"]);
    expect(tables["All Runs"]!.rows.map((row) => [row.id, row.Shards])).toEqual([
      ["agent-partial", "2/4"],
      ["agent-v1", "1"],
    ]);
  });
});
