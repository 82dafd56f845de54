import { existsSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { type AssessmentLog, Journal, LOG_VERSION, readLog, type StoredLog } from "../log/index.js";
import type { PurpleClient } from "../purple/index.js";
import { buildResults, type ResultsObject } from "../report/index.js";
import { HeuristicJudge, type Judge } from "../scoring/index.js";
import type { AssessmentData } from "./assessment-data.js";
import type { AssessmentConfig } from "./config.js";
import { type RunContext, runAssessment } from "./run.js";
import type { RunSpec } from "./run-spec.js";
import { type ChosenTasks, chooseTasks } from "./select.js";

export interface AssessOptions extends Omit<RunContext, "judge"> {
  /** What was asked for, built at the edge (runSpecFor). */
  readonly spec: RunSpec;
  /** The tasks, when the edge chose them already (a served request checks them before it is accepted); else chosen here. */
  readonly chosen?: ChosenTasks;
  /** The judge for exact_match extraction and privacy; the deterministic heuristic by default. */
  readonly judge?: Judge;
  /** Where the run's journal goes (`run-<id>.jsonl`); none when unset. */
  readonly logDir?: string;
  /** Continue the run's journal if there is one (no finished task lost, none run twice). */
  readonly resume?: boolean;
  /** Start over even if the run's journal exists (it is replaced). */
  readonly force?: boolean;
}

/** A run's journal that exists and was neither resumed nor forced. */
export class JournalExistsError extends Error {
  override readonly name = "JournalExistsError";
}

/** The journal of a run (of one of its shards, when it has several) in a folder. */
export function journalPath(logDir: string, runId: string, shardIndex = 0, numShards = 1): string {
  return join(logDir, numShards > 1 ? `${runId}.shard-${shardIndex + 1}-of-${numShards}.jsonl` : `${runId}.jsonl`);
}

/**
 * Runs an assessment (or continues an interrupted one from its journal) and turns its log into
 * the results object.
 */
export async function assess(data: AssessmentData, purple: PurpleClient, options: AssessOptions): Promise<{ results: ResultsObject; log: AssessmentLog; logFile?: string }> {
  const { spec, logDir, resume, force, chosen, judge, idSecret, ...context } = options;
  const { runId, config } = spec;
  let journal: Journal | undefined;
  let resumeFrom: StoredLog | undefined;
  let logFile: string | undefined;
  if (logDir) {
    await mkdir(logDir, { recursive: true });
    logFile = journalPath(logDir, runId, config.shard_index, config.num_shards);
    if (existsSync(logFile)) {
      if (resume) resumeFrom = await resumable(logFile, runId, config);
      else if (force) await rm(logFile);
      else throw new JournalExistsError(`${logFile} holds this run already (${runId}); pass --resume to continue it or --force to start over`);
    }
    journal = await Journal.open(logFile, resumeFrom ? "continue" : "new");
  }
  try {
    const secret = idSecret ?? process.env.ENTROPIC_ID_SECRET;
    const log = await runAssessment(data, purple, {
      ...context,
      spec,
      chosen: chosen ?? chooseTasks(data, config),
      judge: judge ?? new HeuristicJudge(),
      // The Id remap's secret: given, or the operator's ENTROPIC_ID_SECRET (an empty value is none).
      idSecret: secret ? secret : undefined,
      journal,
      resumeFrom,
    });
    return { results: buildResults(log, logFile ? { logFile } : {}), log, ...(logFile ? { logFile } : {}) };
  } finally {
    await journal?.close();
  }
}

/** An earlier attempt's journal, checked to be the same run with the same config, in this version's layout. */
async function resumable(path: string, runId: string, config: AssessmentConfig): Promise<StoredLog> {
  const stored = await readLog(path);
  if (stored.header.spec.runId !== runId) throw new Error(`${path} belongs to run ${stored.header.spec.runId}, not ${runId}`);
  // Appending to it would mix two layouts in one file: an older journal is read, never continued.
  if (stored.writtenVersion !== LOG_VERSION)
    throw new Error(`${path} was written in log version ${stored.writtenVersion} by an older green agent; it cannot be continued: pass --force to start over`);
  const { concurrency: _a, ...before } = stored.header.spec.config as AssessmentConfig;
  const { concurrency: _b, ...now } = config;
  if (JSON.stringify(before) !== JSON.stringify(now)) throw new Error(`${path} was started with another config; resume it with the same config or pass --force to start over`);
  return stored;
}
