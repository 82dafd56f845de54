import { existsSync } from "node:fs";
import { mkdir, rm } from "node:fs/promises";
import { join } from "node:path";
import { ModelSpendExceeded } from "../llm/index.js";
import {
  type AssessmentLog,
  hasWholeFirstLine,
  Journal,
  JournalBudgetError,
  JournalWriteError,
  LOG_VERSION,
  LogError,
  readLog,
  type StoredLog,
  setAsideLines,
} from "../log/index.js";
import type { PurpleClient } from "../purple/index.js";
import { buildResults, type ResultsObject } from "../report/index.js";
import { HeuristicJudge, type Judge } from "../scoring/index.js";
import { EntropicError, type ErrorDetails, environment, megabytesFromEnv } from "../util/index.js";
import type { AssessmentData } from "./assessment-data.js";
import type { AssessmentConfig } from "./config.js";
import { RecordingFailure, type RunContext, runAssessment } from "./run.js";
import { withoutSpendCaps } from "./run-id.js";
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
  /** Bytes the run's journal may reach; ENTROPIC_JOURNAL_BUDGET_MB, else DEFAULT_JOURNAL_BUDGET_MB, by default. */
  readonly journalBudgetBytes?: number;
  /** What was done with a journal found damaged (started afresh, lines set aside), in a sentence for the status line or the log. */
  readonly onJournalNotice?: (text: string) => void;
}

/**
 * What `assess` gives: the results (built when first read) and their log; `journalFailure` when the run was stopped by
 * one of its bounds (its journal could not be written, its journal budget, its model spend cap),
 * the results then being what was recorded.
 */
export interface Assessed {
  readonly results: ResultsObject;
  readonly log: AssessmentLog;
  readonly logFile?: string;
  readonly journalFailure?: string;
  /** With `journalFailure` (or the model spend cap's stop, given the same way): what lets the same request continue the run (`once ...`), in words for its status line. */
  readonly journalRemedy?: string;
}

/** A run's journal budget unless ENTROPIC_JOURNAL_BUDGET_MB says otherwise: the largest request's 10,000 episodes at about 200 KB each. */
export const DEFAULT_JOURNAL_BUDGET_MB = 2048;

/** The operator's journal budget per run, in bytes: ENTROPIC_JOURNAL_BUDGET_MB (a positive number of megabytes), else the default. */
export const journalBudgetBytes = (env: NodeJS.ProcessEnv = environment()): number => megabytesFromEnv(env, "ENTROPIC_JOURNAL_BUDGET_MB", DEFAULT_JOURNAL_BUDGET_MB);

/** A run's journal that exists and was neither resumed nor forced. */
export class JournalExistsError extends EntropicError {
  override readonly name = "JournalExistsError";
  constructor(message: string, details?: ErrorDetails) {
    super("conflict", message, details);
  }
}

/** The journal of a run (of one of its shards, when it has several) in a folder. */
export function journalPath(logDir: string, runId: string, shardIndex = 0, numShards = 1): string {
  return join(logDir, numShards > 1 ? `${runId}.shard-${shardIndex + 1}-of-${numShards}.jsonl` : `${runId}.jsonl`);
}

/**
 * Runs an assessment (or continues an interrupted one from its journal) and turns its log into
 * the results object. A journal fault never blocks the run for good: a journal without a whole
 * header counts as absent; unreadable lines after it are set aside and their tasks run again; a
 * journal that cannot be written stops the run with the results of what was recorded.
 */
export async function assess(data: AssessmentData, purple: PurpleClient, options: AssessOptions): Promise<Assessed> {
  const { spec, logDir, resume, force, chosen, judge, idSecret, onJournalNotice, journalBudgetBytes: budget, ...context } = options;
  const { runId, config } = spec;
  let journal: Journal | undefined;
  let resumeFrom: StoredLog | undefined;
  let logFile: string | undefined;
  if (logDir) {
    await mkdir(logDir, { recursive: true });
    logFile = journalPath(logDir, runId, config.shard_index, config.num_shards);
    if (existsSync(logFile) && !(await hasWholeFirstLine(logFile))) {
      // The attempt that made it could not write its header (a full disk): nothing of the run is in it.
      await rm(logFile);
      onJournalNotice?.(`The journal ${logFile} had no whole header (an earlier attempt could not write it): the run starts afresh.`);
    }
    if (existsSync(logFile)) {
      if (resume) resumeFrom = await resumable(logFile, runId, config, onJournalNotice);
      else if (force) await rm(logFile);
      else throw new JournalExistsError(`${logFile} holds this run already (${runId}); pass --resume to continue it or --force to start over`);
    }
    journal = await Journal.open(logFile, resumeFrom ? "continue" : "new", { budgetBytes: budget ?? journalBudgetBytes() });
  }
  try {
    const log = await runAssessment(data, purple, {
      ...context,
      spec,
      chosen: chosen ?? (await chooseTasks(data, config)),
      judge: judge ?? new HeuristicJudge(),
      // The Id remap's secret, as the caller gives it (the operator's, resolved at the edge); an empty value is none.
      idSecret: idSecret ? idSecret : undefined,
      journal,
      resumeFrom,
    });
    return assessedRun(log, logFile);
  } catch (error) {
    // Only the journal's own write errors (a full disk) end with results; anything else is a failure as before.
    if (!(error instanceof RecordingFailure)) throw error;
    const remedy =
      error.cause instanceof ModelSpendExceeded
        ? "with a larger max_model_calls or max_model_chars in its config (they are not part of the run's id)"
        : error.cause instanceof JournalWriteError
          ? error.cause.cause instanceof JournalBudgetError
            ? "once the operator raises ENTROPIC_JOURNAL_BUDGET_MB (the journal's lines so far count)"
            : `once ${logDir ?? "the runs folder"} has room`
          : undefined;
    if (remedy === undefined) throw error.cause;
    return assessedRun(error.partial, logFile, { journalFailure: error.message, journalRemedy: remedy });
  } finally {
    await journal?.close();
  }
}

/**
 * What `assess` gives, its results built when first read: a canceled run's caller reads only its
 * log (its status and how many episodes it kept), so a cancel costs the same whatever the run's
 * size (10,000 episodes' results are seconds of work).
 */
function assessedRun(log: AssessmentLog, logFile: string | undefined, failure: Pick<Assessed, "journalFailure" | "journalRemedy"> = {}): Assessed {
  let results: ResultsObject | undefined;
  return {
    get results() {
      results ??= buildResults(log, logFile ? { logFile } : {});
      return results;
    },
    log,
    ...(logFile ? { logFile } : {}),
    ...failure,
  };
}

/** An earlier attempt's journal, checked to be the same run with the same config, in this version's layout. */
async function resumable(path: string, runId: string, config: AssessmentConfig, notice?: (text: string) => void): Promise<StoredLog> {
  const stored = await readLog(path, { unreadable: "collect" }).catch((error: unknown) => {
    if (!(error instanceof LogError)) throw error;
    throw new LogError(
      `${error.message}. The run cannot continue from this journal: start it over with --force (assess), or give the request another config.run_id (serve), or move the file away`,
    );
  });
  if (stored.header.spec.runId !== runId) throw new Error(`${path} belongs to run ${stored.header.spec.runId}, not ${runId}`);
  // Appending to it would mix two layouts in one file: an older journal is read, never continued.
  if (stored.writtenVersion !== LOG_VERSION)
    throw new Error(
      `${path} was written in log version ${stored.writtenVersion} by an older green agent; it cannot be continued (it still reads for rescore, report and show): start the run over with --force (assess), or give the request another config.run_id (serve), or move the file away`,
    );
  const { concurrency: _a, ...before } = withoutSpendCaps(stored.header.spec.config as AssessmentConfig);
  const { concurrency: _b, ...now } = withoutSpendCaps(config);
  if (JSON.stringify(before) !== JSON.stringify(now)) throw new Error(`${path} was started with another config; resume it with the same config or pass --force to start over`);
  const unreadable = stored.unreadable ?? [];
  if (unreadable.length > 0) {
    const aside = await setAsideLines(
      path,
      unreadable.map((entry) => entry.line),
    );
    notice?.(
      `The journal ${path} had ${unreadable.length === 1 ? "a line" : `${unreadable.length} lines`} that could not be read (${unreadable.map((entry) => entry.reason).join("; ")}): ${unreadable.length === 1 ? "it was" : "they were"} set aside in ${aside}, and the tasks missing from the journal run again.`,
    );
  }
  return stored;
}
