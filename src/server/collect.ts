import { getHeapStatistics } from "node:v8";
import { collectNow } from "../util/index.js";

/**
 * How much the heap (in use, or in all) must have grown since the last collection for one to be worth its
 * pause: a request of a few dozen tasks leaves a few megabytes, which V8's own collections take
 * back, and two full collections after each one were most of its fixed cost (26% of the CPU of
 * nine 44-task requests).
 */
const WORTH_COLLECTING_BYTES = 32 * 1024 * 1024;
let heapAfterLast: { readonly used: number; readonly total: number } | undefined;

/**
 * A full garbage collection, when V8 lets us have one and the heap grew enough since the last
 * one to be worth it. An assessment leaves hundreds of megabytes of garbage (observations,
 * request bodies, its results) that V8 would only collect at its next full GC, possibly minutes
 * later on an idle server; collecting once when an assessment ends returns that memory at once,
 * at the price of one pause of about 200 ms of CPU (after a run of thousands of tasks; a request
 * of a few dozen seldom grows the heap enough to pay it).
 */
export function collectGarbage(): void {
  const now = getHeapStatistics();
  const grown = heapAfterLast ? Math.max(now.used_heap_size - heapAfterLast.used, now.total_heap_size - heapAfterLast.total) : Number.POSITIVE_INFINITY;
  if (grown < WORTH_COLLECTING_BYTES) return;
  // Thorough (V8's last resort): a plain full collection frees the garbage, but V8 keeps its pages
  // pooled and its young generation at the run's size for about 8 s, then hands them back; the
  // thorough one hands them back now (RSS 1 s after a run of the 2,140 tasks: 258 -> 198 MB).
  if (!collectNow("last-resort")) return;
  const after = getHeapStatistics();
  heapAfterLast = { used: after.used_heap_size, total: after.total_heap_size };
}
