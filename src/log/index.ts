export { Journal } from "./journal.js";
export { STRING_WINDOWS, type StringInWindows } from "./json-pieces.js";
export { asAssessmentLog, LogError, readLog, type StoredLog } from "./read.js";
export * from "./schema.js";
