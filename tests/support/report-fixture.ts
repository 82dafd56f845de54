import { fileURLToPath } from "node:url";
import { readReportAssets } from "../../src/cli/report.js";
import { loadResults } from "../../src/cli/results-input.js";
import { episodeViews, type ReportModel, renderReport, reportModel } from "../../src/report/index.js";

export const FIXTURES = fileURLToPath(new URL("../fixtures/results/", import.meta.url));
/** The solver's run: every task passes. */
export const RUN_A = `${FIXTURES}a.results.json`;
/** The careless purple's run: drift failures, a hostile answer (task 8), a max_steps episode (task 22). */
export const RUN_B = `${FIXTURES}b.results.json`;
export const HOSTILE_MARK = "<script>window.__pwned = true;";

/** The report of run B (with its log unless `log` is false), compared with run A. */
export async function fixtureReport(options: { log?: boolean; baseline?: boolean } = {}): Promise<{ html: string; model: ReportModel }> {
  const loaded = await loadResults(RUN_B, options.log === false ? false : undefined);
  const baseline = options.baseline === false ? undefined : await loadResults(RUN_A, false);
  const model = reportModel({
    results: loaded.results,
    label: "b.results.json",
    source: loaded.source,
    episodes: episodeViews(loaded.results, loaded.log?.episodes),
    ...(baseline ? { baseline: { results: baseline.results, label: "a.results.json" } } : {}),
  });
  return { html: renderReport(model, await readReportAssets()), model };
}
