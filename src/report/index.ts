export { buildResults, aggregate, summaryOf, dimensionAveragesOf, RESULTS_LAYOUT_VERSION, type ResultsObject, type Aggregates } from "./results.js";
export { summaryText } from "./summary.js";
export { compactTrajectory, describeAction } from "./compact.js";
