import type { SelectionMode } from "../log/index.js";
import type { OrgBackend } from "../org/index.js";
import type { TaskRecord, TaskSet } from "../tasks/index.js";
import { PythonRandom } from "../util/index.js";
import { type AssessmentConfig, ConfigError } from "./config.js";
import { checkDataMatch, type DataCheck } from "./data-check.js";

export type { SelectionMode } from "../log/index.js";

export interface Selection {
  readonly mode: SelectionMode;
  /** Tasks of this shard, in evaluation order. */
  readonly tasks: readonly TaskRecord[];
  /** How many tasks the selection had before sharding. */
  readonly selectedBeforeSharding: number;
}

/** A run's tasks and what the data check found of the records they name: chosen once, at the edge, before any work. */
export interface ChosenTasks {
  readonly selection: Selection;
  readonly check: DataCheck;
}

/**
 * The tasks of a run, checked against the org (against the dataset's own Ids: the run's remap
 * comes later). Throws a ConfigError or DataMismatchError that names the field.
 */
export async function chooseTasks(data: { readonly tasks: TaskSet; readonly org: Pick<OrgBackend, "recordIds"> }, config: AssessmentConfig): Promise<ChosenTasks> {
  const selection = selectTasks(data.tasks, config);
  return { selection, check: await checkDataMatch(selection.tasks, data.org, config.allow_data_mismatch) };
}

/**
 * Chooses the tasks of an assessment, exactly as the predecessor did: `task_ids`, else
 * `task_categories` (+ `task_limit`, dataset order), else a `task_limit` sample drawn with
 * CPython's `random.seed(seed); random.sample(tasks, n)`, else all. The gateway's
 * `num_instances` (the tasks of all shards together) limits like `task_limit` (the smaller of
 * the two wins). Then a round-robin shard (`tasks[shard_index::num_shards]`), so the shards of
 * one run share one selection.
 */
export function selectTasks(taskSet: TaskSet, config: AssessmentConfig): Selection {
  let mode: SelectionMode;
  let tasks: TaskRecord[];
  const limits = [config.task_limit, config.num_instances].filter((limit): limit is number => limit !== undefined);
  const limit = limits.length > 0 ? Math.min(...limits) : undefined;
  if (config.task_ids) {
    const missing = config.task_ids.filter((id) => !taskSet.byIdx.has(id));
    if (missing.length > 0) {
      const sorted = [...taskSet.byIdx.keys()].sort((a, b) => a - b);
      throw new ConfigError(
        `config.task_ids: unknown task ${missing.length === 1 ? "index" : "indices"} ${missing.slice(0, 10).join(", ")}${missing.length > 10 ? ", ..." : ""}; this task set has indices ${describeRange(sorted)}`,
      );
    }
    mode = "task_ids";
    tasks = config.task_ids.map((id) => taskSet.byIdx.get(id)!);
    if (config.num_instances !== undefined) tasks = tasks.slice(0, config.num_instances);
  } else if (config.task_categories) {
    const unknown = config.task_categories.filter((category) => !taskSet.categories.includes(category));
    if (unknown.length > 0) {
      throw new ConfigError(`config.task_categories: unknown ${unknown.map((c) => `'${c}'`).join(", ")}; the categories are ${taskSet.categories.join(", ")}`);
    }
    const wanted = new Set(config.task_categories);
    mode = "task_categories";
    tasks = taskSet.tasks.filter((task) => wanted.has(task.task));
    if (limit !== undefined) tasks = tasks.slice(0, limit);
  } else if (limit !== undefined) {
    // CPython's random.sample raises on a sample larger than the population; so do we, with the numbers.
    if (limit > taskSet.tasks.length) {
      const key = config.task_limit === limit ? "task_limit" : "num_instances";
      throw new ConfigError(`config.${key}: ${limit} is more than the ${taskSet.tasks.length} tasks of this task set; leave it out to run them all`);
    }
    mode = "task_limit";
    tasks = new PythonRandom(config.seed).sample(taskSet.tasks, limit);
  } else {
    mode = "all";
    tasks = [...taskSet.tasks];
  }
  const sharded = tasks.filter((_, position) => position % config.num_shards === config.shard_index);
  return { mode, tasks: sharded, selectedBeforeSharding: tasks.length };
}

function describeRange(sorted: number[]): string {
  if (sorted.length === 0) return "none";
  const contiguous = sorted[sorted.length - 1]! - sorted[0]! + 1 === sorted.length;
  return contiguous ? `${sorted[0]}-${sorted[sorted.length - 1]}` : sorted.slice(0, 20).join(", ") + (sorted.length > 20 ? ", ..." : "");
}
