export { roster, type RosterEntry } from "./roster.js";
export { runSuite, type LevelPair, type Measurement, type SuiteOptions } from "./run.js";
export { checkRanking, TOTAL_SLACK, DIMENSION_SLACK, SOLVER_FLOOR, type CheckResult } from "./checks.js";
export { validityMarkdown } from "./markdown.js";
