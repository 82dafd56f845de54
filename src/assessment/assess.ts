import { join } from "node:path";
import { buildResults, writeTrajectories, type ResultsObject } from "../report/index.js";
import type { PurpleClient } from "../purple/index.js";
import { HeuristicJudge, type Judge } from "../scoring/index.js";
import { runtimeVersions } from "../version.js";
import type { AssessmentConfig } from "./config.js";
import { runAssessment, type AssessmentData, type AssessmentEvent, type AssessmentRun } from "./run.js";

export interface AssessOptions {
  readonly participantUrl: string;
  readonly config: AssessmentConfig;
  readonly ignoredConfigKeys: readonly string[];
  readonly onEvent?: (event: AssessmentEvent) => void;
  /** Where the full trajectories go (JSONL); none when unset. */
  readonly trajectoriesDir?: string;
  readonly runId?: string;
  readonly signal?: AbortSignal;
  /** The judge for exact_match extraction and privacy; the deterministic heuristic by default. */
  readonly judge?: Judge;
}

/** Runs an assessment and turns it into the results object (plus the JSONL trajectories file). */
export async function assess(data: AssessmentData, purple: PurpleClient, options: AssessOptions): Promise<{ results: ResultsObject; run: AssessmentRun }> {
  const judge = options.judge ?? new HeuristicJudge();
  const run = await runAssessment(data, purple, options.config, { judge, ...(options.onEvent ? { onEvent: options.onEvent } : {}), ...(options.signal ? { signal: options.signal } : {}) });
  let trajectoriesFile: string | undefined;
  if (options.trajectoriesDir) {
    trajectoriesFile = join(options.trajectoriesDir, `trajectories-${options.runId ?? run.startedAt.toISOString().replace(/[:.]/g, "-")}.jsonl`);
    await writeTrajectories(trajectoriesFile, run.outcomes);
  }
  const results = buildResults({
    participantUrl: options.participantUrl,
    config: options.config,
    ignoredConfigKeys: options.ignoredConfigKeys,
    dataset: data.dataset,
    taskSource: data.tasks.source,
    orgSource: data.org.source,
    run,
    versions: runtimeVersions(),
    judge,
    ...(trajectoriesFile ? { trajectoriesFile } : {}),
  });
  return { results, run };
}
