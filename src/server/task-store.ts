import type { Task } from "@a2a-js/sdk";
import type { TaskStore } from "@a2a-js/sdk/server";

const TERMINAL = new Set(["completed", "failed", "canceled", "rejected"]);

/**
 * The A2A task store, with finished tasks forgotten after `ttlMs`, and beyond the `keepFinished`
 * most recent ones (their results stay on disk in the runs folder): a long-lived server's memory
 * does not grow with every assessment it ran. A finished task keeps its request, its final status
 * and its artifacts, not the thousands of progress updates of its history. Tasks in flight are
 * kept however long they run.
 */
export class ExpiringTaskStore implements TaskStore {
  private readonly tasks = new Map<string, { task: Task; finishedAt: number | undefined }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
    private readonly keepFinished = 2,
  ) {}

  async load(taskId: string): Promise<Task | undefined> {
    this.evict();
    const entry = this.tasks.get(taskId);
    return entry ? { ...entry.task } : undefined;
  }

  async save(task: Task): Promise<void> {
    this.evict();
    const finished = TERMINAL.has(task.status.state);
    const history = task.history ?? [];
    const kept = finished && history.length > 2 ? [history[0]!, history[history.length - 1]!] : history;
    // Re-inserted, so the map's order is the order of the last change.
    this.tasks.delete(task.id);
    this.tasks.set(task.id, { task: { ...task, history: kept }, finishedAt: finished ? this.now() : undefined });
    this.evict();
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
