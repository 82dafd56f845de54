import { mkdir, readFile, writeFile } from "node:fs/promises";
import { createRequire } from "node:module";
import { basename, dirname, join } from "node:path";
import type { Command } from "commander";
import { episodeViews, type ReportAssets, renderReport, reportModel } from "../report/index.js";
import { loadResults, logOptions } from "./results-input.js";

/** Chart.js' UMD bundle, to inline (the package exports only its modules, so it is found beside them). */
export async function readReportAssets(): Promise<ReportAssets> {
  const entry = createRequire(import.meta.url).resolve("chart.js");
  return { chartJs: await readFile(join(dirname(entry), "chart.umd.js"), "utf8") };
}

/** report.html beside the results: results.json → results.report.html. */
export function defaultReportPath(resultsPath: string): string {
  return join(dirname(resultsPath), `${basename(resultsPath).replace(/\.json$/i, "")}.report.html`);
}

export function registerReport(program: Command): void {
  logOptions(
    program
      .command("report")
      .description("write one self-contained HTML report of a run (charts, drift and rot, every episode); with a second results file, a comparison with it")
      .argument("<results>", "the run to report on (a results file)")
      .argument("[baseline]", "another run's results: the report adds a comparison (deltas = this run − baseline)")
      .option("--out <file>", "where to write the HTML (default: beside the results, NAME.report.html)"),
  ).action(async (path: string, baselinePath: string | undefined, options: { out?: string; log?: string | boolean }) => {
    const loaded = await loadResults(path, options.log);
    const baseline = baselinePath ? await loadResults(baselinePath, false) : undefined;
    const model = reportModel({
      results: loaded.results,
      label: basename(path),
      source: loaded.source,
      episodes: episodeViews(loaded.results, loaded.log?.episodes),
      ...(baseline ? { baseline: { results: baseline.results, label: basename(baselinePath!) } } : {}),
    });
    const out = options.out ?? defaultReportPath(path);
    const page = renderReport(model, await readReportAssets());
    await mkdir(dirname(out), { recursive: true });
    await writeFile(out, page);
    process.stdout.write(`Report written to ${out} (${Math.round(Buffer.byteLength(page) / 1024)} KB). ${loaded.source}\n`);
  });
}
