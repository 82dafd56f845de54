import type { Dimension } from "../../log/index.js";
import { type Comparison, compareResults, dimensionMean, tasksByCategory } from "../compare.js";
import { type EpisodeView, type ReportResults, resultsDimensions } from "../view/index.js";
import { type ChartSpec, chartSpecs } from "./charts.js";
import { type EntropyModel, entropyModel } from "./entropy.js";
import type { CategoryRow } from "./rows.js";

export type { CategoryRow } from "./rows.js";

/** What the report is made from: a results file, its episodes (completed from the log) and, optionally, a run to compare with. */
export interface ReportInput {
  readonly results: ReportResults;
  /** The results file's name, as the reader knows it. */
  readonly label: string;
  /** Where the trajectories come from (the run log, or the compact ones and why). */
  readonly source: string;
  readonly episodes: readonly EpisodeView[];
  /** Another run: the comparison section shows how this run differs from it (deltas = this − baseline). */
  readonly baseline?: { readonly results: ReportResults; readonly label: string };
}

/** An episode and where its long texts are in `ReportModel.texts` (loaded when a reader opens them). */
export interface EpisodeCard {
  readonly view: EpisodeView;
  readonly observationRefs: readonly (number | null)[];
  readonly replyRefs: readonly (number | null)[];
}

/** Everything the HTML shows, computed; rendering only formats it. */
export interface ReportModel {
  readonly label: string;
  readonly source: string;
  readonly results: ReportResults;
  /** The run's dimensions, in the registry's order (resultsDimensions). */
  readonly dimensions: readonly Dimension[];
  readonly categories: readonly CategoryRow[];
  readonly charts: readonly ChartSpec[];
  readonly entropy: EntropyModel;
  readonly episodes: readonly EpisodeCard[];
  /** Full observations and raw replies, each once (a run repeats the same schema description many times). */
  readonly texts: readonly string[];
  readonly filters: { readonly categories: readonly string[]; readonly terminations: readonly string[] };
  readonly comparison: Comparison | null;
}

/** What the trials and robustness sections read of the model. */
export type ModelOfTrials = Pick<ReportModel, "results" | "charts">;

export function reportModel(input: ReportInput): ReportModel {
  const { results } = input;
  const groups = tasksByCategory(results);
  const dimensions = resultsDimensions(results);
  const categories = Object.entries(results.by_category).map(
    ([category, group]): CategoryRow => ({
      category,
      count: group.count,
      passed: group.passed,
      passRate: group.pass_rate,
      avgScore: group.avg_score,
      floor: group.floor,
      lift: group.lift,
      dimensions: Object.fromEntries(dimensions.map((dimension) => [dimension, dimensionMean(groups.get(category) ?? [], dimension)])),
    }),
  );
  const texts: string[] = [];
  const seen = new Map<string, number>();
  const ref = (text: string | null): number | null => {
    if (text === null) return null;
    let index = seen.get(text);
    if (index === undefined) {
      index = texts.push(text) - 1;
      seen.set(text, index);
    }
    return index;
  };
  const episodes = input.episodes.map((view) => ({
    view,
    observationRefs: view.steps.map((step) => ref(step.fullObservation)),
    replyRefs: view.steps.map((step) => ref(step.rawReply)),
  }));
  // Deltas read "this run − baseline", as `compare BASELINE THIS` prints them.
  const comparison = input.baseline ? compareResults(input.baseline.results, results, { before: input.baseline.label, after: input.label }) : null;
  const entropy = entropyModel(results, input.episodes);
  return {
    label: input.label,
    source: input.source,
    results,
    dimensions,
    categories,
    charts: chartSpecs(results, dimensions, categories, entropy.injected, comparison),
    entropy,
    episodes,
    texts,
    filters: {
      categories: [...new Set(input.episodes.map((episode) => episode.category))],
      terminations: [...new Set(input.episodes.map((episode) => episode.termination))].sort(),
    },
    comparison,
  };
}
