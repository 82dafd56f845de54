import { constants, PerformanceObserver } from "node:perf_hooks";
import { describe, expect, it } from "vitest";
import { collectNow } from "../../src/util/index.js";

/**
 * The collections the green relies on to give memory back (after an assessment, in the org-copy
 * thread after each copy): V8 must still let a running process have them. Were a Node.js release
 * to refuse (flags frozen after start), collectNow would say so here rather than the server's
 * memory quietly staying at its high-water mark.
 */
describe("collectNow", () => {
  it("runs a full collection now", async () => {
    const kinds: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) kinds.push((entry as unknown as { detail: { kind: number } }).detail.kind);
    });
    observer.observe({ entryTypes: ["gc"] });
    try {
      expect(collectNow("full")).toBe(true);
      // Entries are delivered a few turns later; a plain full collection is V8's major kind.
      for (let i = 0; i < 40 && !kinds.includes(constants.NODE_PERFORMANCE_GC_MAJOR); i++) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(kinds).toContain(constants.NODE_PERFORMANCE_GC_MAJOR);
    } finally {
      observer.disconnect();
    }
  });

  it("runs a young collection when asked for one", async () => {
    const kinds: number[] = [];
    const observer = new PerformanceObserver((list) => {
      for (const entry of list.getEntries()) kinds.push((entry as unknown as { detail: { kind: number } }).detail.kind);
    });
    observer.observe({ entryTypes: ["gc"] });
    try {
      expect(collectNow("young")).toBe(true);
      for (let i = 0; i < 40 && kinds.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 5));
      expect(kinds).toContain(constants.NODE_PERFORMANCE_GC_MINOR);
    } finally {
      observer.disconnect();
    }
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
