/**
 * What the benchmarks share: starting the green agent and purples as separate processes on
 * loopback, sending an assessment request, and reading a process's CPU time and memory from /proc.
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readdirSync, readFileSync, writeFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";

export const root = fileURLToPath(new URL("..", import.meta.url));
const PROBE = fileURLToPath(new URL("./green-probe.mjs", import.meta.url));
/** USER_HZ: the unit of the CPU times in /proc/<pid>/stat. */
const CLK_TCK = 100;
export const MB = 1_048_576;

export function freePort(): Promise<number> {
  return new Promise((resolve, reject) => {
    const server = createServer();
    server.on("error", reject);
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

export interface Started {
  readonly child: ChildProcess;
  readonly pid: number;
  readonly url: string;
  /** The last lines it wrote to stderr (kept so that the pipe never fills and blocks the process). */
  stderr(): string;
  stop(): Promise<void>;
}

function track(child: ChildProcess, url: string): Started {
  let tail = "";
  child.stderr?.setEncoding("utf8").on("data", (chunk: string) => {
    tail = (tail + chunk).slice(-8_000);
  });
  const exited = new Promise<void>((resolve) => child.once("exit", () => resolve()));
  return {
    child,
    pid: child.pid!,
    url,
    stderr: () => tail,
    stop: async () => {
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGTERM");
      await Promise.race([exited, new Promise((resolve) => setTimeout(resolve, 3_000))]);
      if (child.exitCode === null && child.signalCode === null) child.kill("SIGKILL");
    },
  };
}

const childEnv = (): NodeJS.ProcessEnv => {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "warn" };
  // No journal: the benchmark measures the server, not the disk.
  delete env.ENTROPIC_RUNS_DIR;
  return env;
};

/**
 * The green agent as `entropic-crmarena serve` runs it (the built dist/cli.js), with the probe
 * preloaded and an IPC channel to it.
 */
export async function startGreen(tasks: string, org: string, options: { exposeGc?: boolean; env?: Record<string, string>; nodeArgs?: readonly string[]; stdout?: number } = {}): Promise<Started> {
  const port = await freePort();
  const child = spawn(process.execPath, [...(options.exposeGc ? ["--expose-gc"] : []), ...(options.nodeArgs ?? []), "--import", PROBE, "dist/cli.js", "serve", "--port", String(port), "--tasks", tasks, "--org", org], {
    cwd: root,
    stdio: ["ignore", options.stdout ?? "ignore", "pipe", "ipc"],
    env: { ...childEnv(), ...options.env },
  });
  const started = track(child, `http://127.0.0.1:${port}/`);
  await waitForCard(started);
  return started;
}

/**
 * Another green, started from a command line: `{port}` becomes a free port and `{tasks}` the task
 * file (e.g. the Python predecessor's launcher). It runs through `sh -c 'exec …'`, so its pid is the
 * command's own, and in a process group of its own, so that stopping it stops what it started.
 */
export async function startCommand(template: string, tasks: string): Promise<Started> {
  const port = await freePort();
  const command = template.replaceAll("{port}", String(port)).replaceAll("{tasks}", tasks);
  const child = spawn("sh", ["-c", `exec ${command}`], { cwd: root, stdio: ["ignore", "ignore", "pipe"], env: childEnv(), detached: true });
  const started = track(child, `http://127.0.0.1:${port}/`);
  const stop = started.stop;
  const group: Started = {
    ...started,
    stop: async () => {
      try {
        process.kill(-child.pid!, "SIGTERM");
      } catch {
        // already gone
      }
      await stop();
    },
  };
  await waitForCard(group);
  return group;
}

/** Resident memory of a process by kind of mapping, in MB, from /proc/<pid>/smaps. */
export function residentByMapping(pid: number): Record<string, number> {
  const totals: Record<string, number> = {};
  let kind = "";
  for (const line of readFileSync(`/proc/${pid}/smaps`, "utf8").split("\n")) {
    const header = /^[0-9a-f]+-[0-9a-f]+ \S+ \S+ \S+ \S+\s*(.*)$/.exec(line);
    if (header) {
      const name = header[1]!.trim();
      kind = name === "" ? "anonymous" : name.startsWith("/") ? "files" : name;
      continue;
    }
    const rss = /^Rss:\s+(\d+) kB/.exec(line);
    if (rss) totals[kind] = (totals[kind] ?? 0) + Number(rss[1]) / 1024;
  }
  return totals;
}

/** The reference oracle purple (`entropic-crmarena purple --strategy oracle`). */
export async function startOracle(tasks: string): Promise<Started> {
  const port = await freePort();
  const child = spawn(process.execPath, ["dist/cli.js", "purple", "--strategy", "oracle", "--port", String(port), "--tasks", tasks], { cwd: root, stdio: ["ignore", "ignore", "pipe"], env: childEnv() });
  const started = track(child, `http://127.0.0.1:${port}/`);
  await waitForCard(started);
  return started;
}

/** The benchmark purple of bench/purple.ts. */
export async function startBenchPurple(options: { delayMs: number; turns: number; sql?: string; a2a?: string }): Promise<Started> {
  const port = await freePort();
  const args = ["--import", "tsx", fileURLToPath(new URL("./purple.ts", import.meta.url)), "--port", String(port), "--delay-ms", String(options.delayMs), "--turns", String(options.turns)];
  if (options.sql) args.push("--sql", options.sql);
  if (options.a2a) args.push("--a2a", options.a2a);
  const child = spawn(process.execPath, args, { cwd: root, stdio: ["ignore", "ignore", "pipe", "ipc"], env: childEnv() });
  const started = track(child, `http://127.0.0.1:${port}/`);
  await waitForCard(started);
  return started;
}

async function waitForCard(agent: Started): Promise<void> {
  for (let i = 0; i < 300; i++) {
    if (agent.child.exitCode !== null) break;
    try {
      if ((await fetch(new URL(".well-known/agent-card.json", agent.url))).ok) return;
    } catch {
      // not up yet
    }
    await sleep(100);
  }
  throw new Error(`${agent.url} did not come up:\n${agent.stderr()}`);
}

export const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

export interface ProbeReport {
  readonly resolutionMs: number;
  readonly count: number;
  readonly minMs: number;
  readonly p50Ms: number;
  readonly p90Ms: number;
  readonly p99Ms: number;
  readonly maxMs: number;
  readonly memory: NodeJS.MemoryUsage;
  /** Whether a full garbage collection ran before memory was read (the green has --expose-gc). */
  readonly collected: boolean;
}

/** Asks the probe in the green's process (bench/green-probe.mjs); `gc` collects garbage before a report. */
export function probe(green: Started, command: "reset"): Promise<void>;
export function probe(green: Started, command: "report", options?: { gc?: boolean }): Promise<ProbeReport>;
export function probe(green: Started, command: "reset" | "report", options: { gc?: boolean } = {}): Promise<unknown> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(() => reject(new Error(`the green's probe did not answer ${command}`)), 10_000);
    const onMessage = (message: { probe?: string }) => {
      if (message?.probe !== command) return;
      clearTimeout(timer);
      green.child.off("message", onMessage);
      resolve(message);
    };
    green.child.on("message", onMessage);
    green.child.send({ probe: command, gc: options.gc === true });
  });
}

export interface AssessmentOutcome {
  /** When the request left and the reply was read whole, in milliseconds since the epoch. */
  readonly sentAt: number;
  readonly receivedAt: number;
  readonly state: string;
  readonly statusText: string;
  readonly wallS: number;
  readonly results: any;
  readonly resultsBytes: number;
}

/** One assessment request (message/send, blocking) from the benchmark to the green. */
export async function assess(green: Started, purple: Started, config: Record<string, unknown>): Promise<AssessmentOutcome> {
  const text = JSON.stringify({ participants: { agent: purple.url }, config });
  const started = performance.now();
  const sentAt = performance.timeOrigin + started;
  const response = await fetch(green.url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: { kind: "message", role: "user", messageId: `bench-${Date.now()}`, parts: [{ kind: "text", text }] } } }),
  });
  const raw = await response.text();
  const finished = performance.now();
  const wallS = (finished - started) / 1000;
  const body = JSON.parse(raw) as { result?: { status: { state: string; message?: { parts: { kind: string; text?: string }[] } }; artifacts?: { parts: { kind: string; data?: unknown }[] }[] }; error?: unknown };
  if (!body.result) throw new Error(`the green answered with an error: ${JSON.stringify(body.error)}`);
  const statusText = body.result.status.message?.parts.map((part) => part.text ?? "").join(" ") ?? "";
  const results = body.result.artifacts?.[0]?.parts.find((part) => part.kind === "data")?.data;
  if (body.result.status.state !== "completed" || !results) throw new Error(`assessment ended ${body.result.status.state}: ${statusText}`);
  return { sentAt, receivedAt: performance.timeOrigin + finished, state: body.result.status.state, statusText, wallS, results, resultsBytes: raw.length };
}

export interface PurpleStats {
  /** TCP connections the green opened to the purple. */
  readonly connections: number;
  readonly requests: number;
  readonly bodyBytes: number;
  readonly maxBodyBytes: number;
  readonly observations: number;
  readonly observationChars: number;
  readonly maxObservationChars: number;
  /** When each request arrived, in milliseconds since the epoch. */
  readonly arrivals: number[];
  readonly lastReplyAt: number;
}

/** What the benchmark purple (bench/purple.ts) received. */
export function purpleStats(purple: Started): Promise<PurpleStats> {
  return new Promise((resolve) => {
    const onMessage = (message: { stats?: PurpleStats }) => {
      if (!message?.stats) return;
      purple.child.off("message", onMessage);
      resolve(message.stats);
    };
    purple.child.on("message", onMessage);
    purple.child.send({ stats: true });
  });
}

/** VmRSS and VmHWM (the peak since start or since resetPeak) of a process, in MB. */
export function memoryOf(pid: number): { rssMb: number; hwmMb: number } {
  const status = readFileSync(`/proc/${pid}/status`, "utf8");
  const kb = (key: string) => Number(new RegExp(`${key}:\\s+(\\d+) kB`).exec(status)?.[1] ?? 0);
  return { rssMb: kb("VmRSS") / 1024, hwmMb: kb("VmHWM") / 1024 };
}

/** Resets a process's VmHWM to its current RSS (Linux >= 4.0: write 5 to clear_refs). */
export function resetPeak(pid: number): boolean {
  try {
    writeFileSync(`/proc/${pid}/clear_refs`, "5");
    return true;
  } catch {
    return false;
  }
}

/** Samples a process's RSS every `everyMs`: the highest seen, whatever VmHWM says. */
export function sampleRss(pid: number, everyMs = 50): { stop(): number } {
  let peak = memoryOf(pid).rssMb;
  const timer = setInterval(() => {
    try {
      peak = Math.max(peak, memoryOf(pid).rssMb);
    } catch {
      // exited
    }
  }, everyMs);
  return {
    stop: () => {
      clearInterval(timer);
      return peak;
    },
  };
}

/** CPU milliseconds (user + system) of a process, from /proc. */
export function cpuMs(pid: number): number {
  try {
    const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
    return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
  } catch {
    return 0;
  }
}

export function childPids(pid: number): number[] {
  const path = `/proc/${pid}/task/${pid}/children`;
  return existsSync(path) ? readFileSync(path, "utf8").trim().split(/\s+/).filter(Boolean).map(Number) : [];
}

/** CPU of the green's server process and, apart, of its query processes (those alive now). */
export function greenCpu(pid: number): { serverMs: number; queryMs: number } {
  return { serverMs: cpuMs(pid), queryMs: childPids(pid).reduce((sum, child) => sum + cpuMs(child), 0) };
}

/** Every live process under `pid` (children of its threads included), depth first. */
function descendants(pid: number): number[] {
  const found: number[] = [];
  let threads: string[] = [];
  try {
    threads = readdirSync(`/proc/${pid}/task`);
  } catch {
    return found;
  }
  for (const thread of threads) {
    let children: number[] = [];
    try {
      children = readFileSync(`/proc/${pid}/task/${thread}/children`, "utf8").trim().split(/\s+/).filter(Boolean).map(Number);
    } catch {
      // the thread ended
    }
    for (const child of children) found.push(child, ...descendants(child));
  }
  return found;
}

/**
 * CPU milliseconds of a process and everything under it: its own time, its ended children's that it
 * waited for (cutime, cstime), and its live descendants'. For a green whose make-up is unknown.
 */
export function treeCpuMs(pid: number): number {
  const own = (id: number, withReaped: boolean) => {
    try {
      const fields = readFileSync(`/proc/${id}/stat`, "utf8").split(") ")[1]!.split(" ");
      const ticks = Number(fields[11]) + Number(fields[12]) + (withReaped ? Number(fields[13]) + Number(fields[14]) : 0);
      return (ticks * 1000) / CLK_TCK;
    } catch {
      return 0;
    }
  };
  return own(pid, true) + descendants(pid).reduce((sum, child) => sum + own(child, true), 0);
}

/** VmRSS summed over a process and its live descendants, in MB (shared pages counted in each). */
export function treeRssMb(pid: number): number {
  return [pid, ...descendants(pid)].reduce((sum, id) => {
    try {
      return sum + memoryOf(id).rssMb;
    } catch {
      return sum;
    }
  }, 0);
}
