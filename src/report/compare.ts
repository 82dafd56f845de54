import type { Dimension } from "../log/index.js";
import { orderDimensions } from "../scoring/index.js";
import { groupBy } from "../util/index.js";
import { type ReportResults, resultsDimensions, type TaskEntry } from "./view/index.js";

/** A figure in two runs and its change (`after − before`); null where either side has no value. */
export interface Delta {
  readonly before: number | null;
  readonly after: number | null;
  readonly delta: number | null;
}

export type DimensionDeltas = Readonly<Record<Dimension, Delta>>;

/** Who and what one side of a comparison was. */
export interface RunSide {
  readonly label: string;
  readonly runId: string;
  readonly agent: string;
  readonly tasks: number;
  readonly dataset: string;
  readonly driftLevel: string;
  readonly rotLevel: string;
  readonly seed: number;
}

export interface CategoryDelta {
  readonly category: string;
  readonly countBefore: number;
  readonly countAfter: number;
  /** 0..1 */
  readonly passRate: Delta;
  readonly avgScore: Delta;
  /** 0..1: the chance floor of the category's tasks in each run (they differ when the tasks or the remapping differ). */
  readonly floor: Delta;
  /** The lift over the floor, (pass − floor) / (1 − floor); null where a floor is unknown or 1. */
  readonly lift: Delta;
  readonly dimensions: DimensionDeltas;
}

/** A task that passed in one run and failed in the other. */
export interface Flip {
  readonly idx: string;
  readonly category: string;
  readonly direction: "fixed" | "broken";
  readonly scoreBefore: number;
  readonly scoreAfter: number;
  readonly terminationAfter: string;
}

export interface Comparison {
  readonly before: RunSide;
  readonly after: RunSide;
  /** 0..1 */
  readonly passRate: Delta;
  readonly avgScore: Delta;
  /** 0..1 */
  readonly floor: Delta;
  readonly lift: Delta;
  /** The dimensions either run holds, in the registry's order: the keys of every `dimensions` here. */
  readonly dimensionNames: readonly Dimension[];
  readonly dimensions: DimensionDeltas;
  readonly categories: readonly CategoryDelta[];
  readonly flipped: readonly Flip[];
  readonly onlyBefore: readonly string[];
  readonly onlyAfter: readonly string[];
  /**
   * pass@1 with its 95% interval in each run (runs with trials), and whether the difference is
   * beyond them: the intervals do not overlap. Null where a run has no interval.
   */
  readonly passInterval: {
    readonly before: readonly [number, number] | null;
    readonly after: readonly [number, number] | null;
    readonly beyond: boolean | null;
  };
  /** The robustness ratio (perturbed / clean pass rate) of paired runs, with its intervals likewise. */
  readonly robustness: {
    readonly ratio: Delta;
    readonly before: readonly [number, number] | null;
    readonly after: readonly [number, number] | null;
    readonly beyond: boolean | null;
  };
  /** Config keys (and the dataset) whose values differ, as JSON. */
  readonly configDifferences: readonly { readonly key: string; readonly before: string; readonly after: string }[];
}

const delta = (before: number | null | undefined, after: number | null | undefined): Delta => ({
  before: before ?? null,
  after: after ?? null,
  delta: before === null || before === undefined || after === null || after === undefined ? null : after - before,
});

function side(results: ReportResults, label: string): RunSide {
  return {
    label,
    runId: results.run.id,
    agent: results.participants.agent,
    tasks: results.summary.total_tasks,
    dataset: results.dataset,
    driftLevel: results.extension_metrics.drift_level,
    rotLevel: results.extension_metrics.rot_level,
    seed: results.seed,
  };
}

/** The mean of a dimension over the tasks where it applies; null where it applies to none. */
export function dimensionMean(tasks: readonly TaskEntry[], dimension: Dimension): number | null {
  const values = tasks.map((task) => task.dimension_scores[dimension]).filter((value): value is number => typeof value === "number");
  return values.length === 0 ? null : values.reduce((a, b) => a + b, 0) / values.length;
}

/** Each category's tasks, in first-appearance order. */
export function tasksByCategory(results: ReportResults): Map<string, TaskEntry[]> {
  // A paired run's clean episodes are its robustness block's, not its categories'.
  return groupBy(
    results.results.filter((task) => task.condition !== "clean"),
    (task) => task.task_category,
  );
}

/** How run `after` differs from run `before`: per category and per dimension, and the tasks that flipped. */
export function compareResults(before: ReportResults, after: ReportResults, labels: { before: string; after: string }): Comparison {
  const names = orderDimensions([...resultsDimensions(before), ...resultsDimensions(after)]);
  const perDimension = (value: (dimension: Dimension) => Delta): DimensionDeltas => Object.fromEntries(names.map((dimension) => [dimension, value(dimension)]));
  const groupsBefore = tasksByCategory(before);
  const groupsAfter = tasksByCategory(after);
  const categories = [...new Set([...groupsBefore.keys(), ...groupsAfter.keys()])].map((category): CategoryDelta => {
    const a = before.by_category[category];
    const b = after.by_category[category];
    const tasksA = groupsBefore.get(category) ?? [];
    const tasksB = groupsAfter.get(category) ?? [];
    return {
      category,
      countBefore: a?.count ?? 0,
      countAfter: b?.count ?? 0,
      passRate: delta(a?.pass_rate, b?.pass_rate),
      avgScore: delta(a?.avg_score, b?.avg_score),
      floor: delta(a?.floor, b?.floor),
      lift: delta(a?.lift, b?.lift),
      dimensions: perDimension((dimension) => delta(dimensionMean(tasksA, dimension), dimensionMean(tasksB, dimension))),
    };
  });
  const firstByIdx = (results: ReportResults) => {
    const map = new Map<string, TaskEntry>();
    for (const task of results.results) if (!map.has(task.task_idx)) map.set(task.task_idx, task);
    return map;
  };
  const tasksA = firstByIdx(before);
  const tasksB = firstByIdx(after);
  const flipped: Flip[] = [];
  for (const [idx, a] of tasksA) {
    const b = tasksB.get(idx);
    if (!b || a.success === b.success) continue;
    flipped.push({
      idx,
      category: b.task_category,
      direction: b.success ? "fixed" : "broken",
      scoreBefore: a.total_score,
      scoreAfter: b.total_score,
      terminationAfter: b.termination,
    });
  }
  return {
    before: side(before, labels.before),
    after: side(after, labels.after),
    passRate: delta(before.summary.pass_rate, after.summary.pass_rate),
    avgScore: delta(before.summary.avg_score, after.summary.avg_score),
    floor: delta(before.summary.floor, after.summary.floor),
    lift: delta(before.summary.lift, after.summary.lift),
    dimensionNames: names,
    dimensions: perDimension((dimension) => delta(before.dimension_averages[dimension], after.dimension_averages[dimension])),
    categories,
    flipped,
    onlyBefore: [...tasksA.keys()].filter((idx) => !tasksB.has(idx)),
    onlyAfter: [...tasksB.keys()].filter((idx) => !tasksA.has(idx)),
    passInterval: beyond(before.trials?.interval["1"] ?? null, after.trials?.interval["1"] ?? null),
    robustness: {
      ratio: delta(before.robustness?.ratio, after.robustness?.ratio),
      ...beyond(before.robustness?.ratio_interval ?? null, after.robustness?.ratio_interval ?? null),
    },
    configDifferences: configDifferences(before, after),
  };
}

/** Two intervals, and whether they are apart (neither overlaps the other): a difference beyond the runs' own variance. */
function beyond(before: readonly [number, number] | null, after: readonly [number, number] | null) {
  return { before, after, beyond: before && after ? before[1] < after[0] || after[1] < before[0] : null };
}

function configDifferences(before: ReportResults, after: ReportResults): Comparison["configDifferences"] {
  const a: Record<string, unknown> = { dataset: before.dataset, ...before.config };
  const b: Record<string, unknown> = { dataset: after.dataset, ...after.config };
  return [...new Set([...Object.keys(a), ...Object.keys(b)])]
    .map((key) => ({ key, before: JSON.stringify(a[key]) ?? "(unset)", after: JSON.stringify(b[key]) ?? "(unset)" }))
    .filter((difference) => difference.before !== difference.after);
}
