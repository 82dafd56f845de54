/**
 * The leaderboard queries AgentBeats runs over the leaderboard repository's results, written to
 * leaderboard/queries.json (`npm run leaderboard:queries`), which is what gets pasted into the
 * green agent's page on agentbeats.dev.
 *
 * AgentBeats reads every results/*.json with DuckDB (`read_json_auto('results/*.json') AS
 * results`: one row per file, columns `participants` and `results`). A file's `results` is a list
 * of result objects: one for a run of the compose flow, one per shard for a sharded Amber run.
 * The queries count a file's objects that share `run.id` as ONE run and add them up from their
 * `aggregates` (sums and counts, never averages of averages); older objects (layouts 1.0.0 and
 * 2.0.0, no `run` or `aggregates`) are read through `summary`, `dimension_averages` and
 * `original`, the objects of one file without `run.id` forming one run.
 *
 * The chance floor (`aggregates.floor_passed`: the tasks a zero-work purple passes, on the same
 * tasks) is added up the same way, and is NULL for a run when any of its objects lacks it (older
 * layouts, logs written before the floor): a partial sum would understate it. The lift over it,
 * (pass − floor) / (1 − floor), is (passed − floor_passed) / (tasks − floor_passed) from the sums;
 * NULL where the floor is every task.
 *
 * Runs with trials (`trials.k`) add the trials, pass^k at k = the trials (the share of tasks
 * whose every trial passed, from the per-task counts in `aggregates.tasks`, summed over shards) and
 * pass@1's 95% bootstrap interval (`trials.interval`), which only a run of one results object has:
 * a bootstrap does not add up over shards, so a sharded run shows it once `entropic-crmarena merge`
 * made one object of it. Paired runs add the robustness ratio, perturbed over clean pass rate,
 * from the summed counts of `robustness.clean` and `robustness.perturbed`. Other runs: NULL.
 *
 * Every value is read with DuckDB's JSON functions from `to_json(...)` of the inferred columns,
 * so the queries bind whatever keys the files hold: a key no file has (say `aggregates` while
 * every result is older) is NULL instead of a binder error, and so is a key that schema
 * inference did not sample.
 */
import { writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { type DimensionSpec, dimensionSpecs } from "../src/scoring/index.js";

/** The registered dimensions and their column titles (src/scoring/dimensions/). */
const dimensionColumns = (specs: readonly DimensionSpec[]) => specs.map((spec) => [spec.name, spec.columns.leaderboard] as const);

const number = (path: string) => `TRY_CAST(json_extract(o, '${path}') AS DOUBLE)`;
const column = (dimension: string) => dimension.toLowerCase();

/** One line of SQL: the JSON stays readable and the UI shows it in one piece. */
const oneLine = (sql: string) => sql.replace(/\s+/g, " ").replace(/\( /g, "(").replace(/ \)/g, ")").trim();

/** The four tabs' queries, with a column per dimension of `specs`. */
export function leaderboardQueries(specs: readonly DimensionSpec[] = dimensionSpecs()): { name: string; query: string }[] {
  const dimensions = dimensionColumns(specs);
  /**
   * One row per run: id, file_no, run_id, the summed counts, the rates and averages, its time (when
   * its first shard started, as `entropic-crmarena merge` keeps it), shards.
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
  shards AS (
    SELECT file_no, id,
      COALESCE(json_extract_string(o, '$.run.id'), '') AS run_id,
      TRY_CAST(json_extract(o, '$.run.shard_index') AS BIGINT) AS shard_index,
      TRY_CAST(json_extract(o, '$.run.num_shards') AS BIGINT) AS num_shards,
      TRY_CAST(json_extract_string(o, '$.timestamp') AS TIMESTAMP) AS run_time,
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
      ${number("$.robustness.perturbed.episodes")} AS perturbed_episodes
    FROM objects
  ),
  runs AS (
    SELECT id, file_no, run_id,
      CAST(SUM(total_tasks) AS INTEGER) AS total_tasks,
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
      CASE WHEN COUNT(trials) = COUNT(*) THEN SUM(all_trials_passed) / NULLIF(SUM(trial_tasks), 0) END AS pass_hat_k,
      CASE WHEN COUNT(*) = 1 THEN MIN(ci_low) END AS ci_low,
      CASE WHEN COUNT(*) = 1 THEN MIN(ci_high) END AS ci_high,
      CASE WHEN COUNT(clean_episodes) = COUNT(*) THEN (SUM(perturbed_passed) / NULLIF(SUM(perturbed_episodes), 0)) / NULLIF(SUM(clean_passed) / NULLIF(SUM(clean_episodes), 0), 0) END AS robustness,
      MIN(run_time) AS run_time,
      CAST(COUNT(*) AS INTEGER) AS shards,
      CAST(MAX(num_shards) AS INTEGER) AS num_shards,
      MAX(num_shards) IS NULL OR (COUNT(*) = MAX(num_shards) AND COUNT(DISTINCT shard_index) = MAX(num_shards)) AS complete
    FROM shards
    GROUP BY id, file_no, run_id
  ),
  full_runs AS (
    SELECT * FROM runs WHERE complete AND total_tasks = (SELECT MAX(total_tasks) FROM runs WHERE complete)
  )`;

  /** pass@1's 95% interval in percent, "low-high"; NULL without trials, and for a run of several shard objects (merge them for it). */
  const INTERVAL = `CASE WHEN ci_low IS NOT NULL THEN ROUND(ci_low * 100, 1) || '-' || ROUND(ci_high * 100, 1) END`;

  const OVERALL = `
  SELECT id, ROUND(pass_rate * 100, 1) AS "Pass Rate %", ${INTERVAL} AS "95% CI", ROUND(floor * 100, 1) AS "Floor %", ROUND(lift * 100, 1) AS "Lift %", ROUND(avg_score, 1) AS "Entropic Score", trials AS "Trials", ROUND(pass_hat_k * 100, 1) AS "Pass^k %", ROUND(robustness, 3) AS "Robustness", total_tasks AS "Tasks", passed AS "Passed", run_time AS "Run Time"
  FROM (SELECT *, ROW_NUMBER() OVER (PARTITION BY id ORDER BY pass_rate DESC, avg_score DESC, run_time DESC) AS best FROM full_runs)
  WHERE best = 1
  ORDER BY pass_rate DESC, avg_score DESC, id`;

  const ENTROPIC = `
  SELECT id, ${dimensions.map(([dimension, title]) => `ROUND(${column(dimension)}, 1) AS "${title}"`).join(", ")}, total_tasks AS "Tasks", run_time AS "Run Time"
  FROM full_runs
  ORDER BY functional DESC NULLS LAST, avg_score DESC, id`;

  const ORIGINAL = `
  SELECT id, ROUND(original_accuracy * 100, 1) AS "Accuracy %", original_passed AS "Passed", original_scored - original_passed AS "Failed", COALESCE(original_scored, total_tasks) AS "Tasks", run_time AS "Run Time"
  FROM full_runs
  ORDER BY original_accuracy DESC NULLS LAST, id`;

  const ALL_RUNS = `
  SELECT id, ROUND(pass_rate * 100, 1) AS "Pass Rate %", ${INTERVAL} AS "95% CI", ROUND(floor * 100, 1) AS "Floor %", ROUND(lift * 100, 1) AS "Lift %", ROUND(avg_score, 1) AS "Entropic Score", ROUND(original_accuracy * 100, 1) AS "Original %", trials AS "Trials", ROUND(pass_hat_k * 100, 1) AS "Pass^k %", ROUND(robustness, 3) AS "Robustness", total_tasks AS "Tasks",
    CASE WHEN complete THEN CAST(COALESCE(num_shards, 1) AS VARCHAR) ELSE shards || '/' || num_shards END AS "Shards", run_time AS "Run Time"
  FROM runs
  ORDER BY run_time DESC NULLS LAST, id`;

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

if (process.argv[1] && fileURLToPath(import.meta.url) === process.argv[1]) {
  writeFileSync(QUERIES_FILE, queriesJson());
  process.stdout.write(`Wrote ${QUERIES.length} queries to ${QUERIES_FILE}\n`);
}
