import type { TaskInfo, Tools } from "../server.js";

/**
 * What one category's analysis gets: the task as the green sent it, with `requiredContext` cut
 * to the request's own (rot's notes of earlier requests and reference material removed), and
 * tools whose SOQL and SOSL speak the org's current schema under the names of the original one.
 */
export type CategorySolver = (task: TaskInfo, tools: Tools) => Promise<string>;
