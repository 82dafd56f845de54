import type { EpisodeSignals, Optimum, OriginalScore } from "../../log/index.js";

/** The verdict the dimensions weigh by: the benchmark's `success` (or CRMArena-Pro's, in logs older than it). */
export type Verdict = Pick<OriginalScore, "reward" | "passed">;

/** Everything a dimension may be computed from: the episode's signals, its verdict and the optimum the calibration gives its category. */
export interface DimensionEvidence {
  readonly signals: EpisodeSignals;
  readonly verdict: Verdict;
  readonly optimum: Optimum;
  /** Tokens of the task message, which every budget allows on top of the optimum. */
  readonly firstMessageTokens: number;
  /** Fields the category needs that drift renamed (`Object.Field`). */
  readonly driftExposure: readonly string[];
  /** Did drift rename anything in this run (for the reason a drift dimension does not apply)? */
  readonly driftInRun: boolean;
}

/** A piece of evidence a dimension reads: a signal by name, or one of the other fields of DimensionEvidence. */
export type EvidenceName = `signals.${keyof EpisodeSignals}` | Exclude<keyof DimensionEvidence, "signals">;

/** A dimension without evidence in an episode: null there, with the reason, never a free 100. */
export interface NotApplicable {
  readonly notApplicable: string;
}

/**
 * One entropic dimension: one module under src/scoring/dimensions/ (or anywhere, for a test)
 * plus one registration line. Everything that lists dimensions (results, summary, report, the
 * validity table, the leaderboard's queries, the config's weights) reads the registry.
 */
export interface DimensionSpec {
  /** UPPER_SNAKE_CASE: the key in the log, the results and the weights. */
  readonly name: string;
  /** What it measures and how, in a sentence, for docs and the report. */
  readonly description: string;
  /** The evidence `score` reads (tests/scoring/dimensions.test.ts checks each built-in reads no other). */
  readonly reads: readonly EvidenceName[];
  /** Its weight in `total_score` when the run sets none. */
  readonly defaultWeight: number;
  /**
   * What `total_score` does where the dimension does not apply: `renormalise` leaves it out (the
   * other weights renormalised), for dimensions the run's world decides; `success` counts it as
   * 100 × S, for dimensions whose evidence the purple itself creates (docs/scoring.md, the
   * opt-in rule), so opting in can only cost.
   */
  readonly whereNotApplicable: "renormalise" | "success";
  /** Short column titles: the report's and compare's, the validity table's, the leaderboard's. */
  readonly columns: { readonly report: string; readonly validity: string; readonly leaderboard: string };
  /** Pure: a share in [0, 1] (the score is 100 × it), or why the dimension does not apply. */
  readonly score: (evidence: DimensionEvidence) => number | NotApplicable;
}

/** S of SPL: 1 when the episode passed, 0 when it did not. */
export const successOf = (verdict: Verdict): 0 | 1 => (verdict.passed ? 1 : 0);

export const notApplicable = (reason: string): NotApplicable => ({ notApplicable: reason });

/**
 * The path term: 1 within the optimum, then the square root of SPL's ratio (Anderson et al. 2018).
 * The square root keeps the ranking (more steps, less efficiency) while a careful agent's extra
 * look at the data costs a few points, not a quarter of the dimension: twice the optimum scores
 * 71, four times 50.
 */
export const efficiency = (optimum: number, used: number) => (used <= optimum ? 1 : Math.sqrt(optimum / used));

/**
 * The slack a careful agent gets beyond the category's plan: one more turn and one more query
 * (a second look at the schema, a query that failed and was fixed) and the tokens of one more
 * describe_schema. The plan is the least an agent needs; looking around once is not waste.
 */
export const LOOK_AROUND = { turns: 1, queries: 1 } as const;
