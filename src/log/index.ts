export { Journal } from "./journal.js";
export { LogError, readLog, type StoredLog } from "./read.js";
export * from "./schema.js";
