import type { Server } from "node:http";
import { type AssessmentData, assess, parseConfig, runSpecFor } from "../../assessment/index.js";
import { type Strategy, serveAdversary, servePurple } from "../../baselines/index.js";
import type { EntropyLevels } from "../../entropy/index.js";
import { A2APurpleClient } from "../../purple/index.js";
import type { Calibration } from "../../scoring/index.js";

/**
 * One adversary run: an assessment of one purple under one setting (a level pair, a seed, and the
 * config keys the attack needs: paired, trials, the tasks), read back from its results object as
 * the leaderboard would read it.
 */

/** A purple of the adversary section. `make` gives a fresh strategy per run: adversaries keep state across episodes. */
export interface AdversaryPurple {
  readonly name: string;
  readonly description: string;
  readonly make: () => Strategy;
  /** Served so that an answer with an aside is two parts (the respond call in a data part, the aside in text). */
  readonly parts?: boolean;
}

/** Where a purple is run: a level pair, a seed, the operator's secret, and other config keys (paired, trials, task_ids, task_categories). */
export interface AdversarySetting {
  readonly level: EntropyLevels;
  readonly seed: number;
  /** The operator's secret (the Id remap's key, and the twins' once they are keyed by it). */
  readonly secret: string;
  readonly config?: Record<string, unknown>;
  readonly concurrency?: number;
}

/** What the results of one run say, in the figures the rules read. */
export interface AdversaryFigures {
  readonly purple: string;
  /** The run's own episodes (a paired run's perturbed ones): passed / episodes, 0-1. */
  readonly passRate: number;
  /** The mean total_score over those episodes (the Entropic score), 0-100. */
  readonly total: number;
  readonly episodes: number;
  /** A paired run's clean episodes' pass rate. */
  readonly cleanPassRate?: number;
  /** pass^k of a run with trials, k = the trials. */
  readonly passHat?: number;
  /** The share of the run's episodes the zero-work purple passes (the results' `floor_passed`). */
  readonly floor: number;
  /** What the results say about being ranked and flagged (keys read when present; absent keys are `undefined`). */
  readonly ranking: RankingMarks;
}

export interface RankingMarks {
  readonly ranked?: boolean;
  readonly unrankedReasons?: readonly string[];
  /** A flag for a clean rate below the perturbed one, by whatever key the results name it (robustness.* or top level). */
  readonly cleanBelowFlag?: { readonly key: string; readonly value: unknown };
}

/** Keys a results object may name a sandbagging flag with: anything about flags, suspicion, or clean below perturbed. */
const FLAG_KEY = /flag|suspect|sandbag|clean_below|inverted/i;

/** The ranking marks of a results object: `ranked`, `unranked_reasons`, and a clean-below-perturbed flag wherever it sits. */
export function rankingMarks(results: Record<string, unknown>): RankingMarks {
  const robustness = (results.robustness ?? {}) as Record<string, unknown>;
  const flagged = [...Object.entries(robustness).map(([key, value]) => [`robustness.${key}`, value] as const), ...Object.entries(results)].find(([key]) => FLAG_KEY.test(key));
  return {
    ...(typeof results.ranked === "boolean" ? { ranked: results.ranked } : {}),
    ...(Array.isArray(results.unranked_reasons) ? { unrankedReasons: results.unranked_reasons.map(String) } : {}),
    ...(flagged ? { cleanBelowFlag: { key: flagged[0], value: flagged[1] } } : {}),
  };
}

/** Is the clean-below-perturbed flag raised? A present flag key with a truthy value (a non-empty list), or an unranked reason naming the clean condition. */
export function cleanBelowFlagged(marks: RankingMarks): boolean {
  const value = marks.cleanBelowFlag?.value;
  return Array.isArray(value) ? value.length > 0 : Boolean(value);
}

interface EpisodeRow {
  readonly success: boolean;
  readonly condition?: string;
  readonly floor_passed?: boolean | null;
  readonly entropic?: { readonly total_score?: number };
}

/** Runs one purple under one setting and reads its figures from the results. */
export async function runAdversary(data: AssessmentData, calibration: Calibration, purple: AdversaryPurple, setting: AdversarySetting): Promise<AdversaryFigures> {
  const strategy = purple.make();
  const served: { server: Server; url: string } = purple.parts ? await serveAdversary(purple.name, strategy) : await servePurple(purple.name, strategy, "127.0.0.1", 0);
  try {
    const { config } = parseConfig({
      drift_level: setting.level.drift_level,
      rot_level: setting.level.rot_level,
      seed: setting.seed,
      concurrency: setting.concurrency ?? 8,
      ...setting.config,
    });
    const { results } = await assess(data, new A2APurpleClient(served.url), {
      spec: runSpecFor({ participantUrl: served.url, config, tasksSource: data.sources.tasks.path }),
      calibration,
      idSecret: setting.secret,
    });
    const rows = results.results as unknown as EpisodeRow[];
    const own = rows.filter((row) => row.condition !== "clean");
    const clean = rows.filter((row) => row.condition === "clean");
    const rate = (list: readonly EpisodeRow[], test: (row: EpisodeRow) => boolean) => (list.length === 0 ? 0 : list.filter(test).length / list.length);
    const trials = (results as unknown as { trials?: { k: number; pass_hat: Record<string, number | null> } }).trials;
    const passHat = trials ? trials.pass_hat[String(trials.k)] : undefined;
    return {
      purple: purple.name,
      passRate: rate(own, (row) => row.success),
      total: own.length === 0 ? 0 : own.reduce((sum, row) => sum + (row.entropic?.total_score ?? 0), 0) / own.length,
      episodes: own.length,
      ...(clean.length > 0 ? { cleanPassRate: rate(clean, (row) => row.success) } : {}),
      ...(typeof passHat === "number" ? { passHat } : {}),
      floor: rate(own, (row) => row.floor_passed === true),
      ranking: rankingMarks(results as unknown as Record<string, unknown>),
    };
  } finally {
    served.server.close();
  }
}
