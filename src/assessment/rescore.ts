import { readFile } from "node:fs/promises";
import { z } from "zod";
import { movedFields } from "../entropy/index.js";
import { type AssessmentLog, asAssessmentLog, type EpisodeRecord, type StoredLog, type Weights } from "../log/index.js";
import { ResultsSchema, RunBlockSchema, SummarySchema } from "../report/index.js";
import { type Calibration, calibrationDigest, type Judge, type ScoringContext } from "../scoring/index.js";
import { parseOrThrow } from "../util/index.js";
import { judgeUsage, scoreRecord } from "./recorder.js";

/** The parts of a results object that re-scoring needs, checked at the boundary. */
const RecordedResultsSchema = z.object({
  run: RunBlockSchema.pick({ id: true }),
  log_file: ResultsSchema.shape.log_file,
  summary: SummarySchema.pick({ total_passed: true, avg_score: true }),
});
export type RecordedResults = z.infer<typeof RecordedResultsSchema>;

/** Reads a results object, either the green agent's data part or a leaderboard file wrapping it. */
export async function readResults(path: string): Promise<RecordedResults & { raw: Record<string, unknown> }> {
  let document: Record<string, unknown>;
  try {
    document = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
  } catch (error) {
    throw new Error(`cannot read results ${path}: ${(error as Error).message}`);
  }
  const first = Array.isArray(document.results) ? (document.results[0] as Record<string, unknown> | undefined) : undefined;
  const candidate = first && typeof first === "object" && "version" in first ? first : document;
  const recorded = parseOrThrow(RecordedResultsSchema, candidate, (fault) => new Error(`${path} is not a results object of this green agent (layout 2.1 or later): ${fault}`));
  return { ...recorded, raw: candidate };
}

/**
 * Re-scores a finished run from its log: the same trajectories, ground truth, calibration and
 * (with the judgement cache) the same verdicts give the same scores. A log of another run is refused.
 */
export async function rescore(log: StoredLog, judge: Judge, calibration: Calibration, expectedRunId?: string): Promise<AssessmentLog> {
  if (expectedRunId !== undefined && log.header.spec.runId !== expectedRunId) {
    throw new Error(`${log.path} is the log of run ${log.header.spec.runId}, not of run ${expectedRunId} whose results were given`);
  }
  const driftInRun = movedFields(log.header.entropy).size > 0;
  const context: ScoringContext = { calibration, weights: log.header.weights as Weights, driftInRun };
  const episodes: EpisodeRecord[] = [];
  // A paired run's clean episodes ran in a view without drift.
  const clean: ScoringContext = { ...context, driftInRun: false };
  for (const record of log.episodes) {
    const { trial, condition, touchedBy } = record;
    const scored = await scoreRecord(record.position, record.task, record.trajectory, judge, condition === "clean" ? clean : context);
    episodes.push({ ...scored, ...(trial !== undefined ? { trial } : {}), ...(condition !== undefined ? { condition } : {}), ...(touchedBy !== undefined ? { touchedBy } : {}) });
  }
  return {
    header: {
      ...log.header,
      judge: { mode: judge.mode, primaryModel: judge.models.primary, cheapModel: judge.models.cheap },
      calibration: { source: calibration.source, digest: calibrationDigest(calibration) },
    },
    episodes,
    footer: {
      ...asAssessmentLog(log).footer,
      judgeUsage: judgeUsage(judge),
    },
  };
}
