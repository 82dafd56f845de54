import { z } from "zod";
import type { EpisodeRecord } from "../log/index.js";
import { episodePassed } from "../scoring/index.js";
import { pyRound, Random } from "../util/index.js";

/**
 * What trials and paired figures are computed from, per task: how many of its episodes ran and
 * passed in the run's (perturbed) view, and in a paired run in the clean one, with the trials
 * the perturbation cost (`lost`: clean passed, perturbed failed). Counts only, so the shards of
 * a run add up: `merge` concatenates the shards' tasks and computes the very figures of one run.
 */
export const TaskTrialsSchema = z.object({
  task_idx: z.number().int(),
  category: z.string(),
  trials: z.number().int(),
  passed: z.number().int(),
  clean_trials: z.number().int().optional(),
  clean_passed: z.number().int().optional(),
  lost: z.number().int().optional(),
});
export type TaskTrials = z.infer<typeof TaskTrialsSchema>;

/** Per perturbation kind, over a paired run's perturbed episodes it touched: how many, how many had a passing clean twin, how many of those failed. */
export const KindLossesSchema = z.object({ family: z.string(), touched: z.number().int(), clean_passed: z.number().int(), lost: z.number().int() });
export type KindLosses = z.infer<typeof KindLossesSchema>;

/** Resamples of the bootstrap over tasks. */
export const BOOTSTRAP_RESAMPLES = 1000;
const LEVEL = 0.95;

const isClean = (record: EpisodeRecord) => record.condition === "clean";

/** Sorted by task index: the bootstrap resamples this list, so its order must not depend on the shards. */
export function taskTrialsOf(records: readonly EpisodeRecord[], paired: boolean): TaskTrials[] {
  const tasks = new Map<number, TaskTrials>();
  const clean = new Map<string, boolean>();
  for (const record of records) if (isClean(record)) clean.set(`${record.task.idx}:${record.trial ?? 1}`, episodePassed(record));
  for (const record of records) {
    const entry = tasks.get(record.task.idx) ?? {
      task_idx: record.task.idx,
      category: record.task.category,
      trials: 0,
      passed: 0,
      ...(paired ? { clean_trials: 0, clean_passed: 0, lost: 0 } : {}),
    };
    const passed = episodePassed(record);
    if (isClean(record)) {
      entry.clean_trials = (entry.clean_trials ?? 0) + 1;
      if (passed) entry.clean_passed = (entry.clean_passed ?? 0) + 1;
    } else {
      entry.trials++;
      if (passed) entry.passed++;
      if (paired && !passed && clean.get(`${record.task.idx}:${record.trial ?? 1}`) === true) entry.lost = (entry.lost ?? 0) + 1;
    }
    tasks.set(record.task.idx, entry);
  }
  return [...tasks.values()].sort((a, b) => a.task_idx - b.task_idx);
}

/** Per kind of the plan, what it cost on the perturbed episodes it touched (their `touchedBy`). */
export function kindLossesOf(records: readonly EpisodeRecord[], kinds: readonly { kind: string; family: string }[]): Record<string, KindLosses> {
  const clean = new Map<string, boolean>();
  for (const record of records) if (isClean(record)) clean.set(`${record.task.idx}:${record.trial ?? 1}`, episodePassed(record));
  const losses: Record<string, KindLosses> = Object.fromEntries(kinds.map(({ kind, family }) => [kind, { family, touched: 0, clean_passed: 0, lost: 0 }]));
  for (const record of records) {
    if (isClean(record)) continue;
    const twinPassed = clean.get(`${record.task.idx}:${record.trial ?? 1}`) === true;
    for (const kind of record.touchedBy ?? []) {
      const entry = losses[kind] ?? { family: "unknown", touched: 0, clean_passed: 0, lost: 0 };
      losses[kind] = entry;
      entry.touched++;
      if (twinPassed) {
        entry.clean_passed++;
        if (!episodePassed(record)) entry.lost++;
      }
    }
  }
  return losses;
}

/** Kinds' losses of several shards, summed. */
export function sumKindLosses(shards: readonly Record<string, KindLosses>[]): Record<string, KindLosses> {
  const total: Record<string, KindLosses> = {};
  for (const shard of shards)
    for (const [kind, entry] of Object.entries(shard)) {
      const sum = total[kind] ?? { family: entry.family, touched: 0, clean_passed: 0, lost: 0 };
      total[kind] = sum;
      sum.touched += entry.touched;
      sum.clean_passed += entry.clean_passed;
      sum.lost += entry.lost;
    }
  return total;
}

/** C(n, k) as a float; exact for the small n of trials. */
function choose(n: number, k: number): number {
  if (k < 0 || k > n) return 0;
  let result = 1;
  for (let i = 1; i <= k; i++) result = (result * (n - k + i)) / i;
  return result;
}

/**
 * pass^k as τ-bench estimates it, unbiased: per task C(c, k) / C(n, k) (the chance that k of its
 * n trials drawn without replacement all passed), averaged over the tasks with at least k trials.
 */
export function passHat(tasks: readonly Pick<TaskTrials, "trials" | "passed">[], k: number): number | null {
  const eligible = tasks.filter((task) => task.trials >= k);
  if (eligible.length === 0) return null;
  return eligible.reduce((sum, task) => sum + choose(task.passed, k) / choose(task.trials, k), 0) / eligible.length;
}

/**
 * A 95% percentile interval of each statistic by the bootstrap over tasks: the tasks resampled
 * with replacement BOOTSTRAP_RESAMPLES times with a generator seeded from the assessment seed
 * and `salt`, so the same tasks and seed give the same interval in any process (and a merged run
 * the unsharded one's).
 */
function bootstrap<T>(tasks: readonly T[], statistics: (sample: readonly T[]) => (number | null)[], seed: number, salt: string): ([number, number] | null)[] {
  const point = statistics(tasks);
  if (tasks.length === 0) return point.map(() => null);
  const random = new Random(`${seed}:bootstrap:${salt}`);
  const draws: number[][] = point.map(() => []);
  for (let b = 0; b < BOOTSTRAP_RESAMPLES; b++) {
    const sample = Array.from({ length: tasks.length }, () => tasks[random.int(0, tasks.length - 1)]!);
    statistics(sample).forEach((value, i) => {
      if (value !== null) draws[i]!.push(value);
    });
  }
  return draws.map((values, i) => {
    if (point[i] === null || values.length === 0) return null;
    values.sort((a, b) => a - b);
    const at = (q: number) => values[Math.min(values.length - 1, Math.max(0, Math.round(q * (values.length - 1))))]!;
    return [round(at((1 - LEVEL) / 2)), round(at(1 - (1 - LEVEL) / 2))];
  });
}

const round = (value: number) => pyRound(value, 4);
const roundOrNull = (value: number | null) => (value === null ? null : round(value));

/** pass^1..k with their intervals over one set of tasks. */
function passFigures(tasks: readonly TaskTrials[], k: number, seed: number, salt: string) {
  const ks = Array.from({ length: k }, (_, i) => i + 1);
  // Each task's C(c, k') / C(n, k') once (null below k' trials): a resample only averages them, the
  // same sums in the same order as passHat, so the figures are passHat's to the last bit.
  const perTask = tasks.map((task) => ks.map((kk) => (task.trials >= kk ? choose(task.passed, kk) / choose(task.trials, kk) : null)));
  const statistic = (sample: readonly (number | null)[][]) =>
    ks.map((_, i) => {
      let sum = 0;
      let count = 0;
      for (const values of sample) {
        const value = values[i]!;
        if (value === null) continue;
        sum += value;
        count++;
      }
      return count === 0 ? null : sum / count;
    });
  const intervals = bootstrap(perTask, statistic, seed, salt);
  const point = statistic(perTask);
  return {
    tasks: tasks.length,
    episodes: tasks.reduce((sum, task) => sum + task.trials, 0),
    passed: tasks.reduce((sum, task) => sum + task.passed, 0),
    pass_at_1: roundOrNull(point[0] ?? null),
    pass_hat: Object.fromEntries(ks.map((kk, i) => [String(kk), roundOrNull(point[i]!)])),
    interval: Object.fromEntries(ks.map((kk, i) => [String(kk), intervals[i]!])),
  };
}

const groupBy = (tasks: readonly TaskTrials[]) => {
  const groups = new Map<string, TaskTrials[]>();
  for (const task of tasks) groups.set(task.category, [...(groups.get(task.category) ?? []), task]);
  return groups;
};

/**
 * The results' `trials` block: per task the pass count; overall and per category pass@1 (the
 * mean over trials), pass^k' for every k' up to the trials, and each one's 95% bootstrap interval.
 */
export function trialsOf(tasks: readonly TaskTrials[], k: number, seed: number) {
  return {
    k,
    interval_method: `bootstrap over tasks, ${BOOTSTRAP_RESAMPLES} resamples, 95% percentile, seeded from the assessment seed`,
    ...passFigures(tasks, k, seed, "overall"),
    by_category: Object.fromEntries([...groupBy(tasks)].map(([category, group]) => [category, passFigures(group, k, seed, category)])),
    per_task: tasks.map((task) => ({ task_idx: task.task_idx, category: task.category, trials: task.trials, passed: task.passed })),
  };
}

/** Perturbed over clean pass rate of a set of tasks; null when nothing passed clean. */
function rates(tasks: readonly TaskTrials[]) {
  const clean = tasks.reduce((sum, task) => sum + (task.clean_trials ?? 0), 0);
  const cleanPassed = tasks.reduce((sum, task) => sum + (task.clean_passed ?? 0), 0);
  const perturbed = tasks.reduce((sum, task) => sum + task.trials, 0);
  const perturbedPassed = tasks.reduce((sum, task) => sum + task.passed, 0);
  const cleanRate = clean === 0 ? null : cleanPassed / clean;
  const perturbedRate = perturbed === 0 ? null : perturbedPassed / perturbed;
  const ratio = cleanRate === null || perturbedRate === null || cleanRate === 0 ? null : perturbedRate / cleanRate;
  return { clean, cleanPassed, perturbed, perturbedPassed, cleanRate, perturbedRate, ratio };
}

/** The flag of a robustness figure whose clean pass rate is below its perturbed one (a ratio above 1). */
export const ROBUSTNESS_FLAG = "clean_below_perturbed" as const;

function robustnessFigures(tasks: readonly TaskTrials[], seed: number, salt: string) {
  const figures = rates(tasks);
  const [interval] = bootstrap(tasks, (sample) => [rates(sample).ratio], seed, `robustness:${salt}`);
  return {
    tasks: tasks.length,
    clean: { episodes: figures.clean, passed: figures.cleanPassed, pass_rate: roundOrNull(figures.cleanRate) },
    perturbed: { episodes: figures.perturbed, passed: figures.perturbedPassed, pass_rate: roundOrNull(figures.perturbedRate) },
    ratio: roundOrNull(figures.ratio),
    ratio_interval: interval ?? null,
    // A purple that fails clean on purpose raises the ratio: a clean rate below the perturbed one is said, never taken as robustness.
    flag: figures.cleanRate !== null && figures.perturbedRate !== null && figures.cleanRate < figures.perturbedRate ? ROBUSTNESS_FLAG : null,
    lost: tasks.reduce((sum, task) => sum + (task.lost ?? 0), 0),
  };
}

/**
 * The results' `robustness` block of a paired run: clean and perturbed pass rates, their ratio
 * (perturbed / clean: 1 is no loss) with a bootstrap interval, overall and per category; per
 * perturbation kind the answers it cost on the episodes it touched.
 */
export function robustnessOf(tasks: readonly TaskTrials[], kinds: Record<string, KindLosses>, seed: number) {
  return {
    ...robustnessFigures(tasks, seed, "overall"),
    by_category: Object.fromEntries([...groupBy(tasks)].map(([category, group]) => [category, robustnessFigures(group, seed, category)])),
    by_kind: Object.fromEntries(
      Object.entries(kinds).map(([kind, entry]) => [kind, { ...entry, loss_rate: entry.clean_passed === 0 ? null : round(entry.lost / entry.clean_passed) }]),
    ),
  };
}

/** A 95% interval [low, high]; null where the statistic has no value. */
const IntervalSchema = z.tuple([z.number(), z.number()]).nullable();

const PassFiguresSchema = z.object({
  tasks: z.number(),
  episodes: z.number(),
  passed: z.number(),
  pass_at_1: z.number().nullable(),
  pass_hat: z.record(z.string(), z.number().nullable()),
  interval: z.record(z.string(), IntervalSchema),
});

/** The `trials` block as readers (the report, compare) check it. */
export const TrialsBlockSchema = PassFiguresSchema.extend({
  k: z.number().int(),
  interval_method: z.string(),
  by_category: z.record(z.string(), PassFiguresSchema),
  per_task: z.array(TaskTrialsSchema.pick({ task_idx: true, category: true, trials: true, passed: true })),
});
export type TrialsBlock = z.infer<typeof TrialsBlockSchema>;

const RateSchema = z.object({ episodes: z.number(), passed: z.number(), pass_rate: z.number().nullable() });
const RobustnessFiguresSchema = z.object({
  tasks: z.number(),
  clean: RateSchema,
  perturbed: RateSchema,
  ratio: z.number().nullable(),
  ratio_interval: IntervalSchema,
  /** Absent in results written before the flag. */
  flag: z.literal(ROBUSTNESS_FLAG).nullable().optional(),
  lost: z.number(),
});

/** The `robustness` block as readers check it. */
export const RobustnessBlockSchema = RobustnessFiguresSchema.extend({
  by_category: z.record(z.string(), RobustnessFiguresSchema),
  by_kind: z.record(z.string(), KindLossesSchema.extend({ loss_rate: z.number().nullable() })),
});
export type RobustnessBlock = z.infer<typeof RobustnessBlockSchema>;
