import { setImmediate } from "node:timers/promises";

/** What a pool's work on one item may leave to finish: it runs while the worker starts its next item. */
export type FollowUp = () => Promise<void>;

export interface PoolOptions {
  /** Items worked on at once. */
  readonly concurrency: number;
  /** Stops the pool at once: no new items (the work in flight sees the same signal and stops itself). */
  readonly signal?: AbortSignal | undefined;
  /** Stops the pool gently: no new items; those in flight finish. */
  readonly drain?: AbortSignal | undefined;
}

/**
 * Works through `items`, `concurrency` at a time, in order. The work on an item may return a
 * follow-up (the episode's recording, say) that runs while the worker's next item is worked on;
 * one follow-up at most waits per worker, so a slow follow-up slows the pool down instead of
 * piling results up in memory. A follow-up that fails stops the pool (no new items) and its
 * error is thrown once the items in flight are done; the work itself must not throw.
 */
export async function runPool<T>(items: readonly T[], options: PoolOptions, work: (item: T) => Promise<FollowUp | undefined>): Promise<void> {
  return runChains(
    items.map((item) => [item]),
    options,
    work,
  );
}

/**
 * `runPool` over chains of items: a chain's items are worked on one after another by one worker
 * (the next starts once the work on the previous one returned; its follow-up may still run), so
 * no two items of a chain are ever in flight together, while different chains run `concurrency`
 * at a time, in order. Stopping (abort, drain, a failed follow-up) starts no new item, in a chain
 * begun or not: what is left of a chain is left whole at its end.
 */
export async function runChains<T>(chains: readonly (readonly T[])[], options: PoolOptions, work: (item: T) => Promise<FollowUp | undefined>): Promise<void> {
  let next = 0;
  let failure: { error: unknown } | undefined;
  const stopped = () => options.signal?.aborted === true || options.drain?.aborted === true || failure !== undefined;
  const worker = async () => {
    let following: Promise<void> = Promise.resolve();
    while (next < chains.length && !stopped()) {
      for (const item of chains[next++]!) {
        if (stopped()) break;
        const followUp = await work(item);
        if (!followUp) continue;
        const previous = following;
        following = previous.then(followUp).catch((error: unknown) => {
          failure ??= { error };
        });
        await previous;
      }
    }
    await following;
  };
  const workers: Promise<void>[] = [];
  for (let i = 0; i < Math.min(options.concurrency, Math.max(1, chains.length)); i++) {
    // One worker per turn of the event loop: each one's first request leaves (its connection
    // opens) while the next is prepared, not all of them only after every one is prepared.
    if (i > 0) await setImmediate();
    const started = worker();
    started.catch(() => undefined); // observed by Promise.all below
    workers.push(started);
  }
  await Promise.all(workers);
  if (failure) throw failure.error;
}
