export { Journal } from "./journal.js";
export { asAssessmentLog, LogError, readLog, type StoredLog } from "./read.js";
export * from "./schema.js";
