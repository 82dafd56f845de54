import type { DatasetKind } from "../data/paths.js";
import { distractorPassages, driftText, guidanceOf, perturbOrg, type RenameMap } from "../entropy/index.js";
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

/** What drift and rot did to the org of an assessment. */
export interface EntropySummary {
  readonly renames: RenameMap;
  readonly injected: Readonly<Record<string, number>>;
}

export interface AssessmentRun {
  readonly selection: Selection;
  readonly outcomes: readonly TaskOutcome[];
  readonly startedAt: Date;
  readonly wallMs: number;
  readonly entropy: EntropySummary;
}

/** What drift and rot add to a task's text: renamed field names and distractor passages. */
export interface TextEntropy {
  readonly renames: RenameMap;
  /** Reusable guidance per category, from which distractor passages are drawn. */
  readonly guidance: ReadonlyMap<string, string>;
}

/** Per category, the guidance part of its first task's context (for distractor passages). */
export function guidanceByCategory(tasks: TaskSet): Map<string, string> {
  const guidance = new Map<string, string>();
  for (const task of tasks.tasks) {
    const text = guidanceOf(task.metadata.required);
    if (text.length > 40 && !guidance.has(task.task)) guidance.set(task.task, text);
  }
  return guidance;
}

/** Builds what the purple agent is shown for a task, with drifted field names and distractor passages. */
export function briefFor(task: TaskRecord, config: AssessmentConfig, entropy: TextEntropy = { renames: {}, guidance: new Map() }): { brief: TaskBrief; events: { renamedInText: string[]; passages: string[] } } {
  const prompt = driftText(task.query, entropy.renames);
  const required = driftText(task.metadata.required, entropy.renames);
  const optional = driftText(task.metadata.optional, entropy.renames);
  const passages = distractorPassages(task.idx, task.task, entropy.guidance, config.rot_level, config.seed).map((passage) => driftText(passage, entropy.renames).text);
  const requiredContext = passages.length === 0 ? required.text : `${required.text}\n\n## Additional reference material\n${passages.join("\n\n")}`;
  const renamedInText = [...new Set([...prompt.renamed, ...required.renamed, ...optional.renamed])].sort();
  const brief: TaskBrief = {
    taskId: String(task.idx),
    category: task.task,
    prompt: prompt.text,
    persona: task.persona,
    requiredContext,
    optionalContext: optional.text,
    externalFacing: EXTERNAL_FACING_CATEGORIES.has(task.task),
    maxSteps: config.max_steps,
    ...todayOf(task),
    entropy: { drift_level: config.drift_level, rot_level: config.rot_level, seed: config.seed },
  };
  return { brief, events: { renamedInText, passages } };
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
  // The purple agent acts in a perturbed copy of the org; the base org is never touched.
  const world = perturbOrg(data.org, config.drift_level, config.rot_level, config.seed);
  const textEntropy: TextEntropy = { renames: world.renames, guidance: guidanceByCategory(data.tasks) };
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
      const { brief, events } = briefFor(task, config, textEntropy);
      const trajectory = await runEpisode(brief, task.idx, world.org, purple, {
        maxSteps: config.max_steps,
        timeoutMs: config.timeout * 1000,
        distractorIds: world.distractorIds,
        textEvents: events,
      });
      const score = isPurpleFailure(trajectory) ? undefined : await scoreEpisode(task, trajectory, judge);
      const outcome: TaskOutcome = { task, trajectory, score };
      outcomes[position] = outcome;
      onEvent({ kind: "task_finished", position: position + 1, total, outcome });
    }
  };
  try {
    await Promise.all(Array.from({ length: Math.min(config.concurrency, Math.max(1, total)) }, worker));
  } finally {
    await world.org.close();
  }
  // After a cancellation, tasks never started leave holes: report only what ran.
  return { selection, outcomes: outcomes.filter(Boolean), startedAt, wallMs: performance.now() - started, entropy: { renames: world.renames, injected: world.injected } };
}
