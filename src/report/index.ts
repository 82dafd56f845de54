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
export { summaryText } from "./summary.js";
export { BOOTSTRAP_RESAMPLES, type KindLosses, KindLossesSchema, passHat, robustnessOf, type TaskTrials, TaskTrialsSchema, trialsOf } from "./trials.js";
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
