/**
 * Throughput benchmark: the full 2,140 real CRMArena-Pro tasks against the oracle purple,
 * green and purple as separate processes talking HTTP on loopback, as in production.
 * Prints wall time, tasks per second, the green agent's CPU time per task and peak memory.
 *
 *   npm run bench [-- --tasks FILE --org PATH --concurrency N --limit N]
 */
import { spawn, type ChildProcess } from "node:child_process";
import { existsSync, readFileSync } from "node:fs";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";

const root = fileURLToPath(new URL("..", import.meta.url));
const { values } = parseArgs({
  options: {
    tasks: { type: "string", default: fileURLToPath(new URL("../../shared/data/crmarenapro/b2b_tasks.json", import.meta.url)) },
    org: { type: "string", default: "sample" },
    concurrency: { type: "string", default: "16" },
    limit: { type: "string" },
  },
});

const CLK_TCK = 100;

function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

function start(args: string[]): ChildProcess {
  return spawn(process.execPath, ["dist/cli.js", ...args], { cwd: root, stdio: ["ignore", "ignore", "pipe"], env: { ...process.env, LOG_LEVEL: "warn" } });
}

async function waitForCard(url: string): Promise<void> {
  for (let i = 0; i < 200; i++) {
    try {
      if ((await fetch(new URL(".well-known/agent-card.json", url))).ok) return;
    } catch {
      // not up yet
    }
    await new Promise((resolve) => setTimeout(resolve, 100));
  }
  throw new Error(`${url} did not come up`);
}

/** CPU milliseconds (user + system) of a process and of its children, from /proc. */
function cpuMs(pid: number): number {
  const fields = readFileSync(`/proc/${pid}/stat`, "utf8").split(") ")[1]!.split(" ");
  return ((Number(fields[11]) + Number(fields[12])) * 1000) / CLK_TCK;
}

function childPids(pid: number): number[] {
  const path = `/proc/${pid}/task/${pid}/children`;
  return existsSync(path) ? readFileSync(path, "utf8").trim().split(/\s+/).filter(Boolean).map(Number) : [];
}

function peakRssMb(pid: number): number {
  const match = /VmHWM:\s+(\d+) kB/.exec(readFileSync(`/proc/${pid}/status`, "utf8"));
  return match ? Number(match[1]) / 1024 : 0;
}

async function main() {
  const greenPort = await freePort();
  const purplePort = await freePort();
  const green = start(["serve", "--port", String(greenPort), "--tasks", values.tasks!, "--org", values.org!]);
  const purple = start(["purple", "--strategy", "oracle", "--port", String(purplePort), "--tasks", values.tasks!]);
  const greenUrl = `http://127.0.0.1:${greenPort}/`;
  const purpleUrl = `http://127.0.0.1:${purplePort}/`;
  try {
    await Promise.all([waitForCard(greenUrl), waitForCard(purpleUrl)]);
    const workers = childPids(green.pid!);
    const cpuBefore = cpuMs(green.pid!) + workers.reduce((sum, pid) => sum + cpuMs(pid), 0);
    const config: Record<string, unknown> = { concurrency: Number(values.concurrency) };
    if (values.limit) config.task_limit = Number(values.limit);
    const started = performance.now();
    const response = await fetch(greenUrl, {
      method: "POST",
      headers: { "content-type": "application/json" },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { message: { kind: "message", role: "user", messageId: "bench", parts: [{ kind: "text", text: JSON.stringify({ participants: { agent: purpleUrl }, config }) }] } } }),
    });
    const body = (await response.json()) as { result: { status: { state: string }; artifacts: { parts: { kind: string; data?: any }[] }[] } };
    const wallS = (performance.now() - started) / 1000;
    const cpuAfter = cpuMs(green.pid!) + childPids(green.pid!).reduce((sum, pid) => sum + cpuMs(pid), 0);
    const results = body.result.artifacts[0]!.parts.find((part) => part.kind === "data")!.data;
    const tasks = results.summary.total_tasks as number;
    const mainPeak = peakRssMb(green.pid!);
    const workerPeak = childPids(green.pid!).reduce((sum, pid) => sum + peakRssMb(pid), 0);
    const lines = [
      `state                      ${body.result.status.state}`,
      `tasks                      ${tasks} (passed ${results.summary.total_passed})`,
      `concurrency                ${values.concurrency}`,
      `wall time                  ${wallS.toFixed(2)} s`,
      `tasks per second           ${(tasks / wallS).toFixed(1)}`,
      `green CPU per task         ${((cpuAfter - cpuBefore) / tasks).toFixed(2)} ms (server and query processes)`,
      `green peak memory          ${mainPeak.toFixed(0)} MB server + ${workerPeak.toFixed(0)} MB query processes`,
      `results object             ${(JSON.stringify(results).length / 1_048_576).toFixed(2)} MB`,
      `predecessor, same workload 63 s sequential (target: at most 15.75 s)`,
    ];
    process.stdout.write(`${lines.join("\n")}\n`);
  } finally {
    green.kill();
    purple.kill();
  }
}

await main();
