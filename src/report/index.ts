export { buildResults, RESULTS_LAYOUT_VERSION, type ResultsContext, type ResultsObject } from "./results.js";
export { summaryText } from "./summary.js";
export { writeTrajectories } from "./trajectories.js";
export { compactTrajectory, describeAction } from "./compact.js";
