export { caseSafeSuffix } from "../util/index.js";
export { IdFactory, KEY_PREFIXES } from "./ids.js";
export { generateOrg, ORG_COLUMNS, type QuoteRule, REAL_ROW_COUNTS, type Row, type SampleFacts, type SampleOrg, stageGuideText } from "./org.js";
export { generateTasks, SAMPLE_OPTIONAL_CONTEXT } from "./tasks.js";
export { writeOrgCsv, writeTasksJson } from "./write.js";
