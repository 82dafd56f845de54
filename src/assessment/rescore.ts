import { readFile } from "node:fs/promises";
import { z } from "zod";
import type { DatasetKind } from "../data/paths.js";
import { buildResults, type ResultsObject } from "../report/index.js";
import { scoreEpisode, type Judge } from "../scoring/index.js";
import type { TaskSet } from "../tasks/load.js";
import { parseConfig } from "./config.js";
import { isPurpleFailure, type AssessmentRun, type TaskOutcome } from "./run.js";
import type { SelectionMode } from "./select.js";
import type { Trajectory } from "./trajectory.js";

/** The parts of a results object that re-scoring needs, checked at the boundary. */
const RecordedResultsSchema = z.object({
  participants: z.object({ agent: z.string() }),
  timestamp: z.string(),
  config: z.record(z.string(), z.unknown()),
  ignored_config_keys: z.array(z.string()).default([]),
  dataset: z.enum(["sample", "crmarena-pro-b2b", "custom"]),
  data_sources: z.object({ tasks: z.string(), org: z.string() }),
  selection: z.object({ mode: z.enum(["task_ids", "task_categories", "task_limit", "all"]), selected: z.number() }),
  timing: z.object({ total_seconds: z.number() }),
  green_agent: z.object({ versions: z.record(z.string(), z.string()) }),
  judge: z.object({ mode: z.enum(["llm", "heuristic"]), primary_model: z.string().nullable(), cheap_model: z.string().nullable() }),
  entropy: z.object({ rename_map: z.record(z.string(), z.record(z.string(), z.string())), injected_records: z.record(z.string(), z.number()) }),
  trajectories_file: z.string().optional(),
});
export type RecordedResults = z.infer<typeof RecordedResultsSchema>;

/** Reads a results object, either the green agent's data part or a leaderboard file wrapping it. */
export async function readResults(path: string): Promise<RecordedResults & { raw: Record<string, unknown> }> {
  const document = JSON.parse(await readFile(path, "utf8")) as Record<string, unknown>;
  const candidate = Array.isArray(document.results) && document.results.length > 0 && typeof document.results[0] === "object" && "version" in (document.results[0] as object) ? (document.results[0] as Record<string, unknown>) : document;
  const parsed = RecordedResultsSchema.safeParse(candidate);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new Error(`${path} is not a results object of this green agent: field '${issue.path.join(".")}': ${issue.message}`);
  }
  return { ...parsed.data, raw: candidate };
}

/** Reads the full trajectories written beside a results object (one JSON object per line). */
export async function readTrajectories(path: string): Promise<Trajectory[]> {
  const text = await readFile(path, "utf8");
  return text
    .split("\n")
    .filter((line) => line.trim())
    .map((line, i) => {
      const record = JSON.parse(line) as Trajectory & { score?: unknown };
      if (typeof record.taskIdx !== "number" || !Array.isArray(record.steps)) throw new Error(`${path}: line ${i + 1} is not a trajectory`);
      const { score: _score, ...trajectory } = record;
      return trajectory;
    });
}

/**
 * Re-scores a finished assessment from its recorded trajectories: the same trajectories, ground
 * truth and (with the judgement cache) the same verdicts give the same results.
 */
export async function rescore(recorded: RecordedResults, trajectories: readonly Trajectory[], tasks: TaskSet, judge: Judge): Promise<ResultsObject> {
  const outcomes: TaskOutcome[] = [];
  for (const trajectory of trajectories) {
    const task = tasks.byIdx.get(trajectory.taskIdx);
    if (!task) throw new Error(`task ${trajectory.taskIdx} of the trajectories is not in the task file ${tasks.source}`);
    outcomes.push({ task, trajectory, score: isPurpleFailure(trajectory) ? undefined : await scoreEpisode(task, trajectory, judge) });
  }
  const { config } = parseConfig(recorded.config);
  const run: AssessmentRun = {
    selection: { mode: recorded.selection.mode as SelectionMode, tasks: outcomes.map((outcome) => outcome.task), selectedBeforeSharding: recorded.selection.selected },
    outcomes,
    startedAt: new Date(`${recorded.timestamp.slice(0, 23)}Z`),
    wallMs: recorded.timing.total_seconds * 1000,
    entropy: { renames: recorded.entropy.rename_map, injected: recorded.entropy.injected_records },
  };
  return buildResults({
    participantUrl: recorded.participants.agent,
    config,
    ignoredConfigKeys: recorded.ignored_config_keys,
    dataset: recorded.dataset as DatasetKind,
    taskSource: recorded.data_sources.tasks,
    orgSource: recorded.data_sources.org,
    run,
    versions: recorded.green_agent.versions,
    judge,
    ...(recorded.trajectories_file ? { trajectoriesFile: recorded.trajectories_file } : {}),
  });
}
