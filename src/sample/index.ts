export { caseSafeSuffix } from "../util/index.js";
export { IdFactory, KEY_PREFIXES } from "./ids.js";
export { generateOrg } from "./org.js";
export { stageGuideText } from "./org-knowledge.js";
export { ORG_COLUMNS, type QuoteRule, REAL_ROW_COUNTS, type Row, type SampleFacts, type SampleOrg } from "./org-schema.js";
export { generateTasks, SAMPLE_OPTIONAL_CONTEXT } from "./tasks.js";
export { writeOrgCsv, writeTasksJson } from "./write.js";
