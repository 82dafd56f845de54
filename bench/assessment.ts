/**
 * The green agent's performance, measured end to end: the green (`dist/cli.js serve`, the built
 * server, with bench/green-probe.mjs preloaded to read its event loop) and each purple are separate
 * processes talking A2A JSON-RPC over loopback HTTP, as in production. All on the real CRMArena-Pro
 * tasks (2,140) against the sample org with allow_data_mismatch: the org does not hold their
 * records, and nothing here depends on the answers.
 *
 *  lean          A fresh green, one full run against an instant purple (bench/purple.ts, --delay-ms 0,
 *                --lean-concurrency 64): the green's CPU per task, its RSS idle, at its peak and
 *                1 s after the run, with its journal on as in the green image (--lean-journal 0: off);
 *                then --lean-requests (3) requests of 44 tasks in the same green, each one's CPU per
 *                task (a request's fixed cost shows there). With the load average. --lean-rounds (1)
 *                fresh greens in turn; --against 'COMMAND' ({port}, {tasks}) a second green, such as
 *                the Python predecessor, measured the same way and alternated with ours round by
 *                round, with --against-config '{...}' for its own spelling of a config key
 *                (bench/lean.ts).
 *  throughput    A purple (bench/purple.ts) that answers every turn --delay-ms (1,000) after the
 *                request, on turn --turns (1: one turn per episode), at each --concurrency (64,
 *                256): wall time against the physical limit tasks x turns x delay / concurrency,
 *                where the rest goes, and the green's event-loop delay.
 *  memory        --runs (10) full oracle runs one after another in one green: RSS after each, and
 *                the growth. Run 1 is also the oracle throughput line (concurrency 4, the default).
 *  heap          The same runs in a fresh green with a forced full GC after each: the heap it keeps.
 *  observations  --obs-tasks (30) episodes of 10 turns, each turn a query whose observation is
 *                about 0.64 MB of text: the green's RSS idle before, at its peak, and after; in a
 *                green without a journal, then in one with a journal (ENTROPIC_RUNS_DIR in a fresh
 *                directory, removed after), whose line says "journal on" and what the journal kept.
 *  timings       What the tests no longer assert about time (bench/timings.ts): megabytes of text
 *  admission     through the linear-time paths, the twins' build, the query pool's shares and
 *  neighbours    orphans; a full-size admission's event-loop gaps; an honest run beside hostile
 *                purples against alone. Each beside the target its test used to assert.
 *  largest       The largest request allowed (CONFIG_LIMITS: episodes and turns) held, its results
 *                built, copied and serialised under the image's --max-old-space-size=384, at its
 *                corners (bench/largest.ts; alone: npm run bench:largest).
 *
 *   npm run bench [-- --only lean,throughput,memory,heap,observations,timings,admission,neighbours,largest --tasks FILE --org PATH
 *                     --lean-concurrency 64 --lean-requests 3 --lean-journal 1 --lean-rounds 1 --against 'COMMAND' --against-config '{}'
 *                     --green-semi-space-mb 16 --green-malloc-arenas 2 --green-mmap-threshold 4194304
 *                     --concurrency 64,256 --delay-ms 1000 --turns 1 --runs 10 --obs-tasks 30
 *                     --obs-concurrency 4 --settle-ms 1000 --after-s 40 --green-env KEY=VALUE ...
 *                     --green-node-arg=--cpu-prof --green-node-arg=--cpu-prof-dir=DIR ...
 *                     --a2a both|1.0|0.3]
 *
 * Every green runs with the green image's young generation (--max-semi-space-size=16, the
 * Dockerfile's NODE_OPTIONS) unless --green-semi-space-mb 0 (Node.js's own), and with its malloc
 * arenas (MALLOC_ARENA_MAX=2, the Dockerfile's) unless --green-malloc-arenas 0 (glibc's own), and
 * its fixed malloc mmap threshold (GLIBC_TUNABLES=glibc.malloc.mmap_threshold=4194304, the
 * Dockerfile's) unless --green-mmap-threshold 0 (glibc's own, which grows with what is freed).
 * --a2a is what the benchmark purple's card offers, so which A2A version the green speaks to it:
 * both (the default) and 1.0 measure the 1.0 client, 0.3 its 0.3 one.
 * Everything is measured and printed, nothing asserted; the targets are printed alongside.
 * MB = 2^20 bytes.
 */
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import { cpus, tmpdir, totalmem } from "node:os";
import { basename, join } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { f, load, mb, out, table, verdict } from "./format.js";
import { largest } from "./largest.js";
import { journalContents, lean } from "./lean.js";
import { admission, neighbours, timings } from "./timings.js";
import { assess, cpuMs, greenCpu, MB, memoryOf, probe, purpleStats, resetPeak, sampleRss, sleep, startBenchPurple, startGreen, startOracle, type ProbeReport, type Started } from "./harness.js";

const PARTS = ["lean", "throughput", "memory", "heap", "observations", "timings", "admission", "neighbours", "largest"] as const;
type Part = (typeof PARTS)[number];

const { values } = parseArgs({
  options: {
    only: { type: "string", default: PARTS.join(",") },
    tasks: { type: "string", default: fileURLToPath(new URL("../../shared/data/crmarenapro/b2b_tasks.json", import.meta.url)) },
    org: { type: "string", default: "sample" },
    concurrency: { type: "string", default: "64,256" },
    "delay-ms": { type: "string", default: "1000" },
    turns: { type: "string", default: "1" },
    runs: { type: "string", default: "10" },
    "obs-tasks": { type: "string", default: "30" },
    "obs-concurrency": { type: "string", default: "4" },
    "settle-ms": { type: "string", default: "1000" },
    "after-s": { type: "string", default: "40" },
    "green-env": { type: "string", multiple: true, default: [] },
    "green-node-arg": { type: "string", multiple: true, default: [] },
    "green-semi-space-mb": { type: "string", default: "16" },
    "green-malloc-arenas": { type: "string", default: "2" },
    "green-mmap-threshold": { type: "string", default: "4194304" },
    "lean-concurrency": { type: "string", default: "64" },
    "lean-requests": { type: "string", default: "3" },
    "lean-journal": { type: "string", default: "1" },
    "lean-rounds": { type: "string", default: "1" },
    against: { type: "string" },
    "against-config": { type: "string", default: "{}" },
    a2a: { type: "string", default: "both" },
  },
});
const only = new Set(values.only!.split(",").map((part) => part.trim()));
for (const part of only) if (!(PARTS as readonly string[]).includes(part)) throw new Error(`--only: unknown part '${part}'; the parts are ${PARTS.join(", ")}`);
const tasksFile = values.tasks!;
const taskCount = (JSON.parse(readFileSync(tasksFile, "utf8")) as unknown[]).length;
const delayMs = Number(values["delay-ms"]);
const turns = Number(values.turns);
const settleMs = Number(values["settle-ms"]);
/** --a2a both|1.0|0.3: what the benchmark purple's card offers, so the version the green speaks (both: 1.0). */
const a2a = values.a2a!;
/** --green-env KEY=VALUE (repeatable): extra environment for every green, e.g. NODE_OPTIONS=--max-old-space-size=256. */
const greenEnv = Object.fromEntries(
  values["green-env"]!.map((pair) => {
    const at = pair.indexOf("=");
    if (at <= 0) throw new Error(`--green-env: expected KEY=VALUE (got '${pair}')`);
    return [pair.slice(0, at), pair.slice(at + 1)];
  }),
);
/** --green-malloc-arenas (2, the green image's MALLOC_ARENA_MAX; 0: glibc's own, 8 a core): unless --green-env sets it. */
const mallocArenas = Number(values["green-malloc-arenas"]);
if (mallocArenas > 0) greenEnv.MALLOC_ARENA_MAX ??= String(mallocArenas);
/** --green-mmap-threshold (4194304, the green image's GLIBC_TUNABLES; 0: glibc's own): unless --green-env sets GLIBC_TUNABLES. */
const mmapThreshold = Number(values["green-mmap-threshold"]);
if (mmapThreshold > 0) greenEnv.GLIBC_TUNABLES ??= `glibc.malloc.mmap_threshold=${mmapThreshold}`;
/** --green-node-arg (repeatable): a Node.js option for every green, e.g. --cpu-prof (not allowed in NODE_OPTIONS). */
const semiSpaceMb = Number(values["green-semi-space-mb"]);
const greenNodeArgs = [...(semiSpaceMb > 0 ? [`--max-semi-space-size=${semiSpaceMb}`] : []), ...values["green-node-arg"]!];
/** 1,000 rows of EmailMessage x Task columns: the text observation is about 0.64 MB (the limits: 1,000 rows, 1 MB). */
const LARGE_SQL = "SELECT e.*, t.* FROM EmailMessage e CROSS JOIN Task t LIMIT 1000";
const OBS_STEPS = 10;
const GC_UNMAP_MS = 2_000;

const running = new Set<Started>();
async function stopAll(): Promise<void> {
  await Promise.all([...running].map((agent) => agent.stop()));
  running.clear();
}
for (const signal of ["SIGINT", "SIGTERM"] as const) process.on(signal, () => void stopAll().then(() => process.exit(130)));
const keep = (agent: Started) => (running.add(agent), agent);

// ---------------------------------------------------------------- formatting

/** The probe's samples are timer intervals of `resolution` ms; the delay is what exceeds the interval. */
const delayOf = (report: ProbeReport, key: "p50Ms" | "p99Ms" | "maxMs") => Math.max(0, report[key] - report.resolutionMs);
const terminations = (results: any) => Object.entries((results.terminations ?? {}) as Record<string, number>).map(([kind, n]) => `${kind} ${n}`).join(", ");

// ---------------------------------------------------------------- 1 + 2: throughput and event-loop delay

interface ThroughputRow {
  concurrency: number;
  tasks: number;
  wallS: number;
  limitS: number;
  floorS: number;
  /** Request sent -> the purple's first request arrived. */
  setupS: number;
  /** The purple's first request -> its `concurrency`-th (how long the green takes to start its first round). */
  firstRoundS: number;
  /** The purple's last reply -> the results reply read whole. */
  endS: number;
  /** A turn as the green sees it: send -> reply parsed (the purple holds each for delayMs). */
  turnMs: number;
  serverCpuMs: number;
  queryCpuMs: number;
  purpleCpuMs: number;
  eld: ProbeReport;
  peakMb: number;
  terminations: string;
}

async function throughputAt(concurrency: number): Promise<ThroughputRow> {
  const green = keep(await startGreen(tasksFile, values.org!, { env: greenEnv, nodeArgs: greenNodeArgs }));
  const purple = keep(await startBenchPurple({ delayMs, turns, a2a }));
  try {
    const cpuBefore = greenCpu(green.pid);
    const purpleBefore = cpuMs(purple.pid);
    resetPeak(green.pid);
    await probe(green, "reset");
    const outcome = await assess(green, purple, { concurrency, allow_data_mismatch: true, max_steps: Math.max(10, turns) });
    const eld = await probe(green, "report");
    const cpuAfter = greenCpu(green.pid);
    const purpleCpu = cpuMs(purple.pid) - purpleBefore;
    const stats = await purpleStats(purple);
    const tasks = outcome.results.summary.total_tasks as number;
    const steps = (outcome.results.results as { trajectory: { steps: { purple_ms: number }[] } }[]).flatMap((episode) => episode.trajectory.steps);
    return {
      concurrency,
      tasks,
      wallS: outcome.wallS,
      limitS: (tasks * turns * delayMs) / 1000 / concurrency,
      floorS: (Math.ceil(tasks / concurrency) * turns * delayMs) / 1000,
      setupS: (stats.arrivals[0]! - outcome.sentAt) / 1000,
      firstRoundS: (stats.arrivals[Math.min(concurrency, stats.arrivals.length) - 1]! - stats.arrivals[0]!) / 1000,
      endS: (outcome.receivedAt - stats.lastReplyAt) / 1000,
      turnMs: steps.reduce((sum, step) => sum + step.purple_ms, 0) / Math.max(1, steps.length),
      serverCpuMs: (cpuAfter.serverMs - cpuBefore.serverMs) / tasks,
      queryCpuMs: (cpuAfter.queryMs - cpuBefore.queryMs) / tasks,
      purpleCpuMs: purpleCpu / tasks,
      eld,
      peakMb: memoryOf(green.pid).hwmMb,
      terminations: terminations(outcome.results),
    };
  } finally {
    await release(green, purple);
  }
}

async function throughput(): Promise<void> {
  const levels = values.concurrency!.split(",").map(Number);
  const rows: ThroughputRow[] = [];
  for (const concurrency of levels) rows.push(await throughputAt(concurrency));
  const target = (concurrency: number) => (concurrency <= 64 ? 1.05 : 1.15);
  const s = f(delayMs / 1000, 3);
  out();
  out(`1. Throughput against the physical limit: ${taskCount} tasks; a purple (bench/purple.ts) that answers every turn ${delayMs} ms after the request arrives, with the final answer on turn ${turns} (${turns === 1 ? "one turn per episode" : `${turns} turns per episode`})`);
  out(`   limit = tasks x turns x ${s} s / concurrency; floor = ceil(tasks / concurrency) x turns x ${s} s, the schedule's own minimum (the last round is partly empty)`);
  table(
    ["concurrency", "wall s", "limit s", "wall/limit", "target", "floor s", "wall/floor"],
    rows.map((row) => [
      String(row.concurrency),
      f(row.wallS, 2),
      f(row.limitS, 2),
      `${f(row.wallS / row.limitS, 3)}x`,
      `<= ${f(target(row.concurrency), 2)}x ${verdict(row.wallS / row.limitS <= target(row.concurrency))}`,
      f(row.floorS, 2),
      `${f(row.wallS / row.floorS, 3)}x`,
    ]),
  );
  out(`   where the time goes: setup = request sent -> the purple's first request; first round = the purple's 1st -> ${rows.map((row) => row.concurrency).join("th/")}th request;`);
  out(`   turn = a turn as the green times it (send -> reply read; the purple holds it ${delayMs} ms); end = the purple's last reply -> the results reply read; CPU from /proc per task`);
  table(
    ["concurrency", "setup s", "first round s", "mean turn ms", "end s", "green CPU ms/task", "query procs ms/task", "purple CPU ms/task", "green peak RSS MB", "terminations"],
    rows.map((row) => [String(row.concurrency), f(row.setupS, 2), f(row.firstRoundS, 2), f(row.turnMs, 0), f(row.endS, 2), f(row.serverCpuMs, 2), f(row.queryCpuMs, 2), f(row.purpleCpuMs, 2), mb(row.peakMb), row.terminations]),
  );
  out();
  out(`2. The green's event-loop delay during those runs (perf_hooks.monitorEventLoopDelay in the green's own process, from the request to the reply;`);
  out(`   a sample every ${rows[0]?.eld.resolutionMs ?? 10} ms, delay = sample - ${rows[0]?.eld.resolutionMs ?? 10} ms)`);
  table(
    ["concurrency", "samples", "p50 ms", "p99 ms", "max ms"],
    rows.map((row) => [String(row.concurrency), String(row.eld.count), f(delayOf(row.eld, "p50Ms"), 2), f(delayOf(row.eld, "p99Ms"), 2), f(delayOf(row.eld, "maxMs"), 2)]),
  );
}

// ---------------------------------------------------------------- 3a + 4: oracle runs, memory across runs

interface OracleRun {
  run: number;
  tasks: number;
  wallS: number;
  serverCpuMs: number;
  queryCpuMs: number;
  peakMb: number;
  rssMb: number;
  heapUsedMb: number;
  resultsMb: number;
  /** --heap pass: after a forced full GC. */
  collected?: { heapUsedMb: number; rssMb: number };
}

/** `runs` full oracle runs one after another in one green; with `gc`, a full GC after each run's figures. */
async function oracleRuns(runs: number, gc: boolean): Promise<{ idleMb: number; rows: OracleRun[] }> {
  const green = keep(await startGreen(tasksFile, values.org!, { exposeGc: gc, env: greenEnv, nodeArgs: greenNodeArgs }));
  const purple = keep(await startOracle(tasksFile));
  const rows: OracleRun[] = [];
  try {
    await sleep(settleMs);
    const idleMb = memoryOf(green.pid).rssMb;
    for (let run = 1; run <= runs; run++) {
      resetPeak(green.pid);
      const cpuBefore = greenCpu(green.pid);
      const outcome = await assess(green, purple, { allow_data_mismatch: true });
      const cpuAfter = greenCpu(green.pid);
      const peakMb = memoryOf(green.pid).hwmMb;
      await sleep(settleMs);
      const rssMb = memoryOf(green.pid).rssMb;
      const report = await probe(green, "report");
      const collected = gc ? await probe(green, "report", { gc: true }) : undefined;
      // V8 hands freed large pages back to the OS from a background task: give it a moment.
      if (gc) await sleep(GC_UNMAP_MS);
      const tasks = outcome.results.summary.total_tasks as number;
      rows.push({
        run,
        tasks,
        wallS: outcome.wallS,
        serverCpuMs: (cpuAfter.serverMs - cpuBefore.serverMs) / tasks,
        queryCpuMs: (cpuAfter.queryMs - cpuBefore.queryMs) / tasks,
        peakMb,
        rssMb,
        heapUsedMb: report.memory.heapUsed / MB,
        resultsMb: outcome.resultsBytes / MB,
        ...(collected ? { collected: { heapUsedMb: collected.memory.heapUsed / MB, rssMb: memoryOf(green.pid).rssMb } } : {}),
      });
    }
    return { idleMb, rows };
  } finally {
    await release(green, purple);
  }
}

async function memory(): Promise<void> {
  const runs = Number(values.runs);
  const { idleMb, rows } = await oracleRuns(runs, false);
  out();
  out(`3a. Green RSS over ${runs} full oracle runs in one green process (the oracle purple: dist/cli.js purple --strategy oracle; concurrency 4, the config default)`);
  out(`    idle RSS before run 1: ${mb(idleMb)} MB; peak = VmHWM during the run; after = VmRSS ${settleMs} ms after the run's reply; heap = V8 heapUsed then (no forced GC)`);
  table(
    ["run", "tasks", "wall s", "tasks/s", "peak RSS MB", "RSS after MB", "heap used MB"],
    rows.map((row) => [String(row.run), String(row.tasks), f(row.wallS, 2), f(row.tasks / row.wallS, 0), mb(row.peakMb), mb(row.rssMb), mb(row.heapUsedMb)]),
  );
  const growth = rows[rows.length - 1]!.rssMb - rows[0]!.rssMb;
  out(`    RSS growth, after run 1 -> after run ${runs}: ${f(growth, 1)} MB (target <= 50 MB: ${verdict(growth <= 50)})`);
  const first = rows[0]!;
  out();
  out(`4. Oracle throughput (run 1 above, a fresh green): ${first.tasks} tasks in ${f(first.wallS, 2)} s = ${f(first.tasks / first.wallS, 0)} tasks/s at concurrency 4;`);
  out(`   green CPU ${f(first.serverCpuMs, 2)} ms/task (+ ${f(first.queryCpuMs, 2)} ms/task in query processes); results reply ${f(first.resultsMb, 2)} MB; the predecessor took 63 s, strictly sequential`);
}

async function heap(): Promise<void> {
  const runs = Number(values.runs);
  const { rows } = await oracleRuns(runs, true);
  out();
  out(`3a'. What the green keeps: the same ${runs} oracle runs in a fresh green started with --expose-gc, a full GC after each run's figures, RSS read ${GC_UNMAP_MS / 1000} s later`);
  table(
    ["run", "wall s", "heap used after GC MB", "RSS after GC MB"],
    rows.map((row) => [String(row.run), f(row.wallS, 2), f(row.collected!.heapUsedMb, 1), mb(row.collected!.rssMb)]),
  );
  const kept = rows[rows.length - 1]!.collected!.heapUsedMb - rows[0]!.collected!.heapUsedMb;
  out(`    heap kept after GC grows ${f(kept, 1)} MB from run 1 to run ${runs} (${f(kept / Math.max(1, runs - 1), 1)} MB per run); RSS after GC grows ${f(rows[rows.length - 1]!.collected!.rssMb - rows[0]!.collected!.rssMb, 1)} MB`);
}

// ---------------------------------------------------------------- 3b: large observations

/** One pass of 3b: a fresh green, with a journal in a fresh directory when `journal` is set. */
async function observationsPass(journal: boolean): Promise<void> {
  const tasks = Number(values["obs-tasks"]);
  const concurrency = Number(values["obs-concurrency"]);
  const windowS = Number(values["after-s"]);
  const runsDir = journal ? mkdtempSync(join(tmpdir(), "bench-journal-")) : undefined;
  const green = keep(await startGreen(tasksFile, values.org!, { env: { ...greenEnv, ...(runsDir ? { ENTROPIC_RUNS_DIR: runsDir } : {}) }, nodeArgs: greenNodeArgs }));
  // Never answers within max_steps: every one of the 10 turns is the large query.
  const purple = keep(await startBenchPurple({ delayMs: 0, turns: OBS_STEPS + 1, sql: LARGE_SQL, a2a }));
  try {
    await sleep(settleMs);
    const idle = memoryOf(green.pid).rssMb;
    resetPeak(green.pid);
    const sampler = sampleRss(green.pid, 20);
    await probe(green, "reset");
    const outcome = await assess(green, purple, { allow_data_mismatch: true, task_limit: tasks, max_steps: OBS_STEPS, concurrency });
    const done = performance.now();
    const eld = await probe(green, "report");
    const peak = Math.max(sampler.stop(), memoryOf(green.pid).hwmMb);
    // Then RSS every 250 ms until it is back within 50 MB of idle, or the window closes.
    const trace: { s: number; rss: number }[] = [];
    for (;;) {
      const s = (performance.now() - done) / 1000;
      trace.push({ s, rss: memoryOf(green.pid).rssMb });
      if (trace[trace.length - 1]!.rss - idle <= 50 || s >= windowS) break;
      await sleep(250);
    }
    const at = (seconds: number) => [...trace].reverse().find((point) => point.s <= seconds)!.rss;
    const last = trace[trace.length - 1]!;
    const back = last.rss - idle <= 50;
    const stats = await purpleStats(purple);
    const steps = (outcome.results.results as { trajectory: { steps: unknown[] } }[]).reduce((sum, episode) => sum + episode.trajectory.steps.length, 0);
    const journalNote = runsDir ? journalContents(runsDir) : "no journal (ENTROPIC_RUNS_DIR unset)";
    out();
    out(`3b${journal ? "''" : "'"}. ${journal ? "JOURNAL ON" : "journal off"}: green RSS through ${steps} turns with large observations: ${tasks} episodes x ${OBS_STEPS} turns (max_steps) at concurrency ${concurrency}; every turn the purple sends`);
    out(`    sql_query "${LARGE_SQL}": 1,000 rows, ${f(stats.maxObservationChars / MB, 2)} MB of observation text; the ${stats.observations} observations the purple received came in`);
    out(`    ${f(stats.maxBodyBytes / MB, 2)} MB requests (text + data part); the 10th of each episode ends it and is not sent. Wall ${f(outcome.wallS, 2)} s; terminations ${terminations(outcome.results)}`);
    out(`    journal: ${journalNote}`);
    out(`    peak = the highest of VmHWM and VmRSS sampled every 20 ms; after = VmRSS that long after the results reply, sampled every 250 ms for up to ${windowS} s`);
    table(
      ["idle RSS MB", "peak RSS MB", "peak - idle", "target", "1 s after", "5 s after", "after - idle (1 s)", "target", "back within 50 MB of idle"],
      [[mb(idle), mb(peak), mb(peak - idle), `<= 250 ${verdict(peak - idle <= 250)}`, mb(at(1)), mb(at(5)), mb(at(1) - idle), `<= 50 ${verdict(at(1) - idle <= 50)}`, back ? `after ${f(last.s, 1)} s (${mb(last.rss)} MB)` : `not within ${windowS} s (${mb(last.rss)} MB)`]],
    );
    out(`    large-observation peak, ${journal ? "journal on" : "journal off"}: idle + ${mb(peak - idle)} MB (target <= idle + 250 MB: ${verdict(peak - idle <= 250)})`);
    out(`    event-loop delay during the run: p50 ${f(delayOf(eld, "p50Ms"), 2)} ms, p99 ${f(delayOf(eld, "p99Ms"), 2)} ms, max ${f(delayOf(eld, "maxMs"), 2)} ms`);
  } finally {
    await release(green, purple);
    if (runsDir) rmSync(runsDir, { recursive: true, force: true });
  }
}


async function observations(): Promise<void> {
  await observationsPass(false);
  await observationsPass(true);
}

async function release(...agents: Started[]): Promise<void> {
  for (const agent of agents) {
    await agent.stop();
    running.delete(agent);
  }
}

// ---------------------------------------------------------------- main

async function main(): Promise<void> {
  const started = performance.now();
  const cpu = cpus();
  out(`Entropic CRMArena green-agent benchmark: ${cpu.length} cores (${cpu[0]?.model.trim() ?? "unknown CPU"}), ${f(totalmem() / 1024 ** 3, 0)} GB RAM, Node ${process.version}, ${process.platform}`);
  out(`tasks: ${taskCount} from ${basename(tasksFile)}; org: ${values.org} (allow_data_mismatch: true); green = node dist/cli.js serve, purples in their own processes, HTTP on 127.0.0.1`);
  if (Object.keys(greenEnv).length > 0) out(`green environment: ${Object.entries(greenEnv).map(([key, value]) => `${key}=${value}`).join(" ")}${greenEnv.MALLOC_ARENA_MAX === String(mallocArenas) ? " (the green image's malloc settings)" : ""}`);
  if (greenNodeArgs.length > 0) out(`green Node.js options: ${greenNodeArgs.join(" ")}${semiSpaceMb > 0 ? " (the young generation of the green image's NODE_OPTIONS)" : ""}`);
  out(`${load()} at the start (a shared machine's figures are compared within one run)`);
  const run: Record<Part, () => Promise<void>> = {
    lean: () =>
      lean({
        tasksFile,
        org: values.org!,
        concurrency: Number(values["lean-concurrency"]),
        requests: Number(values["lean-requests"]),
        journal: values["lean-journal"] !== "0",
        settleMs,
        greenEnv,
        greenNodeArgs,
        against: values.against,
        againstConfig: JSON.parse(values["against-config"]!) as Record<string, unknown>,
        rounds: Number(values["lean-rounds"]),
        a2a,
        keep,
        release,
      }),
    throughput,
    memory,
    heap,
    observations,
    timings: () => timings(out, tasksFile),
    admission: () => admission(out),
    neighbours: () => neighbours(out),
    largest: async () => {
      await largest(out);
    },
  };
  try {
    for (const part of PARTS) if (only.has(part)) await run[part]();
  } finally {
    await stopAll();
  }
  out();
  out(`benchmark wall time: ${f((performance.now() - started) / 1000, 0)} s; ${load()} at the end`);
}

await main();
