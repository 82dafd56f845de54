import type { DatasetKind } from "../data/paths.js";
import type { OrgStore } from "../org/index.js";
import type { TaskBrief } from "../protocol/index.js";
import type { PurpleClient } from "../purple/index.js";
import { scoreEpisode, type EpisodeScore, type Judge } from "../scoring/index.js";
import type { TaskSet } from "../tasks/load.js";
import { EXTERNAL_FACING_CATEGORIES, type TaskRecord } from "../tasks/schema.js";
import type { AssessmentConfig } from "./config.js";
import { runEpisode } from "./episode.js";
import { selectTasks, type Selection } from "./select.js";
import type { Trajectory } from "./trajectory.js";


/** The world an assessment runs in: tasks and the hosted org. */
export type { DatasetKind };

export interface AssessmentData {
  readonly tasks: TaskSet;
  readonly org: OrgStore;
  readonly dataset: DatasetKind;
}

/** One finished task: its trajectory and scores. Purple failures carry no scores. */
export interface TaskOutcome {
  readonly task: TaskRecord;
  readonly trajectory: Trajectory;
  readonly score: EpisodeScore | undefined;
}

/** Progress of a running assessment, for status updates and progress bars. */
export type AssessmentEvent =
  | { readonly kind: "started"; readonly total: number; readonly selection: Selection }
  | { readonly kind: "task_started"; readonly position: number; readonly total: number; readonly task: TaskRecord }
  | { readonly kind: "task_finished"; readonly position: number; readonly total: number; readonly outcome: TaskOutcome };

export interface AssessmentRun {
  readonly selection: Selection;
  readonly outcomes: readonly TaskOutcome[];
  readonly startedAt: Date;
  readonly wallMs: number;
}

/** Builds what the purple agent is shown for a task (drift and rot will rewrite it). */
export function briefFor(task: TaskRecord, config: AssessmentConfig): TaskBrief {
  return {
    taskId: String(task.idx),
    category: task.task,
    prompt: task.query,
    persona: task.persona,
    requiredContext: task.metadata.required,
    optionalContext: task.metadata.optional,
    externalFacing: EXTERNAL_FACING_CATEGORIES.has(task.task),
    maxSteps: config.max_steps,
    ...todayOf(task),
    entropy: { drift_level: config.drift_level, rot_level: config.rot_level, seed: config.seed },
  };
}

/** The date a task is set on: its "Today's date" line, if it has one. */
function todayOf(task: TaskRecord): { today?: string } {
  const match = /Today's date:\s*(\d{4}-\d{2}-\d{2})/.exec(`${task.metadata.required}\n${task.query}`);
  return match ? { today: match[1]! } : {};
}

const PURPLE_FAILURES = new Set(["timeout", "purple_error", "protocol_error"]);

/** Episodes the purple agent broke off are recorded as errors and not scored, as in the 2.0.0 layout. */
export function isPurpleFailure(trajectory: Trajectory): boolean {
  return PURPLE_FAILURES.has(trajectory.termination);
}

/**
 * Runs every selected task against the purple agent, `concurrency` episodes at a time.
 * Selection errors throw before any work; episode failures are recorded, never thrown.
 */
export interface RunOptions {
  readonly judge: Judge;
  readonly onEvent?: (event: AssessmentEvent) => void;
  readonly signal?: AbortSignal;
}

export async function runAssessment(data: AssessmentData, purple: PurpleClient, config: AssessmentConfig, options: RunOptions): Promise<AssessmentRun> {
  const { judge, signal } = options;
  const onEvent = options.onEvent ?? (() => undefined);
  const selection = selectTasks(data.tasks, config);
  const startedAt = new Date();
  const started = performance.now();
  const total = selection.tasks.length;
  onEvent({ kind: "started", total, selection });
  const outcomes: TaskOutcome[] = new Array(total);
  let next = 0;
  const worker = async () => {
    while (next < total && !signal?.aborted) {
      const position = next++;
      const task = selection.tasks[position]!;
      onEvent({ kind: "task_started", position: position + 1, total, task });
      const trajectory = await runEpisode(briefFor(task, config), task.idx, data.org, purple, {
        maxSteps: config.max_steps,
        timeoutMs: config.timeout * 1000,
      });
      const score = isPurpleFailure(trajectory) ? undefined : await scoreEpisode(task, trajectory, judge);
      const outcome: TaskOutcome = { task, trajectory, score };
      outcomes[position] = outcome;
      onEvent({ kind: "task_finished", position: position + 1, total, outcome });
    }
  };
  await Promise.all(Array.from({ length: Math.min(config.concurrency, Math.max(1, total)) }, worker));
  // After a cancellation, tasks never started leave holes: report only what ran.
  return { selection, outcomes: outcomes.filter(Boolean), startedAt, wallMs: performance.now() - started };
}
