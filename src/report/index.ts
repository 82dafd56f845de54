export { buildResults, aggregate, summaryOf, dimensionAveragesOf, byCategoryOf, originalOf, RESULTS_LAYOUT_VERSION, type ResultsObject, type Aggregates, type Tally } from "./results.js";
export { mergeShards, MergeError } from "./merge.js";
export { summaryText } from "./summary.js";
export { compactTrajectory, describeAction } from "./compact.js";
export { compareResults, dimensionMean, tasksByCategory, type Comparison, type Delta, type DimensionDeltas, type CategoryDelta, type Flip, type RunSide } from "./compare.js";
export { compareText, DIMENSION_ABBREVIATIONS } from "./compare-text.js";
export {
  parseReportResults,
  ResultsInputError,
  episodeViews,
  showText,
  episodeIndexText,
  type ReportResults,
  type TaskEntry,
  type EpisodeView,
  type StepView,
  type ShowOptions,
} from "./view/index.js";
export { reportModel, renderReport, escapeHtml, jsonForScript, type ReportInput, type ReportModel, type ReportAssets, type ChartSpec } from "./html/index.js";
