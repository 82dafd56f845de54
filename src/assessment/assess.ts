import { existsSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { type AssessmentLog, Journal, readLog, type StoredLog } from "../log/index.js";
import type { PurpleClient } from "../purple/index.js";
import { buildResults, type ResultsObject } from "../report/index.js";
import { type Calibration, HeuristicJudge, type Judge } from "../scoring/index.js";
import { PACKAGE_VERSION } from "../version.js";
import type { AssessmentConfig } from "./config.js";
import { type AssessmentData, type AssessmentEvent, runAssessment } from "./run.js";
import { runIdFor } from "./run-id.js";

export interface AssessOptions {
  readonly participantUrl: string;
  readonly config: AssessmentConfig;
  readonly ignoredConfigKeys: readonly string[];
  readonly calibration: Calibration;
  readonly onEvent?: (event: AssessmentEvent) => void;
  /** Where the run's journal goes (`run-<id>.jsonl`); none when unset. */
  readonly logDir?: string;
  /** Given by the caller (the server uses one per request), else derived from the run (`runIdFor`). */
  readonly runId?: string;
  /** The purple's card name and version, part of the derived run id. */
  readonly purpleIdentity?: string;
  /** Continue the run's journal if there is one (no finished task lost, none run twice). */
  readonly resume?: boolean;
  /** Start over even if the run's journal exists (it is replaced). */
  readonly force?: boolean;
  readonly signal?: AbortSignal;
  /** Stops the run gently: no new episodes; those in flight finish. */
  readonly drain?: AbortSignal;
  /** The judge for exact_match extraction and privacy; the deterministic heuristic by default. */
  readonly judge?: Judge;
  /** The operator's secret in the Id remap's key; ENTROPIC_ID_SECRET by default. */
  readonly idSecret?: string;
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
  const judge = options.judge ?? new HeuristicJudge();
  const idSecret = idSecretOf(options);
  const runId =
    options.runId ??
    runIdFor({
      participantUrl: options.participantUrl,
      config: options.config,
      tasksSource: data.sources.tasks.path,
      greenVersion: PACKAGE_VERSION,
      ...(options.purpleIdentity ? { purpleIdentity: options.purpleIdentity } : {}),
    });
  let journal: Journal | undefined;
  let resume: StoredLog | undefined;
  let logFile: string | undefined;
  if (options.logDir) {
    await mkdir(options.logDir, { recursive: true });
    logFile = journalPath(options.logDir, runId, options.config.shard_index, options.config.num_shards);
    if (existsSync(logFile)) {
      if (options.resume) resume = await resumable(logFile, runId, options.config);
      else if (options.force) await rm(logFile);
      else throw new JournalExistsError(`${logFile} holds this run already (${runId}); pass --resume to continue it or --force to start over`);
    }
    journal = await Journal.open(logFile, resume ? "continue" : "new");
  }
  try {
    const log = await runAssessment(data, purple, {
      runId,
      participantUrl: options.participantUrl,
      config: options.config,
      ignoredConfigKeys: options.ignoredConfigKeys,
      judge,
      calibration: options.calibration,
      ...(idSecret ? { idSecret } : {}),
      ...(options.onEvent ? { onEvent: options.onEvent } : {}),
      ...(options.signal ? { signal: options.signal } : {}),
      ...(options.drain ? { drain: options.drain } : {}),
      ...(journal ? { journal } : {}),
      ...(resume ? { resume } : {}),
    });
    return { results: buildResults(log, logFile ? { logFile } : {}), log, ...(logFile ? { logFile } : {}) };
  } finally {
    await journal?.close();
  }
}

/** An earlier attempt's journal, checked to be the same run with the same config. */
async function resumable(path: string, runId: string, config: AssessmentConfig): Promise<StoredLog> {
  const stored = await readLog(path);
  if (stored.header.run_id !== runId) throw new Error(`${path} belongs to run ${stored.header.run_id}, not ${runId}`);
  const { concurrency: _a, ...before } = stored.header.config as AssessmentConfig;
  const { concurrency: _b, ...now } = config;
  if (JSON.stringify(before) !== JSON.stringify(now)) throw new Error(`${path} was started with another config; resume it with the same config or pass --force to start over`);
  return stored;
}

/** The Id remap's secret: given, or the operator's ENTROPIC_ID_SECRET (an empty value is none). */
function idSecretOf(options: AssessOptions): string | undefined {
  const secret = options.idSecret ?? process.env.ENTROPIC_ID_SECRET;
  return secret ? secret : undefined;
}
