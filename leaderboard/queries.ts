/**
 * The leaderboard queries AgentBeats runs over the leaderboard repository's results, written to
 * leaderboard/queries.json (`npm run leaderboard:queries`), which is what gets pasted into the
 * green agent's page on agentbeats.dev. `npm run leaderboard:queries -- <results folder>` runs
 * them there with DuckDB and prints each tab instead.
 *
 * AgentBeats reads every results/*.json with DuckDB (`read_json_auto('results/*.json') AS
 * results`: one row per file, columns `participants` and `results`). A file's `results` is a list
 * of result objects: one for a run of the compose flow, one per shard for a sharded Amber run.
 *
 * Runs. The objects of one agent that share `run.id` and `track_fingerprint` are ONE run, in one
 * file or several (a shard submitted twice counts once), added up from their `aggregates` (sums
 * and counts, never averages of averages); older objects (layouts 1.0.0 and 2.0.0, no `run`) are
 * read through `summary`, `dimension_averages` and `original`, the objects of one file without
 * `run.id` forming one run. A run's Tasks are its distinct tasks (`results[*].task_idx`), not its
 * episodes: a run with trials or a clean twin has more episodes than tasks.
 *
 * Ranking. The first three tabs rank only the runs the green agent marked `ranked` (one plain pass
 * over all the ranked track's tasks: src/report/track.ts) whose `track_fingerprint` is the
 * leaderboard's (RANKED_FINGERPRINT below, from this build's ranked track) and that are whole:
 * every shard there, the distinct tasks the selection's size, one episode each (shards disjoint).
 * Nothing else decides who is ranked: no run's task count hides another's. Every other run is in
 * All Runs with why it is not ranked (the green's reasons, then the leaderboard's: another track,
 * missing shards, missing or overlapping tasks).
 *
 * The chance floor (`aggregates.floor_passed`: the tasks a zero-work purple passes, on the same
 * tasks) is added up the same way, and is NULL for a run when any of its objects lacks it (older
 * layouts, logs written before the floor): a partial sum would understate it. The lift over it,
 * (pass − floor) / (1 − floor), is (passed − floor_passed) / (tasks − floor_passed) from the sums;
 * NULL where the floor is every task. A ranked run's 95% CI is the Wilson interval of its pass
 * rate over its tasks; a run with trials shows pass@1's bootstrap interval (`trials.interval`),
 * which only a run of one results object has (`entropic-crmarena merge` makes one of shards).
 *
 * Robustness (perturbed over clean pass rate, from a paired run's `robustness.clean` and
 * `robustness.perturbed` counts) is a diagnostic, never a ranking key: a paired run is not ranked
 * (its clean episode of a task has the same answer as its perturbed one), and Overall Performance
 * shows beside each ranked agent the robustness of its latest whole paired run on the leaderboard's
 * fingerprint, with its interval and the flag `clean_below_perturbed` where the clean rate is the
 * lower (a purple failing clean on purpose raises the ratio: it is said, not rewarded).
 *
 * Every value is read with DuckDB's JSON functions from `to_json(...)` of the inferred columns,
 * so the queries bind whatever keys the files hold: a key no file has (say `aggregates` while
 * every result is older) is NULL instead of a binder error, and so is a key that schema
 * inference did not sample.
 */
import { readdirSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { DuckDBInstance } from "@duckdb/node-api";
import { rankedTrackFingerprint } from "../src/report/index.js";
import { type DimensionSpec, dimensionSpecs } from "../src/scoring/index.js";

/** The registered dimensions and their column titles (src/scoring/dimensions/). */
const dimensionColumns = (specs: readonly DimensionSpec[]) => specs.map((spec) => [spec.name, spec.columns.leaderboard] as const);

const number = (path: string) => `TRY_CAST(json_extract(o, '${path}') AS DOUBLE)`;
const text = (path: string) => `json_extract_string(o, '${path}')`;
const column = (dimension: string) => dimension.toLowerCase();
/** An SQL string literal. */
const literal = (value: string) => `'${value.replace(/'/g, "''")}'`;

/** One line of SQL: the JSON stays readable and the UI shows it in one piece. */
const oneLine = (sql: string) => sql.replace(/\s+/g, " ").replace(/\( /g, "(").replace(/ \)/g, ")").trim();

/** The fingerprint the leaderboard ranks: this build's ranked track (src/report/track.ts). */
export const RANKED_FINGERPRINT = rankedTrackFingerprint();

/** The four tabs' queries, with a column per dimension of `specs`, ranking the runs of `fingerprint`. */
export function leaderboardQueries(specs: readonly DimensionSpec[] = dimensionSpecs(), fingerprint: string = RANKED_FINGERPRINT): { name: string; query: string }[] {
  const dimensions = dimensionColumns(specs);
  const FINGERPRINT = literal(fingerprint);
  /**
   * One row per run: id, run_key, fingerprint, the summed counts, the rates and averages, its
   * distinct tasks, its time (when its first shard started, as `entropic-crmarena merge` keeps
   * it), its shards, whether it is whole and ranked, and why not.
   */
  const RUNS = `
  WITH files AS (
    SELECT ROW_NUMBER() OVER () AS file_no,
      json_extract_string(to_json(r.participants), '$.agent') AS id,
      to_json(r.results) AS objects
    FROM results AS r
  ),
  objects AS (
    SELECT file_no, id, UNNEST(json_extract(objects, '$[*]')) AS o FROM files
  ),
  numbered AS (
    SELECT *, ROW_NUMBER() OVER (ORDER BY file_no) AS object_no FROM objects
  ),
  all_shards AS (
    SELECT file_no, object_no, id,
      COALESCE(${text("$.run.id")}, 'file ' || file_no) AS run_key,
      ${text("$.track_fingerprint")} AS fingerprint,
      ${text("$.ranked")} AS ranked,
      ${text("$.unranked_reasons[*]")} AS reasons,
      ${text("$.results[*].task_idx")} AS task_idxs,
      TRY_CAST(json_extract(o, '$.run.selection.size') AS BIGINT) AS selection_size,
      ${text("$.config.paired")} = 'true' AS paired,
      TRY_CAST(json_extract(o, '$.run.shard_index') AS BIGINT) AS shard_index,
      TRY_CAST(json_extract(o, '$.run.num_shards') AS BIGINT) AS num_shards,
      TRY_CAST(${text("$.timestamp")} AS TIMESTAMP) AS run_time,
      COALESCE(${number("$.aggregates.total_tasks")}, ${number("$.summary.total_tasks")}) AS total_tasks,
      COALESCE(${number("$.aggregates.passed")}, ${number("$.summary.total_passed")}) AS passed,
      COALESCE(${number("$.aggregates.score_sum")}, ${number("$.summary.avg_score")} * ${number("$.summary.total_tasks")}) AS score_sum,
      ${dimensions
        .map(
          ([dimension]) => `
      COALESCE(${number(`$.aggregates.dimensions.${dimension}.sum`)}, ${number(`$.dimension_averages.${dimension}`)} * ${number("$.summary.total_tasks")}) AS ${column(dimension)}_sum,
      COALESCE(${number(`$.aggregates.dimensions.${dimension}.count`)}, CASE WHEN ${number(`$.dimension_averages.${dimension}`)} IS NOT NULL THEN ${number("$.summary.total_tasks")} END) AS ${column(dimension)}_count`,
        )
        .join(",")},
      COALESCE(${number("$.aggregates.original.scored")}, ${number("$.original.summary.total_tasks")}) AS original_scored,
      COALESCE(${number("$.aggregates.original.passed")}, ${number("$.original.summary.passed")}) AS original_passed,
      COALESCE(${number("$.aggregates.floor_passed")}, ${number("$.summary.floor_passed")}) AS floor_passed,
      ${number("$.trials.k")} AS trials,
      CASE WHEN ${number("$.trials.k")} IS NOT NULL THEN len(json_extract(o, '$.aggregates.tasks[*]')) END AS trial_tasks,
      CASE WHEN ${number("$.trials.k")} IS NOT NULL THEN len(list_filter(json_extract(o, '$.aggregates.tasks[*]'), t -> TRY_CAST(json_extract(t, '$.passed') AS BIGINT) = TRY_CAST(json_extract(t, '$.trials') AS BIGINT))) END AS all_trials_passed,
      ${number(`$.trials.interval."1"[0]`)} AS ci_low,
      ${number(`$.trials.interval."1"[1]`)} AS ci_high,
      ${number("$.robustness.clean.passed")} AS clean_passed,
      ${number("$.robustness.clean.episodes")} AS clean_episodes,
      ${number("$.robustness.perturbed.passed")} AS perturbed_passed,
      ${number("$.robustness.perturbed.episodes")} AS perturbed_episodes,
      ${number("$.robustness.ratio_interval[0]")} AS robustness_low,
      ${number("$.robustness.ratio_interval[1]")} AS robustness_high
    FROM numbered
  ),
  shards AS (
    SELECT * FROM all_shards
    QUALIFY ROW_NUMBER() OVER (PARTITION BY id, run_key, COALESCE(fingerprint, ''), COALESCE(shard_index, -object_no) ORDER BY object_no) = 1
  ),
  run_tasks AS (
    SELECT id, run_key, fingerprint, COUNT(DISTINCT task_idx) AS distinct_tasks
    FROM (SELECT id, run_key, fingerprint, UNNEST(task_idxs) AS task_idx FROM shards)
    GROUP BY ALL
  ),
  sums AS (
    SELECT id, run_key, fingerprint,
      COUNT(fingerprint) = COUNT(*) AS has_keys,
      COUNT(ranked) = COUNT(*) AND BOOL_AND(ranked = 'true') AS marked_ranked,
      array_to_string(list_sort(list_distinct(flatten(list(reasons)))), '; ') AS green_reasons,
      BOOL_OR(paired) AS paired,
      MAX(selection_size) AS selection_size,
      CAST(SUM(total_tasks) AS INTEGER) AS episodes,
      CAST(SUM(passed) AS INTEGER) AS passed,
      SUM(passed) / NULLIF(SUM(total_tasks), 0) AS pass_rate,
      SUM(score_sum) / NULLIF(SUM(total_tasks), 0) AS avg_score,
      ${dimensions.map(([dimension]) => `SUM(${column(dimension)}_sum) / NULLIF(SUM(${column(dimension)}_count), 0) AS ${column(dimension)}`).join(",\n    ")},
      CAST(SUM(original_scored) AS INTEGER) AS original_scored,
      CAST(SUM(original_passed) AS INTEGER) AS original_passed,
      SUM(original_passed) / NULLIF(SUM(original_scored), 0) AS original_accuracy,
      CASE WHEN COUNT(floor_passed) = COUNT(*) THEN CAST(SUM(floor_passed) AS INTEGER) END AS floor_passed,
      CASE WHEN COUNT(floor_passed) = COUNT(*) THEN SUM(floor_passed) / NULLIF(SUM(total_tasks), 0) END AS floor,
      CASE WHEN COUNT(floor_passed) = COUNT(*) THEN (SUM(passed) - SUM(floor_passed)) / NULLIF(SUM(total_tasks) - SUM(floor_passed), 0) END AS lift,
      CAST(MAX(trials) AS INTEGER) AS trials,
      CASE WHEN COUNT(trials) = COUNT(*) THEN CAST(SUM(trial_tasks) AS INTEGER) END AS trial_tasks,
      CASE WHEN COUNT(trials) = COUNT(*) THEN SUM(all_trials_passed) / NULLIF(SUM(trial_tasks), 0) END AS pass_hat_k,
      CASE WHEN COUNT(*) = 1 THEN MIN(ci_low) END AS ci_low,
      CASE WHEN COUNT(*) = 1 THEN MIN(ci_high) END AS ci_high,
      CASE WHEN COUNT(clean_episodes) = COUNT(*) THEN SUM(clean_passed) / NULLIF(SUM(clean_episodes), 0) END AS clean_rate,
      CASE WHEN COUNT(clean_episodes) = COUNT(*) THEN SUM(perturbed_passed) / NULLIF(SUM(perturbed_episodes), 0) END AS perturbed_rate,
      CASE WHEN COUNT(*) = 1 THEN MIN(robustness_low) END AS robustness_low,
      CASE WHEN COUNT(*) = 1 THEN MIN(robustness_high) END AS robustness_high,
      MIN(run_time) AS run_time,
      CAST(COUNT(*) AS INTEGER) AS shards,
      CAST(MAX(num_shards) AS INTEGER) AS num_shards,
      MAX(num_shards) IS NULL OR (COUNT(*) = MAX(num_shards) AND COUNT(DISTINCT shard_index) = MAX(num_shards)) AS complete
    FROM shards
    GROUP BY id, run_key, fingerprint
  ),
  runs AS (
    SELECT s.*,
      CAST(CASE WHEN has_keys THEN t.distinct_tasks WHEN trial_tasks IS NOT NULL THEN trial_tasks ELSE episodes END AS INTEGER) AS tasks,
      perturbed_rate / NULLIF(clean_rate, 0) AS robustness,
      CASE WHEN clean_rate < perturbed_rate THEN 'clean_below_perturbed' END AS robustness_flag
    FROM sums AS s LEFT JOIN run_tasks AS t ON s.id = t.id AND s.run_key = t.run_key AND s.fingerprint IS NOT DISTINCT FROM t.fingerprint
  ),
  judged AS (
    SELECT *,
      marked_ranked AND fingerprint = ${FINGERPRINT} AND complete AND tasks = selection_size AND episodes = tasks AS ranked,
      NULLIF(concat_ws('; ',
        NULLIF(green_reasons, ''),
        CASE WHEN NOT has_keys THEN 'results without the ranking keys (written before the ranked track)' END,
        CASE WHEN has_keys AND fingerprint <> ${FINGERPRINT} THEN 'track ' || fingerprint || ', not the leaderboard''s' END,
        CASE WHEN NOT complete THEN shards || ' of ' || num_shards || ' shards' END,
        CASE WHEN has_keys AND tasks <> selection_size THEN tasks || ' of the ' || selection_size || ' tasks selected' END,
        CASE WHEN has_keys AND episodes > tasks AND trials IS NULL AND NOT paired THEN 'shards overlap: ' || episodes || ' episodes of ' || tasks || ' tasks' END
      ), '') AS why_not
    FROM runs
  ),
  ranked_runs AS (SELECT * FROM judged WHERE ranked),
  diagnostics AS (
    SELECT id, robustness, robustness_low, robustness_high, robustness_flag FROM judged
    WHERE paired AND complete AND fingerprint = ${FINGERPRINT} AND robustness IS NOT NULL
    QUALIFY ROW_NUMBER() OVER (PARTITION BY id ORDER BY run_time DESC NULLS LAST, run_key) = 1
  )`;

  /** pass@1's 95% interval in percent, "low-high": the trials' bootstrap when the run has one (one object), else Wilson's over its tasks (single-trial runs). */
  const INTERVAL = `CASE WHEN ci_low IS NOT NULL THEN ROUND(ci_low * 100, 1) || '-' || ROUND(ci_high * 100, 1)
    WHEN trials IS NULL AND episodes > 0 THEN ROUND(100 * GREATEST(0, (pass_rate + 1.9208 / episodes - 1.96 * sqrt(pass_rate * (1 - pass_rate) / episodes + 0.9604 / (episodes * episodes))) / (1 + 3.8416 / episodes)), 1)
      || '-' || ROUND(100 * LEAST(1, (pass_rate + 1.9208 / episodes + 1.96 * sqrt(pass_rate * (1 - pass_rate) / episodes + 0.9604 / (episodes * episodes))) / (1 + 3.8416 / episodes)), 1) END`;
  const ROBUSTNESS_INTERVAL = (table: string) =>
    `CASE WHEN ${table}.robustness_low IS NOT NULL THEN ROUND(${table}.robustness_low, 3) || '-' || ROUND(${table}.robustness_high, 3) END`;

  const OVERALL = `
  SELECT r.id, ROUND(r.pass_rate * 100, 1) AS "Pass Rate %", ${INTERVAL.replace(/\b(ci_low|ci_high|trials|episodes|pass_rate)\b/g, "r.$1")} AS "95% CI", ROUND(r.floor * 100, 1) AS "Floor %", ROUND(r.lift * 100, 1) AS "Lift %", ROUND(r.avg_score, 1) AS "Entropic Score", r.tasks AS "Tasks", r.passed AS "Passed",
    ROUND(d.robustness, 3) AS "Robustness (diagnostic)", ${ROBUSTNESS_INTERVAL("d")} AS "Robustness 95% CI", d.robustness_flag AS "Robustness Flag", r.run_time AS "Run Time"
  FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id ORDER BY pass_rate DESC, avg_score DESC, run_time DESC) AS best FROM ranked_runs) AS r
  LEFT JOIN diagnostics AS d ON d.id = r.id
  WHERE r.best = 1
  ORDER BY r.pass_rate DESC, r.avg_score DESC, r.id`;

  const ENTROPIC = `
  SELECT id, ${dimensions.map(([dimension, title]) => `ROUND(${column(dimension)}, 1) AS "${title}"`).join(", ")}, tasks AS "Tasks", run_time AS "Run Time"
  FROM ranked_runs
  ORDER BY functional DESC NULLS LAST, avg_score DESC, id`;

  const ORIGINAL = `
  SELECT id, ROUND(original_accuracy * 100, 1) AS "Accuracy %", original_passed AS "Passed", original_scored - original_passed AS "Failed", COALESCE(original_scored, tasks) AS "Tasks", run_time AS "Run Time"
  FROM ranked_runs
  ORDER BY original_accuracy DESC NULLS LAST, id`;

  const ALL_RUNS = `
  SELECT id, CASE WHEN ranked THEN 'yes' ELSE 'no' END AS "Ranked", why_not AS "Why Not Ranked", ROUND(pass_rate * 100, 1) AS "Pass Rate %", ${INTERVAL} AS "95% CI", ROUND(floor * 100, 1) AS "Floor %", ROUND(lift * 100, 1) AS "Lift %", ROUND(avg_score, 1) AS "Entropic Score", ROUND(original_accuracy * 100, 1) AS "Original %", trials AS "Trials", ROUND(pass_hat_k * 100, 1) AS "Pass^k %", ROUND(robustness, 3) AS "Robustness", robustness_flag AS "Robustness Flag", tasks AS "Tasks", episodes AS "Episodes",
    CASE WHEN complete THEN CAST(COALESCE(num_shards, 1) AS VARCHAR) ELSE shards || '/' || num_shards END AS "Shards", fingerprint AS "Track", run_time AS "Run Time"
  FROM judged
  ORDER BY run_time DESC NULLS LAST, id, run_key`;

  return [
    { name: "Overall Performance", query: oneLine(RUNS + OVERALL) },
    { name: "Entropic Scores", query: oneLine(RUNS + ENTROPIC) },
    { name: "Original Scores", query: oneLine(RUNS + ORIGINAL) },
    { name: "All Runs", query: oneLine(RUNS + ALL_RUNS) },
  ];
}

export const QUERIES = leaderboardQueries();

export const QUERIES_FILE = fileURLToPath(new URL("./queries.json", import.meta.url));
export const queriesJson = () => `${JSON.stringify(QUERIES, null, 2)}\n`;

export type Row = Record<string, unknown>;
export type Tables = Record<string, { columns: string[]; rows: Row[] }>;

/** Every query's result over a results folder (its *.json), run by DuckDB as AgentBeats runs them. */
export async function runLeaderboard(folder: string, queries: readonly { name: string; query: string }[] = QUERIES): Promise<Tables> {
  const connection = await (await DuckDBInstance.create(":memory:")).connect();
  try {
    await connection.run(`CREATE VIEW results AS SELECT * FROM read_json_auto(${literal(join(resolve(folder), "*.json"))})`);
    const tables: Tables = {};
    for (const { name, query } of queries) {
      const reader = await connection.runAndReadAll(query);
      tables[name] = { columns: reader.columnNames(), rows: reader.getRowObjectsJson() as Row[] };
    }
    return tables;
  } finally {
    connection.closeSync();
  }
}

/** A tab as a plain-text table: a header line, a rule, a line per row (NULL as an empty cell). */
export function tableText(name: string, table: Tables[string]): string {
  const cell = (value: unknown) => (value === null || value === undefined ? "" : String(value));
  const widths = table.columns.map((title) => Math.max(title.length, ...table.rows.map((row) => cell(row[title]).length)));
  const line = (cells: string[]) =>
    cells
      .map((value, i) => value.padEnd(widths[i]!))
      .join(" | ")
      .trimEnd();
  return [
    `## ${name} (${table.rows.length} ${table.rows.length === 1 ? "row" : "rows"})`,
    line(table.columns),
    widths.map((width) => "-".repeat(width)).join("-|-"),
    ...table.rows.map((row) => line(table.columns.map((title) => cell(row[title])))),
  ].join("\n");
}

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  const folder = process.argv[2];
  if (folder) {
    if (!readdirSync(folder).some((file) => file.endsWith(".json"))) throw new Error(`${folder} holds no results *.json`);
    const tables = await runLeaderboard(folder);
    process.stdout.write(
      `Leaderboard over ${resolve(folder)} (ranked track ${RANKED_FINGERPRINT})\n\n${Object.entries(tables)
        .map(([name, table]) => tableText(name, table))
        .join("\n\n")}\n`,
    );
  } else {
    writeFileSync(QUERIES_FILE, queriesJson());
    process.stdout.write(`Wrote ${QUERIES.length} queries to ${QUERIES_FILE} (ranked track ${RANKED_FINGERPRINT})\n`);
  }
}
