export * from "./schema.js";
export { Journal } from "./journal.js";
export { readLog, LogError, type StoredLog } from "./read.js";
