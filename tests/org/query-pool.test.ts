import { spawn } from "node:child_process";
import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadOrgImage } from "../../src/org/index.js";
import { QueryPool } from "../../src/org/query-pool.js";
import { DEFAULT_QUERY_LIMITS } from "../../src/org/types.js";
import { SAMPLE_ORG } from "../support/helpers.js";

/** Stays inside SQLite's native loop until killed: no row ever comes back to JavaScript. */
const CTE_BOMB = "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r";
/** Hands a row back now and then, forever: the worker itself can stop it between rows. */
const SLOW_ROWS = "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT x FROM r WHERE x % 50000 = 0";

let image: Buffer;
let pool: QueryPool;

beforeAll(() => {
  image = loadOrgImage(SAMPLE_ORG).image;
  pool = new QueryPool(2);
});

afterAll(() => pool.close());

/** Whether a process is still running (a zombie waiting for its reaper has stopped). */
function running(pid: number): boolean {
  try {
    const stat = readFileSync(`/proc/${pid}/stat`, "utf8");
    return !/^\d+ \(.*\) [ZX]/.test(stat);
  } catch {
    return false;
  }
}

describe("the query pool", () => {
  it("stops a statement that hands back rows at its limit without restarting its process", async () => {
    // A grace the process cannot outlast on a busy machine: what stops the statement is the process's own check, never the kill.
    const patient = new QueryPool(2, undefined, 30_000);
    try {
      const id = patient.register(image);
      await patient.run(id, "SELECT 1 AS one", DEFAULT_QUERY_LIMITS);
      const before = patient.processIds();
      const outcome = await patient.run(id, SLOW_ROWS, { ...DEFAULT_QUERY_LIMITS, timeoutMs: 300 });
      expect(outcome).toMatchObject({ ok: false, code: "QUERY_TIMEOUT", message: "the query ran longer than 300 ms and was stopped" });
      expect(patient.processIds()).toEqual(before);
      expect((await patient.run(id, "SELECT COUNT(*) AS n FROM Issue__c", DEFAULT_QUERY_LIMITS)).ok).toBe(true);
      patient.release(id);
    } finally {
      await patient.close();
    }
  });

  it("kills and replaces a process whose statement stays inside SQLite past its limit", async () => {
    const id = pool.register(image);
    const outcome = await pool.run(id, CTE_BOMB, { ...DEFAULT_QUERY_LIMITS, timeoutMs: 300 });
    expect(outcome).toMatchObject({ ok: false, code: "QUERY_TIMEOUT" });
    const next = await pool.run(id, "SELECT COUNT(*) AS n FROM Issue__c", DEFAULT_QUERY_LIMITS);
    expect(next.ok && next.rows[0]!.n).toBe(15);
    pool.release(id);
  });

  it("ends its processes once they hold no image and sit idle, and forks them again for the next query", async () => {
    const idle = new QueryPool(2, 100);
    try {
      const first = idle.register(image);
      expect((await idle.run(first, "SELECT 1 AS one", DEFAULT_QUERY_LIMITS)).ok).toBe(true);
      const before = idle.processIds();
      expect(before).toHaveLength(2);
      // Another image still registered but held by no process: nothing keeps the processes.
      const second = idle.register(image);
      idle.release(first);
      for (let i = 0; i < 100 && before.some(running); i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(before.filter(running)).toEqual([]);
      expect(idle.processIds()).toEqual([]);
      const again = await idle.run(second, "SELECT COUNT(*) AS n FROM Issue__c", DEFAULT_QUERY_LIMITS);
      expect(again.ok && again.rows[0]!.n).toBe(15);
      expect(idle.processIds().some((pid) => before.includes(pid))).toBe(false);
    } finally {
      await idle.close();
    }
  });

  it("keeps processes that still hold an image", async () => {
    const kept = new QueryPool(1, 50);
    try {
      const held = kept.register(image);
      const other = kept.register(image);
      await kept.run(held, "SELECT 1 AS one", DEFAULT_QUERY_LIMITS);
      await kept.run(other, "SELECT 1 AS one", DEFAULT_QUERY_LIMITS);
      const before = kept.processIds();
      kept.release(other);
      await new Promise((resolve) => setTimeout(resolve, 300));
      expect(kept.processIds()).toEqual(before);
      expect(before.every(running)).toBe(true);
    } finally {
      await kept.close();
    }
  });

  it("gives each owner its share: one owner's runaway statements never queue another's queries behind them", async () => {
    const hostile = pool.register(image, "hostile");
    const honest = pool.register(image, "honest");
    await pool.run(honest, "SELECT 1 AS one", DEFAULT_QUERY_LIMITS);
    const bombs = Array.from({ length: 12 }, () => pool.run(hostile, CTE_BOMB, { ...DEFAULT_QUERY_LIMITS, timeoutMs: 400 }));
    // In one FIFO, 12 bombs on 2 processes hold every query behind them for 6 x 0.4 s and the
    // restarts: every bomb would settle before the first honest answer. With shares, the honest
    // owner always finds a process, so its 30 queries finish while most bombs still wait (in
    // order, not in time: npm run bench measures how long they take).
    let bombsSettled = 0;
    for (const bomb of bombs) void bomb.then(() => bombsSettled++);
    for (let i = 0; i < 30; i++) {
      const outcome = await pool.run(honest, `SELECT ${i} AS i, COUNT(*) AS n FROM Lead`, DEFAULT_QUERY_LIMITS);
      expect(outcome.ok && outcome.rows[0]!.i).toBe(i);
    }
    await new Promise((resolve) => setImmediate(resolve));
    expect(bombsSettled, "the honest queries finished while the bombs were still queued").toBeLessThan(bombs.length);
    for (const outcome of await Promise.all(bombs)) expect(outcome).toMatchObject({ ok: false, code: "QUERY_TIMEOUT" });
    pool.release(hostile);
    pool.release(honest);
  }, 120_000);

  // How soon they die (a second by design: the watchdog looks every 0.1 s) is measured by npm run bench.
  it("its processes die with their parent, even in the middle of a statement", async () => {
    const poolModule = fileURLToPath(new URL("../../src/org/query-pool.ts", import.meta.url));
    const script = `
      import { loadOrgImage } from ${JSON.stringify(fileURLToPath(new URL("../../src/org/load.ts", import.meta.url)))};
      import { QueryPool } from ${JSON.stringify(poolModule)};
      const pool = new QueryPool(2);
      const id = pool.register(loadOrgImage(${JSON.stringify(SAMPLE_ORG)}).image);
      const limits = { timeoutMs: 600000, maxRows: 10, maxBytes: 1000 };
      for (let i = 0; i < 2; i++) void pool.run(id, ${JSON.stringify(CTE_BOMB)}, limits);
      setTimeout(() => process.stdout.write(JSON.stringify(pool.processIds()) + "\\n"), 1500);
    `;
    const parent = spawn(process.execPath, ["--import", "tsx", "--input-type=module", "-e", script], { stdio: ["ignore", "pipe", "inherit"] });
    const pids: number[] = await new Promise((resolve, reject) => {
      parent.stdout.once("data", (chunk: Buffer) => resolve(JSON.parse(chunk.toString())));
      parent.once("exit", (code) => reject(new Error(`the parent exited early (${code})`)));
    });
    expect(pids).toHaveLength(2);
    expect(pids.every(running)).toBe(true);
    parent.kill("SIGKILL");
    // Looks up to 400 times, 50 ms apart: the test's own timeout is the only clock.
    for (let look = 0; look < 400 && pids.some(running); look++) await new Promise((resolve) => setTimeout(resolve, 50));
    expect(pids.filter(running)).toEqual([]);
  }, 30_000);
});
