import { type ChildProcess, spawn } from "node:child_process";
import { readdirSync, readFileSync } from "node:fs";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AssessmentData } from "../../src/assessment/index.js";
import { servePurple, solverStrategy } from "../../src/baselines/index.js";
import { assessmentParams, freePort, rawRpc, resultsOf, SAMPLE_ORG, SAMPLE_TASKS, sampleData, startGreen } from "../support/helpers.js";
import type { HostileMode } from "../support/hostile-purple.js";
import { SLOW_TESTS } from "../support/tier.js";

const HOSTILE_PURPLE = fileURLToPath(new URL("../support/hostile-purple.ts", import.meta.url));
const CLI = fileURLToPath(new URL("../../src/cli.ts", import.meta.url));

/** A hostile purple in its own process: its URL, a promise per query it sends, and how to stop it. */
async function startHostile(mode: HostileMode, overMcp = false): Promise<{ url: string; queries: () => number; stop: () => void; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", HOSTILE_PURPLE, mode, ...(overMcp ? ["mcp"] : [])], { stdio: ["pipe", "pipe", "inherit"] });
  let sent = 0;
  const lines = createInterface({ input: child.stdout! });
  const url = await new Promise<string>((resolve, reject) => {
    lines.on("line", (line) => {
      if (line === "query") sent++;
      else if (line.startsWith("http")) resolve(line);
    });
    child.once("exit", (code) => reject(new Error(`the hostile purple exited (${code})`)));
  });
  return { url, queries: () => sent, stop: () => child.stdin!.write("stop\n"), child };
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

/** Waits for `condition`, looking every 20 ms, at most `looks` times (the count is the bound, not a clock). */
async function until(condition: () => boolean, looks: number, what: string): Promise<void> {
  for (let look = 0; !condition(); look++) {
    if (look >= looks) throw new Error(`gave up waiting for ${what}`);
    await sleep(20);
  }
}

/*
 * How long the honest run takes beside each hostile purple against alone, and the event loop's
 * longest gap meanwhile, are measured by npm run bench (its "neighbours" part); here, what holds
 * whatever the machine's speed: the honest run completes, every task solved, while the hostile
 * one floods the org and before it ends.
 */
describe.skipIf(!SLOW_TESTS)("an honest assessment beside a hostile one is not held behind it (slow tier)", () => {
  let data: AssessmentData;
  let green: Awaited<ReturnType<typeof startGreen>>;
  let solver: Awaited<ReturnType<typeof servePurple>>;

  beforeAll(async () => {
    data = await sampleData();
    green = await startGreen(data);
    solver = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
  });

  afterAll(async () => {
    solver.server.close();
    await green.close();
    await data.org.close();
  });

  /** The reference solver on the 44 sample tasks: every one solved. */
  async function honestRun(): Promise<void> {
    const { body } = await rawRpc(green.url, "message/send", assessmentParams({ participants: { agent: solver.url }, config: { concurrency: 4 } }));
    const results = resultsOf(body.result);
    expect(results.summary.total_tasks).toBe(44);
    expect(results.results.filter((entry: any) => !entry.success).map((entry: any) => entry.task_idx)).toEqual([]);
  }

  // Over MCP the flood is wider: each hostile episode keeps as many calls in flight as the green serves it, and one more.
  for (const [mode, overMcp] of [
    ["cte-bomb", false],
    ["cross-join", false],
    ["large-result", false],
    ["cte-bomb", true],
    ["large-result", true],
  ] as const) {
    it(`beside a ${mode} purple${overMcp ? " over MCP" : ""}: completes, every task solved, while the hostile run floods the org`, async () => {
      const hostile = await startHostile(mode, overMcp);
      try {
        let hostileDone = false;
        const hostileRun = rawRpc(green.url, "message/send", assessmentParams({ participants: { agent: hostile.url }, config: { concurrency: 8, max_steps: 100 } })).finally(
          () => (hostileDone = true),
        );
        // The honest run starts once the hostile one is flooding the org.
        await until(() => hostile.queries() >= 8, 1_500, "the hostile purple's first queries");
        await honestRun();
        // Beside it all along: the hostile run had not ended (its bombs may all still be in
        // flight, so how many more it sent meanwhile depends on the machine's speed).
        expect(hostileDone, "the hostile run ended before the honest one").toBe(false);
        hostile.stop();
        const { body } = await hostileRun;
        expect(body.result.status.state).toBe("completed");
      } finally {
        hostile.child.kill("SIGKILL");
      }
    }, 240_000);
  }
});

/** The process ids whose parent is `parent` (read from /proc). */
function childrenOf(parent: number): number[] {
  return readdirSync("/proc")
    .filter((name) => /^\d+$/.test(name))
    .flatMap((name) => {
      try {
        // The command may hold spaces and parentheses: the fields after the last ')' are fixed.
        const stat = readFileSync(`/proc/${name}/stat`, "utf8");
        const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
        return Number(fields[1]) === parent && fields[0] !== "Z" ? [Number(name)] : [];
      } catch {
        return [];
      }
    });
}

/** CPU time a process has used so far, in ms (utime + stime at 100 ticks a second). */
function cpuMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const fields = stat.slice(stat.lastIndexOf(")") + 2).split(" ");
    return (Number(fields[11]) + Number(fields[12])) * 10;
  } catch {
    return 0;
  }
}

/** How long ago a process started, in ms (its start time in ticks since boot against the uptime). */
function ageMs(pid: number): number {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    const startTicks = Number(stat.slice(stat.lastIndexOf(")") + 2).split(" ")[19]);
    return Number(readFileSync("/proc/uptime", "utf8").split(" ")[0]) * 1000 - startTicks * 10;
  } catch {
    return 0;
  }
}

/** Whether a process still runs (a zombie waiting for its reaper has stopped). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !["Z", "X"].includes(stat.slice(stat.lastIndexOf(")") + 2, stat.lastIndexOf(")") + 3));
  } catch {
    return false;
  }
}

describe("query workers die with their server", () => {
  it("kill -9 of serve while its workers run CTE bombs leaves no worker", async () => {
    const port = await freePort();
    const green = spawn(process.execPath, ["--import", "tsx", CLI, "serve", "--port", String(port), "--org", SAMPLE_ORG, "--tasks", SAMPLE_TASKS], {
      stdio: ["ignore", "ignore", "inherit"],
      env: { ...process.env, ENTROPIC_QUERY_PROCESSES: "2", LOG_LEVEL: "silent" },
    });
    const hostile = await startHostile("cte-bomb");
    try {
      const url = `http://127.0.0.1:${port}/`;
      for (let attempt = 0; ; attempt++) {
        const ready = await fetch(`${url}.well-known/agent-card.json`)
          .then((response) => response.ok)
          .catch(() => false);
        if (ready) break;
        if (attempt > 300) throw new Error("serve did not start");
        await sleep(100);
      }
      void rawRpc(url, "message/send", {
        ...assessmentParams({ participants: { agent: hostile.url }, config: { concurrency: 4, max_steps: 100 } }),
        configuration: { blocking: false },
      }).catch(() => undefined);
      await until(() => hostile.queries() >= 4, 3_000, "the hostile purple's bombs");
      // A worker inside a bomb spends CPU all along (an idle one none); one seen at it after its
      // first seconds is past starting up. On two loaded cores it may get a small part of a core.
      let busy: number[] = [];
      for (let attempt = 0; busy.length === 0; attempt++) {
        if (attempt > 200) throw new Error("no query worker was seen running a statement");
        const before = new Map(childrenOf(green.pid!).map((pid) => [pid, cpuMs(pid)]));
        await sleep(300);
        busy = [...before].filter(([pid, ms]) => cpuMs(pid) - ms > 0 && ageMs(pid) > 2_500).map(([pid]) => pid);
      }
      const workers = childrenOf(green.pid!);
      green.kill("SIGKILL");
      // Looks every 25 ms, at most 400 times. Without the watchdog they would run on (the pool
      // that would kill them died), or at best die by their own limit; that they die of their
      // parent's death alone, whatever the limit, is tests/org/query-pool.test.ts's (a 600 s limit).
      // How soon (a second by design) is measured by npm run bench.
      for (let look = 0; look < 400 && workers.some(running); look++) await sleep(25);
      expect(busy.filter(running)).toEqual([]);
      expect(workers.filter(running)).toEqual([]);
    } finally {
      green.kill("SIGKILL");
      hostile.child.kill("SIGKILL");
    }
  }, 120_000);
});
