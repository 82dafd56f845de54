import type { AssessmentData } from "../assessment/index.js";
import { analystStrategy, naiveStrategy } from "../baselines/index.js";
import type { EntropyLevels } from "../entropy/index.js";
import type { Calibration } from "../scoring/index.js";
import { TwinKey } from "../twins/index.js";
import { flakyStrategy, type RosterEntry } from "./roster.js";
import { runSuite } from "./run.js";

/**
 * The between-key spread: a twin set's key (src/twins/key.ts) comes from the operator's secret
 * and the seed, so two operators' runs at one seed are on different twins. A pass rate is then
 * worth comparing across leaderboards only if it barely depends on the key: each purple is run on
 * the twin sets of several secrets at one seed, and the standard deviation of its pass rate over
 * the keys is reported against TWIN_KEY_SPREAD_GOAL_POINTS.
 */

/** The spread a purple's pass rate may have over twin keys (points): the goal reported beside the figures. */
export const TWIN_KEY_SPREAD_GOAL_POINTS = 1.5;

/** The flaky purple's share of wrong episodes. */
export const FLAKY_SHARE = 0.3;

/** The secrets of the measurement: public, so that anyone can build the same keys and repeat it. */
export const twinKeySecret = (index: number) => `validity twin key ${index}`;

/** The purples measured over keys: the reference analyst, the naive solver, and the analyst wrong in 30% of episodes. */
export function twinKeyRoster(): RosterEntry[] {
  return [
    { name: "analyst", kind: "reference", description: "the reference analyst (src/baselines/analyst/)", strategy: analystStrategy },
    { name: "naive", kind: "reference", description: "the sample's solver without care", strategy: naiveStrategy },
    {
      name: "flaky-analyst",
      kind: "reference",
      description: `the analyst, answering a wrong answer at once in ${100 * FLAKY_SHARE}% of episodes (chosen by a hash of the episode id and task text, so other episodes on each key)`,
      strategy: flakyStrategy(analystStrategy, FLAKY_SHARE),
    },
  ];
}

/** One purple's pass rate per key, their mean and standard deviation (points). */
export interface KeySpread {
  readonly purple: string;
  readonly description: string;
  readonly perKey: readonly { readonly key: string; readonly twins: number; readonly passRate: number }[];
  readonly meanPoints: number;
  /** The sample standard deviation (n − 1) over the keys, in points. */
  readonly sdPoints: number;
}

export interface TwinKeysReport {
  readonly seed: number;
  readonly level: EntropyLevels;
  /** The keys by their digests, in order. */
  readonly keys: readonly string[];
  readonly spreads: readonly KeySpread[];
  readonly seconds: number;
}

export interface TwinKeysOptions {
  readonly keys: number;
  readonly seed?: number;
  readonly level?: EntropyLevels;
  /** Only these purples of twinKeyRoster (default: all). */
  readonly purples?: readonly string[];
  readonly concurrency?: number;
  readonly onProgress?: (label: string) => void;
}

/** The sample standard deviation of `values` (0 for fewer than two). */
export function standardDeviation(values: readonly number[]): number {
  if (values.length < 2) return 0;
  const mean = values.reduce((sum, value) => sum + value, 0) / values.length;
  return Math.sqrt(values.reduce((sum, value) => sum + (value - mean) ** 2, 0) / (values.length - 1));
}

/** Runs each purple of twinKeyRoster on the twin set of each of `keys` secrets at one seed (`dataFor` builds or reads it). */
export async function runTwinKeySpread(
  dataFor: (seed: number, key: TwinKey) => Promise<AssessmentData>,
  calibration: Calibration,
  options: TwinKeysOptions,
): Promise<TwinKeysReport> {
  const started = Date.now();
  const seed = options.seed ?? 1;
  const level = options.level ?? { drift_level: "none", rot_level: "none" };
  const purples = twinKeyRoster().filter((entry) => !options.purples || options.purples.includes(entry.name));
  const keys = Array.from({ length: options.keys }, (_, i) => TwinKey.forRun(seed, twinKeySecret(i + 1)));
  const perPurple = new Map(purples.map((entry) => [entry.name, [] as { key: string; twins: number; passRate: number }[]]));
  for (const key of keys) {
    const data = await dataFor(seed, key);
    try {
      options.onProgress?.(`[twin keys] key ${key.digest}: ${data.tasks.tasks.length} twins, ${purples.length} purples`);
      const measured = await runSuite(data, calibration, purples, {
        levels: [level],
        seeds: [seed],
        concurrency: options.concurrency ?? 16,
        onProgress: (done, total, label) => options.onProgress?.(`[twin keys ${key.digest} ${done}/${total}] ${label}`),
      });
      for (const m of measured) perPurple.get(m.purple)!.push({ key: key.digest, twins: m.episodes.size, passRate: m.passRate });
    } finally {
      await data.org.close();
    }
  }
  const spreads = purples.map((entry) => {
    const perKey = perPurple.get(entry.name)!;
    const points = perKey.map((figure) => 100 * figure.passRate);
    return {
      purple: entry.name,
      description: entry.description,
      perKey,
      meanPoints: points.reduce((sum, value) => sum + value, 0) / (points.length || 1),
      sdPoints: standardDeviation(points),
    };
  });
  return { seed, level, keys: keys.map((key) => key.digest), spreads, seconds: (Date.now() - started) / 1000 };
}
