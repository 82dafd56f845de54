import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { rescore } from "../../src/assessment/index.js";
import { loadResults } from "../../src/cli/results-input.js";
import { loadCalibration } from "../../src/data/index.js";
import { readLog } from "../../src/log/index.js";
import { buildResults, episodeViews, showText } from "../../src/report/index.js";
import { HeuristicJudge } from "../../src/scoring/index.js";

/**
 * Runs recorded before the log's version 2 (tests/fixtures/results/{a,b}: version-1 journals and
 * the results they gave) still rescore, report and show to the scores they were given.
 */
const FIXTURES = fileURLToPath(new URL("../fixtures/results/", import.meta.url));
const recorded = (name: string) => JSON.parse(readFileSync(`${FIXTURES}${name}.results.json`, "utf8")) as ReturnType<typeof buildResults>;

/** The scores of a results object: what must not move when its log is read another way. */
function scoresOf(results: ReturnType<typeof buildResults>) {
  return {
    summary: results.summary,
    dimensionAverages: results.dimension_averages,
    byCategory: results.by_category,
    original: results.original,
    aggregates: results.aggregates,
    tasks: results.results.map((entry) => ({
      idx: entry.task_idx,
      total: entry.total_score,
      dimensions: entry.dimension_scores,
      success: entry.success,
      reward: entry.crm_reward,
    })),
  };
}

describe.each(["a", "b"])("the version-1 run %s", (name) => {
  it("is read as version 1 and rescores to the scores it was given", async () => {
    const stored = await readLog(`${FIXTURES}${name}.jsonl`);
    expect(stored.writtenVersion).toBe(1);
    const before = recorded(name);
    const rescored = buildResults(await rescore(stored, new HeuristicJudge(), loadCalibration(), before.run.id));
    expect(scoresOf(JSON.parse(JSON.stringify(rescored)))).toEqual(scoresOf(before));
  });

  it("reports from the log itself, in place of its results, the same scores and run", async () => {
    const loaded = await loadResults(`${FIXTURES}${name}.jsonl`, undefined);
    const before = recorded(name);
    // The report reads its own view of a results object (report/view/input.ts): its score fields.
    const { summary, dimension_averages, results } = loaded.results;
    expect({ summary, dimension_averages, tasks: results.map((entry) => [entry.task_idx, entry.total_score, entry.success]) }).toEqual({
      summary: before.summary,
      dimension_averages: before.dimension_averages,
      tasks: before.results.map((entry) => [entry.task_idx, entry.total_score, entry.success]),
    });
    expect(loaded.results.run).toEqual(before.run);
  });

  it("shows each episode from the log with the score the results give it", async () => {
    const loaded = await loadResults(`${FIXTURES}${name}.results.json`, undefined);
    expect(loaded.log?.writtenVersion).toBe(1);
    const views = episodeViews(loaded.results, loaded.log?.episodes);
    expect(views.every((view) => view.fromLog)).toBe(true);
    for (const entry of recorded(name).results) {
      const view = views.find((candidate) => candidate.idx === entry.task_idx)!;
      expect(showText(view, { source: loaded.source })).toContain(`score ${entry.total_score.toFixed(1)}`);
    }
  });
});
