import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import { readLog, type StoredLog } from "../log/index.js";
import { parseReportResults, type ReportResults } from "../report/index.js";

/** A results file as the report commands read it, with its run log when one is found. */
export interface LoadedResults {
  readonly path: string;
  readonly results: ReportResults;
  readonly log: StoredLog | undefined;
  /** Where the trajectories come from, in a sentence (the log, or the results and why). */
  readonly source: string;
}

/** `--log FILE` and `--no-log`, shared by report and show. */
export function logOptions(command: Command): Command {
  return command.option("--log <file>", "the run log (default: the one the results name in log_file)").option("--no-log", "use only the compact trajectories of the results");
}

/**
 * Reads a results file and finds its run log: `--log`, else the results' `log_file` as written
 * (relative to where `assess` ran), else a file of that name beside the results. A log of
 * another run is not used.
 */
export async function loadResults(path: string, log: string | boolean | undefined): Promise<LoadedResults> {
  let document: unknown;
  try {
    document = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new Error(`cannot read results ${path}: ${(error as Error).message}`);
  }
  const results = parseReportResults(document, path);
  const compact = (why: string) => `Compact trajectory from the results (observations cut to 300 characters): ${why}.`;
  if (log === false) return { path, results, log: undefined, source: compact("--no-log") };
  if (typeof log === "string") {
    const stored = await readLog(log);
    if (stored.header.run_id !== results.run.id) throw new Error(`${log} is the log of run ${stored.header.run_id}, not of run ${results.run.id} whose results were given`);
    return { path, results, log: stored, source: `Full trajectory from the run log ${log}.` };
  }
  if (!results.log_file) return { path, results, log: undefined, source: compact("the results name no run log") };
  const candidates = [...new Set([resolve(results.log_file), join(dirname(path), basename(results.log_file))])].filter((candidate) => existsSync(candidate));
  const problems: string[] = [];
  for (const candidate of candidates) {
    try {
      const stored = await readLog(candidate);
      if (stored.header.run_id === results.run.id) return { path, results, log: stored, source: `Full trajectory from the run log ${candidate}.` };
      problems.push(`${candidate} is the log of run ${stored.header.run_id}, not ${results.run.id}`);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  return { path, results, log: undefined, source: compact(problems.length > 0 ? problems.join("; ") : `the run log ${results.log_file} is not found`) };
}
