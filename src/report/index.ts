export { compactTrajectory, describeAction } from "./compact.js";
export { type CategoryDelta, type Comparison, compareResults, type Delta, type DimensionDeltas, dimensionMean, type Flip, type RunSide, tasksByCategory } from "./compare.js";
export { compareText } from "./compare-text.js";
export { type ChartSpec, escapeHtml, jsonForScript, type ReportAssets, type ReportInput, type ReportModel, renderReport, reportModel } from "./html/index.js";
export { MergeError, mergeShards } from "./merge.js";
export {
  type Aggregates,
  aggregate,
  buildResults,
  byCategoryOf,
  dimensionAveragesOf,
  originalOf,
  RESULTS_LAYOUT_VERSION,
  type ResultsObject,
  summaryOf,
  type Tally,
} from "./results.js";
export {
  AggregatesSchema,
  CategoryFiguresSchema,
  JudgeBlockSchema,
  OriginalBlockSchema,
  type Results,
  ResultsSchema,
  RunBlockSchema,
  RunTimingSchema,
  resultsReference,
  SummarySchema,
  TaskEntrySchema as ResultsEntrySchema,
} from "./results-schema.js";
export { summaryText } from "./summary.js";
export {
  ID_REMAPS,
  mergedRanking,
  PUBLIC_B2B_TASK_COUNT,
  PUBLIC_B2B_TASKS_SHA256,
  RANKED_TRIALS,
  type Ranking,
  RankingSchema,
  rankedTrack,
  rankedTrackFingerprint,
  rankingOf,
  type Track,
  TrackSchema,
  trackFingerprint,
  trackOf,
} from "./track.js";
export { BOOTSTRAP_RESAMPLES, type KindLosses, KindLossesSchema, passHat, ROBUSTNESS_FLAG, robustnessOf, type TaskTrials, TaskTrialsSchema, trialsOf } from "./trials.js";
export {
  type EpisodeView,
  episodeIndexText,
  episodeViews,
  parseReportResults,
  type ReportResults,
  ResultsInputError,
  type ShowOptions,
  type StepView,
  showText,
  type TaskEntry,
} from "./view/index.js";
