import { type AssessmentData, assess, parseConfig, runSpecFor } from "../assessment/index.js";
import { servePurple } from "../baselines/index.js";
import type { EntropyLevels } from "../entropy/index.js";
import type { Dimension } from "../log/index.js";
import { A2APurpleClient, type PurpleClient } from "../purple/index.js";
import { type Calibration, dimensionNames } from "../scoring/index.js";
import type { RosterEntry } from "./roster.js";

/** A purple's figures at one level pair, averaged over the seeds. */
export interface Measurement {
  readonly purple: string;
  readonly kind: RosterEntry["kind"];
  readonly level: EntropyLevels;
  /** Passed / tasks, 0-1. */
  readonly passRate: number;
  /** Mean total_score over all tasks, 0-100. */
  readonly total: number;
  /** Each registered dimension's mean over the episodes where it applied (registry order); null where it applied nowhere. */
  readonly dimensions: Record<Dimension, number | null>;
  /** Per episode (key `seed:task_idx`): its figures, for the pairwise checks ("faking never raises a score"). */
  readonly episodes: ReadonlyMap<string, EpisodeFigure>;
}

/** One episode of a measurement: its total_score, whether it passed (the results' `success`), its task's category and metric. */
export interface EpisodeFigure {
  readonly total: number;
  readonly passed: boolean;
  readonly category: string;
  readonly rewardMetric: string;
}

export interface SuiteOptions {
  readonly levels: readonly EntropyLevels[];
  readonly seeds: readonly number[];
  readonly concurrency?: number;
  readonly onProgress?: (done: number, total: number, label: string) => void;
  /** How a roster purple is reached: served on loopback over A2A (`servedPurple`) unless a caller says otherwise. */
  readonly connect?: (entry: RosterEntry) => Promise<ConnectedPurple>;
}

/** A roster purple ready for runs: a client for each run, and how to stop the purple. */
export interface ConnectedPurple {
  readonly client: () => PurpleClient;
  readonly close: () => void;
}

/** A roster purple served on loopback as a reference purple agent, reached over A2A as any participant is. */
export async function servedPurple(entry: RosterEntry): Promise<ConnectedPurple> {
  const { server, url } = await servePurple(entry.name, entry.strategy, "127.0.0.1", 0, entry.options ?? {});
  return { client: () => new A2APurpleClient(url), close: () => server.close() };
}

/** Runs every purple of the roster at every level pair and seed on the given data. */
export async function runSuite(data: AssessmentData, calibration: Calibration, purples: readonly RosterEntry[], options: SuiteOptions): Promise<Measurement[]> {
  const measurements: Measurement[] = [];
  const total = purples.length * options.levels.length * options.seeds.length;
  let done = 0;
  for (const entry of purples) {
    const purple = await (options.connect ?? servedPurple)(entry);
    try {
      for (const level of options.levels) {
        let passed = 0;
        let tasks = 0;
        let scoreSum = 0;
        const dimensions = dimensionNames();
        const sums = Object.fromEntries(dimensions.map((dimension) => [dimension, { sum: 0, count: 0 }])) as Record<Dimension, { sum: number; count: number }>;
        const episodes = new Map<string, EpisodeFigure>();
        for (const seed of options.seeds) {
          const { config } = parseConfig({ drift_level: level.drift_level, rot_level: level.rot_level, seed, concurrency: options.concurrency ?? 8 });
          const client = purple.client();
          const { results } = await assess(data, client, {
            spec: runSpecFor({ participantUrl: client.url, config, tasksSource: data.sources.tasks.path }),
            calibration,
            // The remap keyed by the seed alone, whatever ENTROPIC_ID_SECRET the shell has: the
            // tables are the same on every machine (a key reorders records, and so what a purple
            // that reads the first rows finds). The oracle of the roster inverts the same seed-only key.
            idSecret: "",
          });
          passed += results.aggregates.passed;
          tasks += results.aggregates.total_tasks;
          scoreSum += results.aggregates.score_sum;
          for (const dimension of dimensions) {
            sums[dimension]!.sum += results.aggregates.dimensions[dimension]?.sum ?? 0;
            sums[dimension]!.count += results.aggregates.dimensions[dimension]?.count ?? 0;
          }
          for (const episode of results.results)
            episodes.set(`${seed}:${episode.task_idx}`, {
              total: episode.total_score,
              passed: episode.success,
              category: episode.task_category,
              rewardMetric: episode.dataset_reference.reward_metric,
            });
          options.onProgress?.(++done, total, `${entry.name} drift ${level.drift_level} rot ${level.rot_level} seed ${seed}`);
        }
        measurements.push({
          purple: entry.name,
          kind: entry.kind,
          level,
          passRate: tasks === 0 ? 0 : passed / tasks,
          total: tasks === 0 ? 0 : scoreSum / tasks,
          dimensions: Object.fromEntries(Object.entries(sums).map(([dimension, { sum, count }]) => [dimension, count === 0 ? null : sum / count])),
          episodes,
        });
      }
    } finally {
      purple.close();
    }
  }
  return measurements;
}
