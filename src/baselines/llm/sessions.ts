/**
 * Per-context state with an idle TTL and a size cap, so a green that abandons episodes (a
 * timeout, a crash) cannot make the agent's memory grow. Work on one context is serialised:
 * a second message in the same context waits for the first reply.
 */
export class SessionStore<T> {
  private readonly entries = new Map<string, { value: T; lastActive: number; chain: Promise<unknown> }>();

  constructor(
    private readonly ttlMs: number,
    private readonly maxSessions = 10_000,
    private readonly now: () => number = Date.now,
  ) {}

  get size(): number {
    return this.entries.size;
  }

  has(id: string): boolean {
    return this.entries.has(id);
  }

  /** The context's state, created by `create` when the context is new. */
  getOrCreate(id: string, create: () => T): T {
    this.evictIdle();
    let entry = this.entries.get(id);
    if (!entry) {
      if (this.entries.size >= this.maxSessions) this.evictOldest();
      entry = { value: create(), lastActive: this.now(), chain: Promise.resolve() };
      this.entries.set(id, entry);
    }
    entry.lastActive = this.now();
    return entry.value;
  }

  /** Runs `work` after any work already queued on this context. */
  run<R>(id: string, work: () => Promise<R>): Promise<R> {
    const entry = this.entries.get(id);
    if (!entry) return work();
    const result = entry.chain.then(work, work);
    entry.chain = result.catch(() => undefined);
    return result.finally(() => {
      entry.lastActive = this.now();
    });
  }

  delete(id: string): void {
    this.entries.delete(id);
  }

  evictIdle(): void {
    const cutoff = this.now() - this.ttlMs;
    for (const [id, entry] of this.entries) if (entry.lastActive < cutoff) this.entries.delete(id);
  }

  private evictOldest(): void {
    let oldest: [string, number] | undefined;
    for (const [id, entry] of this.entries) if (!oldest || entry.lastActive < oldest[1]) oldest = [id, entry.lastActive];
    if (oldest) this.entries.delete(oldest[0]);
  }
}
