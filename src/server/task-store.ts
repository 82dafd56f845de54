import type { Task } from "@a2a-js/sdk";
import type { TaskStore } from "@a2a-js/sdk/server";

const TERMINAL = new Set(["completed", "failed", "canceled", "rejected"]);

/**
 * The A2A task store, with finished tasks forgotten after `ttlMs` (their results stay on disk in
 * the runs folder): a long-lived server's memory does not grow with every assessment it ran.
 * Tasks in flight are kept however long they run.
 */
export class ExpiringTaskStore implements TaskStore {
  private readonly tasks = new Map<string, { task: Task; finishedAt: number | undefined }>();

  constructor(
    private readonly ttlMs: number,
    private readonly now: () => number = Date.now,
  ) {}

  async load(taskId: string): Promise<Task | undefined> {
    this.evict();
    const entry = this.tasks.get(taskId);
    return entry ? { ...entry.task } : undefined;
  }

  async save(task: Task): Promise<void> {
    this.evict();
    this.tasks.set(task.id, { task: { ...task }, finishedAt: TERMINAL.has(task.status.state) ? this.now() : undefined });
  }

  /** Tasks held now (finished ones until they expire). */
  get size(): number {
    this.evict();
    return this.tasks.size;
  }

  private evict(): void {
    const limit = this.now() - this.ttlMs;
    for (const [id, entry] of this.tasks) if (entry.finishedAt !== undefined && entry.finishedAt < limit) this.tasks.delete(id);
  }
}
