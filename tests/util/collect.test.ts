import { constants, PerformanceObserver } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { collectNow } from "../../src/util/index.js";

/**
 * The collections the green relies on to give memory back (after an assessment, in the org-copy
 * thread after each copy): V8 must still let a running process have them. Were a Node.js release
 * to refuse (flags frozen after start), collectNow would say so here rather than the server's
 * memory quietly staying at its high-water mark.
 */
/** The kinds of V8's collections (perf_hooks' gc entries) seen after `collect` until one of `awaited` comes (a few turns at most). */
async function collectionsAfter(collect: () => boolean, awaited: number): Promise<number[]> {
  const kinds: number[] = [];
  const observer = new PerformanceObserver((list) => {
    for (const entry of list.getEntries()) kinds.push((entry as unknown as { detail: { kind: number } }).detail.kind);
  });
  observer.observe({ entryTypes: ["gc"] });
  try {
    expect(collect()).toBe(true);
    // Entries are delivered a few turns later.
    for (let i = 0; i < 40 && !kinds.includes(awaited); i++) await new Promise((resolve) => setTimeout(resolve, 5));
    return kinds;
  } finally {
    observer.disconnect();
  }
}

describe("collectNow", () => {
  it("runs a full collection now", async () => {
    expect(await collectionsAfter(() => collectNow("full"), constants.NODE_PERFORMANCE_GC_MAJOR)).toContain(constants.NODE_PERFORMANCE_GC_MAJOR);
  });

  it("runs a young collection when asked for one", async () => {
    expect(await collectionsAfter(() => collectNow("young"), constants.NODE_PERFORMANCE_GC_MINOR)).toContain(constants.NODE_PERFORMANCE_GC_MINOR);
  });

  it("collects what nothing holds any more, at once (last resort)", async () => {
    const collected: string[] = [];
    const registry = new FinalizationRegistry<string>((name) => collected.push(name));
    // Made and dropped inside a function, so no variable of this one holds it; large (1.6 MB), so
    // V8 keeps it with the old generation, which only a full collection frees.
    (() => registry.register(new Array<number>(200_000).fill(0), "dropped"))();
    const kept = { rows: [1, 2, 3] };
    registry.register(kept, "kept");
    // A registration's target may stay alive until the turn that made it ends.
    await new Promise((resolve) => setTimeout(resolve, 0));
    expect(collectNow("last-resort")).toBe(true);
    // A few turns for the registry's callback, too few for a collection of V8's own to come first.
    for (let i = 0; i < 20 && collected.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
    expect(collected).toEqual(["dropped"]);
    expect(kept.rows).toHaveLength(3);
  });
});
