export { buildResults, aggregate, summaryOf, dimensionAveragesOf, byCategoryOf, originalOf, RESULTS_LAYOUT_VERSION, type ResultsObject, type Aggregates, type Tally } from "./results.js";
export { mergeShards, MergeError } from "./merge.js";
export { summaryText } from "./summary.js";
export { compactTrajectory, describeAction } from "./compact.js";
