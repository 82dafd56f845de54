export { generateOrg, ORG_COLUMNS, REAL_ROW_COUNTS, stageGuideText, type SampleOrg, type SampleFacts, type Row, type QuoteRule } from "./org.js";
export { generateTasks, SAMPLE_OPTIONAL_CONTEXT } from "./tasks.js";
export { writeOrgCsv, writeTasksJson } from "./write.js";
export { caseSafeSuffix } from "../util/index.js";
