export { Journal, JournalBudgetError, JournalWriteError, setAsideLines } from "./journal.js";
export { STRING_WINDOWS, type StringInWindows } from "./json-pieces.js";
export { asAssessmentLog, hasWholeFirstLine, LogError, NoHeaderError, readLog, type StoredLog, type UnreadableLine } from "./read.js";
export * from "./schema.js";
