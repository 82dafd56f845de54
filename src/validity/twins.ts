import type { AssessmentData } from "../assessment/index.js";
import { analystStrategy } from "../baselines/index.js";
import type { EntropyLevels } from "../entropy/index.js";
import type { Calibration } from "../scoring/index.js";
import type { TaskRecord } from "../tasks/index.js";
import { TwinKey } from "../twins/index.js";
import type { CheckResult } from "./checks.js";
import { figure, type RealMeasurement, runRealSuite } from "./real.js";
import { type RosterEntry, roster } from "./roster.js";
import { type EpisodeFigure, type Measurement, runSuite } from "./run.js";

/**
 * The validity suite at full size: the twin set (src/twins/, one twin per real task on a
 * generated full-size org) per seed, run by every reference and degenerate purple of the roster
 * and the reference analyst at a few level pairs; and the memorisation figures: how often a twin's
 * answer changes with the seed, and what the public answer file is worth on twins (the org-free
 * lookups of answer-key.ts holding the real file, against the category prior).
 */

/** The level pairs the twins are run at: the ends and the middle (the full cross is the sample's). */
export const TWIN_LEVELS: readonly EntropyLevels[] = [
  { drift_level: "none", rot_level: "none" },
  { drift_level: "medium", rot_level: "medium" },
  { drift_level: "high", rot_level: "high" },
];
export const TWIN_SEEDS: readonly number[] = [1, 2];

/** Points a lookup may pass above the best zero-work purple in a category on twins (judges' edge cases). */
export const TWIN_LOOKUP_SLACK_POINTS = 2;

/** The analyst's goals on twins (issue 19): reported beside its figures, not failed on. */
export const ANALYST_GOALS = { noneNone: 0.95, highHigh: 0.9, perCategory: 0.8 } as const;

/** The purples run on twins: the roster's references and degenerates (built on this seed's twins: the oracle knows them) and the analyst. */
export function twinRoster(tasks: AssessmentData["tasks"]): RosterEntry[] {
  return [
    ...roster(tasks).filter((entry) => entry.kind === "reference" || entry.kind === "degenerate"),
    {
      name: "analyst",
      kind: "reference",
      description: "reads the real wording and the schema, queries the org like a careful analyst (src/baselines/analyst/)",
      strategy: analystStrategy,
    },
  ];
}

/** One seed's twin set as the suite saw it. */
export interface TwinSeed {
  readonly seed: number;
  readonly twins: number;
  readonly missing: readonly { readonly idx: number; readonly category: string }[];
}

/** Per category: how many twins exist at both seeds, and how many of those have a different answer. */
export interface AnswerChange {
  readonly category: string;
  readonly metric: string;
  readonly compared: number;
  readonly differ: number;
}

/** Per category with twins: the best lookup's and the best zero-work purple's pass rates (`success`), per seed. */
export interface MemorisationFigure {
  readonly category: string;
  readonly seed: number;
  readonly lookup: { readonly name: string; readonly pass: number };
  readonly prior: { readonly name: string; readonly pass: number };
  /**
   * The category prior on the twins themselves: the share of its twins whose answer is the
   * category's most common one there. A twin's answer is drawn from its own org, apart from its
   * source's, so a lookup's answers match by chance at most this often on average (the sum over
   * answers of the file's share times the twins' share is at most the largest twins' share); the
   * zero-work purples answer the real file's most common answer, which on twins can be rarer.
   */
  readonly majority: number;
  readonly tasks: number;
}

export type TwinsReport =
  | { readonly missing: string }
  | {
      readonly source: string;
      readonly sourceTasks: number;
      readonly seeds: readonly TwinSeed[];
      readonly levels: readonly EntropyLevels[];
      readonly roster: readonly RosterEntry[];
      /** Each purple at each level pair, over both seeds' twins. */
      readonly measurements: readonly Measurement[];
      readonly answerChange: readonly AnswerChange[];
      readonly memorisation: readonly MemorisationFigure[];
      /** Categories that had no twin at some seed (their twin maker is missing or failing): not measured, said. */
      readonly unmeasured: readonly string[];
      readonly checks: readonly CheckResult[];
    };

const answerKey = (task: TaskRecord) => JSON.stringify(task.reward_metric === "exact_match" ? [...task.answer].map(String).sort() : task.answer.map(String));

/** The share of twins whose answer differs between two seeds' sets, per category (by source idx). */
export function answerChanges(a: readonly TaskRecord[], b: readonly TaskRecord[]): AnswerChange[] {
  const other = new Map(b.map((task) => [task.idx, task]));
  const byCategory = new Map<string, { metric: string; compared: number; differ: number }>();
  for (const task of a) {
    const twin = other.get(task.idx);
    if (!twin) continue;
    const entry = byCategory.get(task.task) ?? { metric: task.reward_metric, compared: 0, differ: 0 };
    entry.compared++;
    if (answerKey(task) !== answerKey(twin)) entry.differ++;
    byCategory.set(task.task, entry);
  }
  return [...byCategory].map(([category, entry]) => ({ category, ...entry }));
}

/**
 * What the public answer file is worth on one seed's twins: every org-free purple holding the
 * real file answers every twin (Ids remapped with a secret, as a run shows them); per category,
 * the best lookup against the best zero-work purple (the category prior and its kin).
 */
export async function memorisationOnTwins(real: readonly TaskRecord[], twins: readonly TaskRecord[], seed: number): Promise<MemorisationFigure[]> {
  const measurements = await runRealSuite(twins, {
    publicFile: real,
    modes: [{ label: `twins, remap on, seed ${seed}`, remapIds: true, seed, secret: "validity-suite operator secret" }],
  });
  const categories = [...new Set(twins.map((task) => task.task))];
  const best = (pool: readonly RealMeasurement[], category: string) =>
    pool
      .map((m) => ({ name: m.strategy, pass: figure(m.outcomes, "success", "all", category).pass }))
      .reduce((top, entry) => (entry.pass > top.pass ? entry : top), { name: "none", pass: -1 });
  const lookups = measurements.filter((m) => m.kind === "lookup");
  const zeroWork = measurements.filter((m) => m.kind === "zero-work");
  return categories.map((category) => ({
    category,
    seed,
    lookup: best(lookups, category),
    prior: best(zeroWork, category),
    majority: majorityShare(twins.filter((task) => task.task === category)),
    tasks: twins.filter((task) => task.task === category).length,
  }));
}

/** The share of these twins whose answer is their most common one (answers compared as the metric does: an exact_match list in any order). */
export function majorityShare(twins: readonly TaskRecord[]): number {
  if (twins.length === 0) return 0;
  const counts = new Map<string, number>();
  for (const task of twins) counts.set(answerKey(task), (counts.get(answerKey(task)) ?? 0) + 1);
  return Math.max(...counts.values()) / twins.length;
}

/** Folds one purple's measurements of several seeds at a level pair into one (rates weighted by episodes). */
function merge(parts: readonly Measurement[]): Measurement {
  const first = parts[0]!;
  const weight = (m: Measurement) => m.episodes.size;
  const totalWeight = parts.reduce((sum, m) => sum + weight(m), 0) || 1;
  const mean = (value: (m: Measurement) => number) => parts.reduce((sum, m) => sum + value(m) * weight(m), 0) / totalWeight;
  const dimensions = Object.fromEntries(
    Object.keys(first.dimensions).map((dimension) => {
      const present = parts.filter((m) => m.dimensions[dimension] !== null && m.dimensions[dimension] !== undefined);
      const w = present.reduce((sum, m) => sum + weight(m), 0);
      return [dimension, present.length === 0 || w === 0 ? null : present.reduce((sum, m) => sum + m.dimensions[dimension]! * weight(m), 0) / w];
    }),
  ) as Measurement["dimensions"];
  const episodes = new Map<string, EpisodeFigure>();
  for (const m of parts) for (const [key, value] of m.episodes) episodes.set(key, value);
  return { ...first, passRate: mean((m) => m.passRate), total: mean((m) => m.total), dimensions, episodes };
}

/** A measurement's episodes, of one seed's only when `seed` is given (episodes are keyed `seed:task_idx`, src/validity/run.ts). */
export function episodesOf(m: Measurement, seed?: number): EpisodeFigure[] {
  return [...m.episodes].filter(([key]) => seed === undefined || key.startsWith(`${seed}:`)).map(([, episode]) => episode);
}

/** Per category, a measurement's pass rate over its episodes (of one seed's only, when `seed` is given). */
export function categoryPassRates(m: Measurement, seed?: number): Map<string, number> {
  const counts = new Map<string, { passed: number; total: number }>();
  for (const episode of episodesOf(m, seed)) {
    const entry = counts.get(episode.category) ?? { passed: 0, total: 0 };
    entry.total++;
    if (episode.passed) entry.passed++;
    counts.set(episode.category, entry);
  }
  return new Map([...counts].map(([category, { passed, total }]) => [category, passed / total]));
}

export interface TwinsSuiteOptions {
  readonly levels?: readonly EntropyLevels[];
  readonly seeds?: readonly number[];
  /** Only these purples of the twin roster (default: all). */
  readonly purples?: readonly string[];
  readonly concurrency?: number;
  readonly onProgress?: (label: string) => void;
}

/**
 * Runs the twin part: per seed, the twin set (`dataFor`, built or read from the cache) run by the
 * twin roster at every level pair, and the memorisation figures; then the checks. Categories with
 * no twin (a twin maker not written yet) are listed, and their checks skipped, by name.
 */
export async function runTwinsSuite(
  real: readonly TaskRecord[],
  source: string,
  dataFor: (seed: number, key: TwinKey) => Promise<AssessmentData>,
  calibration: Calibration,
  options: TwinsSuiteOptions = {},
): Promise<TwinsReport> {
  const levels = options.levels ?? TWIN_LEVELS;
  const seeds = options.seeds ?? TWIN_SEEDS;
  const perSeed: TwinSeed[] = [];
  const sets = new Map<number, TaskRecord[]>();
  const measured: Measurement[] = [];
  const memorisation: MemorisationFigure[] = [];
  let rosterShown: RosterEntry[] = [];
  for (const seed of seeds) {
    let data: AssessmentData;
    try {
      // Unkeyed: the suite's figures are the same on every machine (the between-key spread is twin-keys.ts's).
      data = await dataFor(seed, TwinKey.unkeyed(seed));
    } catch (error) {
      return { missing: `no twin set at seed ${seed}: ${(error as Error).message}` };
    }
    try {
      const missing = data.sources.tasks.builtFrom?.missing ?? [];
      perSeed.push({ seed, twins: data.tasks.tasks.length, missing });
      sets.set(seed, [...data.tasks.tasks]);
      const purples = twinRoster(data.tasks).filter((entry) => !options.purples || options.purples.includes(entry.name));
      rosterShown = purples;
      options.onProgress?.(`[twins] seed ${seed}: ${data.tasks.tasks.length} twins, ${missing.length} missing; ${purples.length} purples × ${levels.length} level pairs`);
      measured.push(
        ...(await runSuite(data, calibration, purples, {
          levels,
          seeds: [seed],
          concurrency: options.concurrency ?? 16,
          onProgress: (done, total, label) => options.onProgress?.(`[twins ${done}/${total}] ${label}`),
        })),
      );
      memorisation.push(...(await memorisationOnTwins(real, data.tasks.tasks, seed)));
    } finally {
      await data.org.close();
    }
  }
  const measurements = rosterShown.flatMap((entry) =>
    levels.map((level) => merge(measured.filter((m) => m.purple === entry.name && m.level.drift_level === level.drift_level && m.level.rot_level === level.rot_level))),
  );
  const [a, b] = seeds.map((seed) => sets.get(seed) ?? []);
  const answerChange = a && b ? answerChanges(a, b) : [];
  const allCategories = [...new Set(real.map((task) => task.task))];
  const unmeasured = allCategories.filter((category) => seeds.some((seed) => !(sets.get(seed) ?? []).some((task) => task.task === category)));
  return {
    source,
    sourceTasks: real.length,
    seeds: perSeed,
    levels,
    roster: rosterShown,
    measurements,
    answerChange,
    memorisation,
    unmeasured,
    checks: twinChecks(perSeed, memorisation, real),
  };
}

/**
 * The twin part's rules: every source task has a twin at every seed (a missing twin is a defect
 * to fix, not a task to drop), and in every category with twins no lookup holding the real answer
 * file passes more than the best zero-work purple plus TWIN_LOOKUP_SLACK_POINTS.
 */
function twinChecks(seeds: readonly TwinSeed[], memorisation: readonly MemorisationFigure[], real: readonly TaskRecord[]): CheckResult[] {
  const checks: CheckResult[] = seeds.map((seed) => ({
    rule: "every real task has a twin",
    where: `twins, seed ${seed.seed}`,
    ok: seed.missing.length === 0,
    detail:
      seed.missing.length === 0 ? `${seed.twins} twins of ${real.length} tasks` : `${seed.missing.length} of ${real.length} tasks have no twin (${summariseMissing(seed.missing)})`,
  }));
  for (const entry of memorisation) {
    const ok = entry.lookup.pass <= Math.max(entry.prior.pass, entry.majority) + TWIN_LOOKUP_SLACK_POINTS / 100;
    checks.push({
      rule: `the public answer file is worth no more than the category prior (the best zero-work purple, or the twins' most common answer) +${TWIN_LOOKUP_SLACK_POINTS} points, on twins`,
      where: `twins, seed ${entry.seed}, ${entry.category}`,
      ok,
      detail: `${entry.lookup.name} ${(100 * entry.lookup.pass).toFixed(1)}% vs ${entry.prior.name} ${(100 * entry.prior.pass).toFixed(1)}%, most common answer ${(100 * entry.majority).toFixed(1)}%, over ${entry.tasks} twins`,
    });
  }
  return checks;
}

/** "activity_priority 100, case_routing 98": the categories of missing twins with their counts. */
export function summariseMissing(missing: readonly { readonly category: string }[]): string {
  const counts = new Map<string, number>();
  for (const entry of missing) counts.set(entry.category, (counts.get(entry.category) ?? 0) + 1);
  return [...counts].map(([category, count]) => `${category} ${count}`).join(", ");
}
