import { assess, greenCpu, purpleStats, startBenchPurple, startGreen } from "./harness.js";
const green = await startGreen("/work/shared/data/crmarenapro/b2b_tasks.json", "sample", { nodeArgs: ["--max-semi-space-size=16"] });
const purple = await startBenchPurple({ delayMs: 0, turns: 1 });
try {
  const before = greenCpu(green.pid).serverMs;
  const out = await assess(green, purple, { concurrency: 64, allow_data_mismatch: true });
  const cpu = greenCpu(green.pid).serverMs - before;
  const stats = await purpleStats(purple);
  console.log({ wall: out.wallS, cpuPerTask: cpu / 2140, connections: stats.connections, requests: stats.requests, bodyKB: stats.bodyBytes / stats.requests / 1024 });
} finally { await green.stop(); await purple.stop(); }
