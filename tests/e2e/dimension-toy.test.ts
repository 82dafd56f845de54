import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { leaderboardQueries } from "../../leaderboard/queries.js";
import { assess, parseConfig, runSpecFor } from "../../src/assessment/index.js";
import { errorOptInStrategy, servePurple, solverStrategy } from "../../src/baselines/index.js";
import { readReportAssets } from "../../src/cli/report.js";
import { A2APurpleClient } from "../../src/purple/index.js";
import { episodeViews, parseReportResults, renderReport, reportModel, showText, summaryText } from "../../src/report/index.js";
import { registerDimension, totalScore } from "../../src/scoring/index.js";
import { type RosterEntry, runSuite, validityMarkdown } from "../../src/validity/index.js";
import { calibration, sampleData } from "../support/helpers.js";
import { queryPrecision } from "../support/toy-dimension.js";

/**
 * A new dimension needs one module and its registration, nothing else: tests/support/toy-dimension.ts is
 * that module, the `registerDimension` line below its registration. It must be scored for every
 * episode, counted in total_score with its default weight, and appear after the seven in the
 * results, the summary, the report, `show`, the validity table and the leaderboard's queries.
 */
const SEVEN = ["FUNCTIONAL", "DRIFT_ADAPTATION", "TOKEN_EFFICIENCY", "QUERY_EFFICIENCY", "ERROR_RECOVERY", "TRAJECTORY_EFFICIENCY", "HALLUCINATION_RATE"];
const EIGHT = [...SEVEN, "QUERY_PRECISION"];

const data = await sampleData();
let unregister: (() => void) | undefined;
beforeAll(() => {
  unregister = registerDimension(queryPrecision);
});
afterAll(async () => {
  unregister?.();
  await data.org.close();
});

describe("a new dimension, from its own file", () => {
  it("is scored over A2A, weighed in total_score, and shown in the results, summary, report and show", async () => {
    // The solver after a deliberate schema error: one query of several fails, so the toy is neither 0 nor 100.
    const purple = await servePurple("error-opt-in", errorOptInStrategy, "127.0.0.1", 0);
    try {
      const { config } = parseConfig({ task_ids: [0, 2, 4] });
      const { results } = await assess(data, new A2APurpleClient(purple.url), {
        spec: runSpecFor({ participantUrl: purple.url, config, tasksSource: data.sources.tasks.path }),
        calibration,
      });
      expect(results.weights).toMatchObject({ FUNCTIONAL: 0.3, QUERY_PRECISION: 0.1 });
      expect(Object.keys(results.dimension_averages)).toEqual(EIGHT);
      expect(Object.keys(results.aggregates.dimensions)).toEqual(EIGHT);
      const withoutToy = Object.fromEntries(SEVEN.map((name) => [name, results.weights[name]!]));
      for (const entry of results.results) {
        if (!("entropic" in entry)) throw new Error(`task ${entry.task_idx} was not scored: ${entry.error}`);
        expect(entry.success).toBe(true);
        expect(Object.keys(entry.dimension_scores)).toEqual(EIGHT);
        const { queries, failed_queries } = entry.metrics;
        expect(failed_queries).toBe(1);
        expect(entry.dimension_scores.QUERY_PRECISION).toBeCloseTo((100 * (queries - failed_queries)) / queries, 2);
        // The total weighs the toy with its default weight: it is the weighted mean over eight dimensions, not seven.
        expect(entry.total_score).toBeCloseTo(totalScore(entry.dimension_scores, results.weights, entry.success), 1);
        expect(Math.abs(entry.total_score - totalScore(entry.dimension_scores, withoutToy, entry.success))).toBeGreaterThan(0.1);
      }
      expect(results.dimension_averages.QUERY_PRECISION).toBeGreaterThan(0);
      expect(results.dimension_averages.QUERY_PRECISION).toBeLessThan(100);
      expect(summaryText(results)).toMatch(/HALLUCINATION_RATE [\d.n/a]+, QUERY_PRECISION \d+(\.\d)?\n/);

      const parsed = parseReportResults(JSON.parse(JSON.stringify(results)), "toy.results.json");
      const views = episodeViews(parsed);
      const page = renderReport(reportModel({ results: parsed, label: "toy", source: "results", episodes: views }), await readReportAssets());
      expect(page).toContain('<th class="num" title="QUERY_PRECISION">PREC</th>');
      expect(page).toMatch(
        /<td title="S × the share of the queries that the org accepted; n\/a without queries\.">QUERY_PRECISION<\/td><td class="num" data-dimension="QUERY_PRECISION">\d/,
      );
      expect(page).toContain("HALLU = HALLUCINATION_RATE, PREC = QUERY_PRECISION.");
      expect(showText(views[0]!, { source: "results", weights: parsed.weights })).toMatch(/\n {2}QUERY_PRECISION +\d+\.\d {2}weight 0\.10\n/);
    } finally {
      purple.server.close();
    }
  });

  it("is a column of the validity table", async () => {
    const purples: RosterEntry[] = [
      { name: "solver", kind: "reference", description: "the reference solver", strategy: solverStrategy },
      { name: "error-opt-in", kind: "gaming", description: "the solver after a deliberate schema error", strategy: errorOptInStrategy },
    ];
    const options = { levels: [{ drift_level: "none", rot_level: "none" }] as const, seeds: [1] };
    const measurements = await runSuite(data, calibration, purples, options);
    const table = validityMarkdown({ measurements, checks: [], roster: purples, options, dataLabel: "the sample" }, { missing: "not measured by this test" });
    expect(table).toContain("| purple | pass % | total | FUNC | DRIFT | TOKEN | QUERY | ERROR | TRAJ | HALL | PREC |\n|---|---:|---:|---:|---:|---:|---:|---:|---:|---:|---:|");
    expect(table).toContain("HALL = HALLUCINATION_RATE, PREC = QUERY_PRECISION.");
    // The purple's row of the scores table (its first row is the roster's), its last cell the toy's column.
    const lastCell = (purple: string) =>
      Number(
        table
          .split("\n")
          .filter((line) => line.startsWith(`| ${purple} |`))
          .at(-1)!
          .split("|")
          .at(-2)!
          .trim(),
      );
    expect(lastCell("solver")).toBe(100);
    expect(lastCell("error-opt-in")).toBeGreaterThan(0);
    expect(lastCell("error-opt-in")).toBeLessThan(100);
  });

  it("is a key of the config's weights", () => {
    const seven = {
      FUNCTIONAL: 0.3,
      DRIFT_ADAPTATION: 0.2,
      TOKEN_EFFICIENCY: 0.12,
      QUERY_EFFICIENCY: 0.12,
      ERROR_RECOVERY: 0.08,
      TRAJECTORY_EFFICIENCY: 0.1,
      HALLUCINATION_RATE: 0.08,
    };
    expect(() => parseConfig({ weights: seven })).toThrow(/config\.weights: missing QUERY_PRECISION; the dimensions are .*HALLUCINATION_RATE, QUERY_PRECISION/);
    expect(parseConfig({ weights: { ...seven, FUNCTIONAL: 0.2, QUERY_PRECISION: 0.1 } }).config.weights.QUERY_PRECISION).toBe(0.1);
  });

  it("is a column of the leaderboard's Entropic Scores tab, summed from the shards' aggregates", () => {
    const entropic = leaderboardQueries().find((query) => query.name === "Entropic Scores")!.query;
    expect(entropic).toContain(`ROUND(hallucination_rate, 1) AS "No Hallucination", ROUND(query_precision, 1) AS "Query Precision"`);
    expect(entropic).toContain("$.aggregates.dimensions.QUERY_PRECISION.sum");
  });
});
