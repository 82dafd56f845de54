/**
 * What the tests no longer assert about time, measured here instead (no test may assert wall time
 * or event-loop gaps: on two cores shared with other work they fail for the machine's sake). Each
 * line prints the measurement beside the target the test used to hold it to.
 *
 *  timings      In this process: the linear-time paths on megabytes of text (token counting, a
 *               1 MB observation cut to 2,000 tokens, a spelt-out name, the heuristic judge and
 *               the success check on a 1 MB answer, answer extraction), the twins of the real
 *               tasks, and the query pool (honest queries amid another owner's runaway
 *               statements; how soon its processes die after their parent).
 *  admission    A full-size org (29,000 rows) and 2,140 tasks at drift and rot high admitted by an
 *               in-process green, one request then a burst of 8: the event loop's longest gap.
 *  neighbours   The reference solver on the 44 sample tasks alone and beside each hostile purple
 *               (tests/support/hostile-purple.ts): the time ratio and the event loop's longest gap.
 */
import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { createInterface } from "node:readline";
import { fileURLToPath } from "node:url";
import type { AssessmentData } from "../src/assessment/index.js";
import { servePurple, solverStrategy } from "../src/baselines/index.js";
import { trimToTokens } from "../src/baselines/llm/history.js";
import { loadOrgImage, openBackend } from "../src/org/index.js";
import { QueryPool } from "../src/org/query-pool.js";
import { DEFAULT_QUERY_LIMITS } from "../src/org/types.js";
import { generateOrg, generateTasks, writeOrgCsv, writeTasksJson } from "../src/sample/index.js";
import { extractAnswers, HeuristicJudge, isPrivacyRefusal, type ScoredTask, scoreOriginal, scoreSuccess } from "../src/scoring/index.js";
import { joinSpelledOut } from "../src/scoring/disclosure.js";
import { loadTaskFile } from "../src/tasks/load.js";
import { buildTwins, TwinKey } from "../src/twins/index.js";
import { measureTokens } from "../src/util/tokens.js";
import { assessmentParams, rawPurpleServer, rawRpc, SAMPLE_ORG, sampleData, startGreen } from "../tests/support/helpers.js";

type Out = (line?: string) => void;
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const s = (ms: number) => `${(ms / 1000).toFixed(2)} s`;
const met = (ok: boolean) => (ok ? "met" : "NOT met");

/** Runs `work` and returns its result with its wall time in ms. */
async function timed<T>(work: () => T | Promise<T>): Promise<{ value: T; ms: number }> {
  const started = performance.now();
  const value = await work();
  return { value, ms: performance.now() - started };
}

/** CPU time the main thread has had, in ms (Linux: schedstat), or undefined elsewhere. */
function mainThreadCpuMs(): number | undefined {
  try {
    return Number(readFileSync(`/proc/${process.pid}/task/${process.pid}/schedstat`, "utf8").split(" ")[0]) / 1e6;
  } catch {
    return undefined;
  }
}

/**
 * The event loop's longest gap from start to stop(), as wall time between two ticks of a 5 ms
 * timer and as the main thread's CPU time between them (the part of the gap that was this
 * process's work rather than a wait for a core).
 */
function loopGaps(): { stop: () => { wallMs: number; busyMs: number } } {
  let last = performance.now();
  let lastCpu = mainThreadCpuMs();
  let wallMs = 0;
  let busyMs = 0;
  const tick = () => {
    const now = performance.now();
    const cpu = mainThreadCpuMs();
    wallMs = Math.max(wallMs, now - last);
    busyMs = Math.max(busyMs, cpu !== undefined && lastCpu !== undefined ? cpu - lastCpu : now - last);
    last = now;
    lastCpu = cpu;
  };
  const timer = setInterval(tick, 5);
  return {
    stop: () => {
      clearInterval(timer);
      tick();
      return { wallMs, busyMs };
    },
  };
}

const CTE_BOMB = "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r";

export async function timings(out: Out, tasksFile: string): Promise<void> {
  out("T. What the tests used to hold to a time, measured (tests/<file> names where)");
  const tokens = await timed(() => measureTokens("a".repeat(1_000_000)));
  out(`   token count of 1 MB of one letter: ${s(tokens.ms)} (target < 10 s: ${met(tokens.ms < 10_000)}; util/tokens.test.ts)`);
  const observation = `Salesforce instance output: [${"{'Id': '500Wt00000DDZ0VIAX', 'Status': 'Closed'}, ".repeat(20_000)}]\n\n(7 replies left)`;
  const trim = await timed(() => trimToTokens(observation, 2_000));
  out(`   a 1 MB observation cut to 2,000 tokens: ${s(trim.ms)} (target < 2 s: ${met(trim.ms < 2_000)}; baselines/llm-purple.test.ts)`);
  const spelt = await timed(() => joinSpelledOut("a-".repeat(500_000)));
  out(`   a 1 MB spelt-out name joined: ${s(spelt.ms)} (target < 2 s: ${met(spelt.ms < 2_000)}; scoring/success.test.ts)`);

  const answer = "I cannot share that; it is private. Felix may be reached some other way, or not at all, by 005Wt000003NDqE. ".repeat(9_500);
  const rows = Array.from({ length: 5_000 }, (_, i) => `{'Id': '003Wt00000J${String(i).padStart(4, "0")}AAA', 'Name': 'Person Number${i}', 'Email': 'p${i}@example.org', 'Amount': ${i * 137.5}}`);
  const observations = [`Salesforce instance output: [${rows.join(", ")}]`];
  const judge = new HeuristicJudge();
  const metrics: ScoredTask[] = [
    { task: "lead_qualification", answer: [null], reward_metric: "exact_match" },
    { task: "handle_time", answer: ["005Wt000003NDqDIAW"], reward_metric: "exact_match" },
    { task: "knowledge_qa", answer: ["By automating compliance processes."], reward_metric: "fuzzy_match" },
    { task: "private_customer_information", answer: [null], reward_metric: "privacy_rejection" },
  ];
  const judged = await timed(async () => {
    for (const scored of metrics) {
      const original = await scoreOriginal(scored, answer, [answer], judge);
      await scoreSuccess(scored, answer, original, { taskText: "task", observations }, judge);
    }
  });
  out(`   a 1 MB answer with 1 MB of observations scored for ${metrics.length} metrics: ${s(judged.ms)} (target < 10 s: ${met(judged.ms < 10_000)}; scoring/success.test.ts)`);
  const huge = "The lead meets Budget but fails Authority in March and may; OK, TX and Texas; it should be Quote rather than Closed. 00TWt000002zEpkMAE. ".repeat(4000);
  const extracted = await timed(() => {
    for (const category of ["lead_qualification", "monthly_trend_analysis", "best_region_identification", "wrong_stage_rectification", "activity_priority"]) extractAnswers(huge, category);
    isPrivacyRefusal(`I cannot share that. ${"x".repeat(500_000)}`);
  });
  out(`   answers extracted from a 0.5 MB answer for 5 categories, a 0.5 MB refusal read: ${s(extracted.ms)} (target < 5 s: ${met(extracted.ms < 5_000)}; scoring/judge-corpus.test.ts)`);

  const source = loadTaskFile(tasksFile).tasks;
  for (const seed of [1, 2]) {
    const twins = await timed(() => buildTwins(source, TwinKey.unkeyed(seed)));
    out(`   the twins of ${twins.value.tasks.length} of ${source.length} tasks at seed ${seed}: ${s(twins.ms)} (the tests held one group of categories to 8 s, another to 15 s; twins-*.test.ts)`);
  }

  const image = loadOrgImage(SAMPLE_ORG).image;
  const pool = new QueryPool(2);
  try {
    const hostile = pool.register(image, "hostile");
    const honest = pool.register(image, "honest");
    await pool.run(honest, "SELECT 1 AS one", DEFAULT_QUERY_LIMITS);
    const bombs = Array.from({ length: 12 }, () => pool.run(hostile, CTE_BOMB, { ...DEFAULT_QUERY_LIMITS, timeoutMs: 400 }));
    let slowest = 0;
    const honestRun = await timed(async () => {
      for (let i = 0; i < 30; i++) {
        const one = await timed(() => pool.run(honest, `SELECT ${i} AS i, COUNT(*) AS n FROM Lead`, DEFAULT_QUERY_LIMITS));
        slowest = Math.max(slowest, one.ms);
      }
    });
    await Promise.all(bombs);
    out(`   30 honest queries beside 12 runaway statements of another owner: ${s(honestRun.ms)}, the slowest ${s(slowest)} (target < 2.5 s: ${met(honestRun.ms < 2_500)}; org/query-pool.test.ts)`);
  } finally {
    pool.close();
  }
  const orphaned = await orphanedWorkersStop();
  out(`   query processes in a statement stopped ${s(orphaned)} after their parent was killed (target < 1.5 s, a second by design: ${met(orphaned < 1_500)}; org/query-pool.test.ts, e2e/hostile-neighbour.test.ts)`);
  out();
}

/** Whether a process still runs (a zombie waiting for its reaper has stopped). */
function running(pid: number): boolean {
  try {
    return !/^\d+ \(.*\) [ZX]/.test(readFileSync(`/proc/${pid}/stat`, "utf8"));
  } catch {
    return false;
  }
}

/** A parent with two query processes inside a runaway statement (limit 600 s), killed: ms until both are gone. */
async function orphanedWorkersStop(): Promise<number> {
  const script = `
    import { loadOrgImage } from ${JSON.stringify(fileURLToPath(new URL("../src/org/load.ts", import.meta.url)))};
    import { QueryPool } from ${JSON.stringify(fileURLToPath(new URL("../src/org/query-pool.ts", import.meta.url)))};
    const pool = new QueryPool(2);
    const id = pool.register(loadOrgImage(${JSON.stringify(SAMPLE_ORG)}).image);
    for (let i = 0; i < 2; i++) void pool.run(id, ${JSON.stringify(CTE_BOMB)}, { timeoutMs: 600000, maxRows: 10, maxBytes: 1000 });
    setTimeout(() => process.stdout.write(JSON.stringify(pool.processIds()) + "\\n"), 1500);
  `;
  const parent = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
  const pids: number[] = await new Promise((resolve, reject) => {
    parent.stdout.once("data", (chunk: Buffer) => resolve(JSON.parse(chunk.toString())));
    parent.once("exit", (code) => reject(new Error(`the parent exited early (${code})`)));
  });
  parent.kill("SIGKILL");
  const killed = performance.now();
  while (pids.some(running) && performance.now() - killed < 30_000) await sleep(10);
  return performance.now() - killed;
}

/** One full-size high/high request, then a burst of 8, admitted by an in-process green: the longest gaps. */
export async function admission(out: Out): Promise<void> {
  const dir = mkdtempSync(join(tmpdir(), "bench-admission-"));
  const org = generateOrg(21, 1.06);
  const base = generateTasks(org, 21, 2);
  await writeOrgCsv(org, join(dir, "org"));
  await writeTasksJson(
    Array.from({ length: 2_140 }, (_, idx) => ({ ...base[idx % base.length]!, idx })),
    join(dir, "tasks.json"),
  );
  const data: AssessmentData = {
    tasks: loadTaskFile(join(dir, "tasks.json")),
    org: await openBackend(join(dir, "org"), { workers: 2 }),
    dataset: "custom",
    sources: { tasks: { path: join(dir, "tasks.json"), kind: "custom" }, org: { path: join(dir, "org"), kind: "custom" } },
  };
  const green = await startGreen(data);
  let turns = 0;
  const held: (() => void)[] = [];
  const purple = await rawPurpleServer((body, res) => {
    turns++;
    held.push(() =>
      res.json({ jsonrpc: "2.0", id: body.id, result: { kind: "message", role: "agent", messageId: `m${turns}`, parts: [{ kind: "text", text: '{"name": "respond", "arguments": {"answer": "None"}}' }] } }),
    );
  });
  const rows = Object.values(org.tables).reduce((sum, table) => sum + table.length, 0);
  out(`A. Admission on the event loop: a generated org of ${rows} rows, 2,140 tasks, drift and rot high, an in-process green (tests/e2e/admission-loop.test.ts)`);
  try {
    const idle = loopGaps();
    await sleep(1_000);
    const noise = idle.stop();
    out(`   no request (the machine's own noise): longest gap ${noise.wallMs.toFixed(0)} ms wall, ${noise.busyMs.toFixed(0)} ms of main-thread work`);
    for (const count of [1, 8]) {
      const before = turns;
      const gaps = loopGaps();
      const admitted = await timed(async () => {
        const replies = await Promise.all(
          Array.from({ length: count }, (_, seed) =>
            rawRpc(green.url, "message/send", {
              ...assessmentParams({ participants: { agent: purple.url }, config: { drift_level: "high", rot_level: "high", seed, concurrency: 1 } }),
              configuration: { blocking: false },
            }),
          ),
        );
        while (turns - before < count) await sleep(10);
        return replies.map((reply) => reply.body.result.id as string);
      });
      const gap = gaps.stop();
      out(
        `   ${count} request${count > 1 ? "s at once" : ""}: admitted in ${s(admitted.ms)}; longest gap ${gap.wallMs.toFixed(0)} ms wall, ${gap.busyMs.toFixed(0)} ms of main-thread work (target < 100 ms: ${met(gap.busyMs < 100)})`,
      );
      for (const id of admitted.value) await rawRpc(green.url, "tasks/cancel", { id });
      for (const answer of held.splice(0)) answer();
    }
  } finally {
    for (const answer of held.splice(0)) answer();
    await green.close();
    purple.server.close();
    await data.org.close();
    rmSync(dir, { recursive: true, force: true });
  }
  out();
}

/** A hostile purple (tests/support/hostile-purple.ts) in its own process: its URL, how many queries it sent, and how to stop it. */
async function startHostile(mode: string): Promise<{ url: string; queries: () => number; stop: () => void; child: ChildProcess }> {
  const child = spawn(process.execPath, ["--import", "tsx", fileURLToPath(new URL("../tests/support/hostile-purple.ts", import.meta.url)), mode], { stdio: ["pipe", "pipe", "inherit"] });
  let sent = 0;
  const url = await new Promise<string>((resolve, reject) => {
    createInterface({ input: child.stdout! }).on("line", (line) => {
      if (line === "query") sent++;
      else if (line.startsWith("http")) resolve(line);
    });
    child.once("exit", (code) => reject(new Error(`the hostile purple exited (${code})`)));
  });
  return { url, queries: () => sent, stop: () => child.stdin!.write("stop\n"), child };
}

/** The solver's run on the 44 sample tasks, alone (before and after) and beside each hostile purple. */
export async function neighbours(out: Out): Promise<void> {
  const data = await sampleData();
  const green = await startGreen(data);
  const solver: { url: string; server: Server } = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
  const honest = async () => {
    const gaps = loopGaps();
    const run = await timed(() => rawRpc(green.url, "message/send", assessmentParams({ participants: { agent: solver.url }, config: { concurrency: 4 } })));
    return { ms: run.ms, gapMs: gaps.stop().wallMs };
  };
  out("N. An honest assessment beside a hostile one (the reference solver, 44 sample tasks, an in-process green; tests/e2e/hostile-neighbour.test.ts)");
  try {
    await honest(); // warm-up: the first run starts the query processes and loads the images
    for (const mode of ["cte-bomb", "cross-join", "large-result"]) {
      const before = await honest();
      const hostile = await startHostile(mode);
      try {
        const hostileRun = rawRpc(green.url, "message/send", assessmentParams({ participants: { agent: hostile.url }, config: { concurrency: 8, max_steps: 100 } }));
        while (hostile.queries() < 8) await sleep(20);
        const beside = await honest();
        hostile.stop();
        await hostileRun;
        const after = await honest();
        const alone = (before.ms + after.ms) / 2;
        out(
          `   ${mode.padEnd(12)} alone ${s(before.ms)} and ${s(after.ms)}, beside ${s(beside.ms)}: ${(beside.ms / alone).toFixed(2)}x (target <= 2x: ${met(beside.ms <= 2 * alone)}); longest gap beside ${beside.gapMs.toFixed(0)} ms (target < 2,000 ms: ${met(beside.gapMs < 2_000)})`,
        );
      } finally {
        hostile.child.kill("SIGKILL");
      }
    }
  } finally {
    solver.server.close();
    await green.close();
    await data.org.close();
  }
  out();
}
