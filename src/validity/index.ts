export { type CheckResult, checkRanking, DIMENSION_SLACK, SOLVER_FLOOR, TOTAL_SLACK } from "./checks.js";
export { validityMarkdown } from "./markdown.js";
export { type RosterEntry, roster } from "./roster.js";
export { type LevelPair, type Measurement, runSuite, type SuiteOptions } from "./run.js";
