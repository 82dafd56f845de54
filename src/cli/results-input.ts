import { existsSync } from "node:fs";
import { readFile } from "node:fs/promises";
import { basename, dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import { asAssessmentLog, readLog, type StoredLog } from "../log/index.js";
import { buildResults, parseReportResults, type ReportResults } from "../report/index.js";

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

/** Is this text a run log (JSON Lines opening with the log's header) rather than a results file? */
const isRunLog = (path: string, text: string) => path.endsWith(".jsonl") || /^\s*\{"kind"\s*:\s*"header"/.test(text);

/**
 * Where a results file's run log is: its `log_file` as written (relative to where `assess` ran),
 * else a file of that name beside the results. Every candidate that exists, in that order.
 */
export function runLogCandidates(resultsPath: string, logFile: string): string[] {
  return [...new Set([resolve(logFile), join(dirname(resultsPath), basename(logFile))])].filter((candidate) => existsSync(candidate));
}

/**
 * Reads a results file and finds its run log: `--log`, else the results' `log_file` as written
 * (relative to where `assess` ran), else a file of that name beside the results. A log of
 * another run is not used. A run log given in place of the results is read as its results.
 */
export async function loadResults(path: string, log: string | boolean | undefined): Promise<LoadedResults> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new Error(`cannot read results ${path}: ${(error as Error).message}`);
  }
  if (isRunLog(path, text)) {
    const stored = await readLog(path);
    const results = parseReportResults(JSON.parse(JSON.stringify(buildResults(asAssessmentLog(stored), { logFile: path }))), path);
    return { path, results, log: stored, source: `Full trajectory from the run log ${path} (read in place of a results file).` };
  }
  let document: unknown;
  try {
    document = JSON.parse(text);
  } catch (error) {
    throw new Error(`cannot read results ${path}: ${(error as Error).message} (a results file is one JSON object; a run log, JSON Lines, ends in .jsonl)`);
  }
  const results = parseReportResults(document, path);
  const compact = (why: string) => `Compact trajectory from the results (observations cut to 300 characters): ${why}.`;
  if (log === false) return { path, results, log: undefined, source: compact("--no-log") };
  if (typeof log === "string") {
    const stored = await readLog(log);
    if (stored.header.spec.runId !== results.run.id) throw new Error(`${log} is the log of run ${stored.header.spec.runId}, not of run ${results.run.id} whose results were given`);
    return { path, results, log: stored, source: `Full trajectory from the run log ${log}.` };
  }
  if (!results.log_file) return { path, results, log: undefined, source: compact("the results name no run log") };
  const candidates = runLogCandidates(path, results.log_file);
  const problems: string[] = [];
  for (const candidate of candidates) {
    try {
      const stored = await readLog(candidate);
      if (stored.header.spec.runId === results.run.id) return { path, results, log: stored, source: `Full trajectory from the run log ${candidate}.` };
      problems.push(`${candidate} is the log of run ${stored.header.spec.runId}, not ${results.run.id}`);
    } catch (error) {
      problems.push((error as Error).message);
    }
  }
  return { path, results, log: undefined, source: compact(problems.length > 0 ? problems.join("; ") : `the run log ${results.log_file} is not found`) };
}
