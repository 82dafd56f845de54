// @ts-check
/**
 * Preloaded into the green agent's own process by the benchmark:
 *
 *   node --import ./bench/green-probe.mjs dist/cli.js serve ...   (spawned with an IPC channel)
 *
 * so the green runs exactly as `entropic-crmarena serve` does, and the event loop whose delay is
 * measured is the green's. Plain JavaScript on purpose: a TypeScript loader (tsx) would add its
 * own thread and memory to the process being measured.
 *
 * Over IPC it answers `{probe: "reset"}` (start a new measurement window) and `{probe: "report"}`
 * (the window's event-loop delay histogram and process.memoryUsage()). With `gc: true` and the green
 * started with --expose-gc (the benchmark's --heap diagnostic), a full garbage collection runs
 * first, so that heapUsed is what the process still holds.
 */
import { monitorEventLoopDelay } from "node:perf_hooks";

/** Node's default sampling interval: a sample is the time between two ticks of a timer of this period. */
const RESOLUTION_MS = 10;
const histogram = monitorEventLoopDelay({ resolution: RESOLUTION_MS });
histogram.enable();

const ms = (/** @type {number} */ ns) => ns / 1e6;

if (process.send) {
  process.on("message", (/** @type {any} */ message) => {
    if (message?.probe === "reset") {
      histogram.reset();
      process.send?.({ probe: "reset" });
    } else if (message?.probe === "report") {
      const collected = message.gc === true && typeof globalThis.gc === "function";
      if (collected) globalThis.gc?.();
      process.send?.({
        probe: "report",
        resolutionMs: RESOLUTION_MS,
        count: histogram.count,
        minMs: ms(histogram.min),
        p50Ms: ms(histogram.percentile(50)),
        p90Ms: ms(histogram.percentile(90)),
        p99Ms: ms(histogram.percentile(99)),
        maxMs: ms(histogram.max),
        memory: process.memoryUsage(),
        collected,
      });
    }
  });
  // The server keeps the process alive, not this channel; and a green whose benchmark died goes too.
  process.channel?.unref();
  process.on("disconnect", () => process.exit(0));
}
