import { deflateRawSync, inflateRawSync } from "node:zlib";
import { type ListTasksRequest, type ListTasksResponse, type Task, TaskState } from "@a2a-js/sdk";
import type { TaskStore } from "@a2a-js/sdk/server";

const TERMINAL = new Set([TaskState.TASK_STATE_COMPLETED, TaskState.TASK_STATE_FAILED, TaskState.TASK_STATE_CANCELED, TaskState.TASK_STATE_REJECTED]);

/**
 * Progress messages an in-flight task keeps: its request and the latest ones. The A2A SDK's result
 * manager loads the task, searches its history and appends the update's message to it on every
 * status update, and its event loop then deep-copies the whole task (`structuredClone`, for push
 * notifications, even when there are none), so an unbounded history costs time that grows with the
 * square of an assessment's length (about 4,300 updates for 2,140 tasks) and memory with every
 * update; and every message kept costs a copy per update. A client reads the progress from the
 * status (its latest message) or the stream, so few are kept: trimmed to half when it exceeds this.
 */
export const IN_FLIGHT_HISTORY = 4;

/**
 * The A2A task store, with finished tasks forgotten after `ttlMs`, and beyond the `keepFinished`
 * most recent ones (their results stay on disk in the runs folder): a long-lived server's memory
 * does not grow with every assessment it ran. A finished task keeps its request, its final status
 * and its artifacts, not the thousands of progress updates of its history. Tasks in flight are
 * kept however long they run, with their request and their latest IN_FLIGHT_HISTORY updates.
 * Unlike the SDK's InMemoryTaskStore it copies a task shallowly, not deeply: a deep copy of the
 * results artifact (megabytes) on every progress update is what the store exists to avoid.
 * Who may read a task is decided before the store is asked (task-access.ts: its creator, who
 * holds its token); ListTasks is not offered, so `list` serves the SDK's interface only.
 */
export class ExpiringTaskStore implements TaskStore {
  private readonly tasks = new Map<string, Entry>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly keepFinished = 2,
  ) {}

  async load(taskId: string): Promise<Task | undefined> {
    this.evict();
    const entry = this.tasks.get(taskId);
    return entry ? taskOf(entry) : undefined;
  }

  async save(task: Task): Promise<void> {
    this.evict();
    const finished = task.status !== undefined && TERMINAL.has(task.status.state);
    // The SDK passes the task object it keeps updating: trimming it here is what bounds its work.
    if (!finished && task.history && task.history.length > IN_FLIGHT_HISTORY) {
      task.history = [task.history[0]!, ...task.history.slice(-Math.floor(IN_FLIGHT_HISTORY / 2))];
    }
    const history = task.history ?? [];
    const kept = finished && history.length > 2 ? [history[0]!, history[history.length - 1]!] : history;
    // Re-inserted, so the map's order is the order of the last change.
    this.tasks.delete(task.id);
    const entry: Entry = { task: { ...task, history: kept }, finishedAt: finished ? this.now() : undefined };
    this.tasks.set(task.id, entry);
    this.evict();
    // Deflated once the reply that carries them is on its way (about 30 ms for the results of 2,140 tasks).
    if (finished && task.artifacts?.length) setImmediate(() => this.deflateArtifacts(task.id, entry));
  }

  /** The finished task's artifacts as their JSON, deflated, in place of the entry saved (unless it changed since). */
  private deflateArtifacts(taskId: string, saved: Entry): void {
    if (this.tasks.get(taskId) !== saved || !saved.task.artifacts) return;
    // Set on the same key, the entry keeps its place in the map's order.
    this.tasks.set(taskId, {
      task: { ...saved.task, artifacts: [] },
      artifactsDeflated: deflateRawSync(JSON.stringify(saved.task.artifacts), { level: 1 }),
      finishedAt: saved.finishedAt,
    });
  }

  /** A2A 1.0's ListTasks: the tasks held, most recently changed first, filtered and paged as asked. */
  async list(params: ListTasksRequest): Promise<ListTasksResponse> {
    this.evict();
    const after = params.statusTimestampAfter ? Date.parse(params.statusTimestampAfter) : Number.NEGATIVE_INFINITY;
    const matching = [...this.tasks.values()]
      .map((entry) => (params.includeArtifacts ? taskOf(entry) : entry.task))
      .reverse()
      .filter((task) => !params.contextId || task.contextId === params.contextId)
      .filter((task) => !params.status || task.status?.state === params.status)
      .filter((task) => Date.parse(task.status?.timestamp ?? "") > after || after === Number.NEGATIVE_INFINITY);
    const pageSize = params.pageSize ?? 50;
    const offset = /^\d+$/.test(params.pageToken) ? Number(params.pageToken) : 0;
    const page = matching.slice(offset, offset + pageSize).map((task) => ({ ...task, artifacts: params.includeArtifacts ? task.artifacts : [] }));
    return { tasks: page, nextPageToken: offset + pageSize < matching.length ? String(offset + pageSize) : "", pageSize, totalSize: matching.length };
  }

  /** Tasks held now (finished ones until they expire). */
  get size(): number {
    this.evict();
    return this.tasks.size;
  }

  private evict(): void {
    const limit = this.now() - this.ttlMs;
    const finished = [...this.tasks].filter(([, entry]) => entry.finishedAt !== undefined);
    finished.forEach(([id, entry], i) => {
      if (entry.finishedAt! < limit || i < finished.length - this.keepFinished) this.tasks.delete(id);
    });
  }
}

/**
 * A task held: a finished one keeps its artifacts as their JSON, deflated, outside the JavaScript
 * heap. The results artifact of a run of the 2,140 tasks is 10 MB of objects, which a server would
 * keep for as long as the task is held (after an assessment, the largest part of its heap), 4.3 MB
 * of JSON, and 0.2 MB deflated (20 ms of CPU to write the JSON, 10 to deflate it at the fastest
 * level, 50 to read it back); it is read back (tasks/get) a few times at most.
 */
type Entry = { readonly task: Task; readonly artifactsDeflated?: Buffer; readonly finishedAt: number | undefined };

function taskOf(entry: Entry): Task {
  return entry.artifactsDeflated ? { ...entry.task, artifacts: JSON.parse(inflateRawSync(entry.artifactsDeflated).toString("utf8")) as Task["artifacts"] } : { ...entry.task };
}
