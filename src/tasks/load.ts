import { readFileSync } from "node:fs";
import { describeIssue, EntropicError, type ErrorDetails, firstIssue } from "../util/index.js";
import { type TaskRecord, TaskRecordSchema } from "./schema.js";

/** A loaded, validated task set with its provenance. */
export interface TaskSet {
  readonly tasks: readonly TaskRecord[];
  readonly byIdx: ReadonlyMap<number, TaskRecord>;
  readonly categories: readonly string[];
  readonly source: string;
}

/** Raised when a task file cannot be used; the message names the record and field. */
export class TaskFileError extends EntropicError {
  override readonly name = "TaskFileError";
  constructor(message: string, details?: ErrorDetails) {
    super("data", message, details);
  }
}

export function loadTaskFile(path: string): TaskSet {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new TaskFileError(`cannot read task file ${path}: ${(error as Error).message}`);
  }
  let raw: unknown;
  try {
    raw = JSON.parse(text);
  } catch (error) {
    throw new TaskFileError(`task file ${path} is not JSON: ${(error as Error).message}`);
  }
  return parseTasks(raw, path);
}

export function parseTasks(raw: unknown, source: string): TaskSet {
  if (!Array.isArray(raw)) throw new TaskFileError(`task file ${source} must hold a JSON list of tasks`);
  const tasks: TaskRecord[] = [];
  const byIdx = new Map<number, TaskRecord>();
  raw.forEach((record: unknown, position) => {
    const parsed = TaskRecordSchema.safeParse(record);
    if (!parsed.success) {
      const idx = typeof record === "object" && record !== null && "idx" in record ? (record as { idx: unknown }).idx : "?";
      throw new TaskFileError(`task file ${source}: record #${position} (idx ${String(idx)}), ${describeIssue(firstIssue(parsed.error), "(record)")}`);
    }
    if (byIdx.has(parsed.data.idx)) {
      throw new TaskFileError(`task file ${source}: record #${position} repeats idx ${parsed.data.idx}`);
    }
    tasks.push(parsed.data);
    byIdx.set(parsed.data.idx, parsed.data);
  });
  const categories = [...new Set(tasks.map((task) => task.task))];
  return { tasks, byIdx, categories, source };
}
