/**
 * Runs SQL against read-only copies of orgs in a child process. A process, not a thread:
 * neither better-sqlite3 nor node:sqlite exposes sqlite3_interrupt or a progress handler, so a
 * statement that stays inside SQLite's native loop (an aggregate over an endless CTE, a cross
 * join counted) can only be stopped by killing the process that runs it. A statement that hands
 * rows back to JavaScript is stopped here, between rows, at its time limit: that costs no process.
 * One process serves several orgs (the base org and each assessment's perturbed copy), each
 * loaded once and dropped when its store closes.
 *
 * A watchdog thread outlives a blocked main thread: it kills this process when the parent is
 * gone or when a statement overruns its limit by WATCHDOG_GRACE_MS, so no worker keeps burning
 * a core after its server died (even by kill -9) or stopped listening.
 */
import { Worker } from "node:worker_threads";
import Database from "better-sqlite3";
import { uniqueNames } from "./columns.js";
import { registerSoslMatch } from "./sosl/match.js";
import { leadingKeyword } from "./sql-guard.js";
import type { SqlValue } from "./types.js";

export interface WorkerQuery {
  readonly kind: "query";
  readonly id: number;
  readonly imageId: number;
  readonly sql: string;
  readonly maxRows: number;
  readonly maxBytes: number;
  /** The statement's time limit: checked between rows here, enforced by the watchdog beyond that. */
  readonly timeoutMs?: number;
}

/** Load an org image under an id (the pool sends it before the first query on it). */
export interface WorkerLoad {
  readonly kind: "load";
  readonly imageId: number;
  readonly image: Uint8Array;
}

/** Forget an org image. */
export interface WorkerDrop {
  readonly kind: "drop";
  readonly imageId: number;
}

export type WorkerMessage = WorkerQuery | WorkerLoad | WorkerDrop;

/** Sent when an image is loaded: the pool starts the next query's clock then. */
export interface WorkerLoaded {
  readonly loaded: number;
}

export type WorkerResponse =
  /** Rows as arrays of values in column order: half the bytes of objects that repeat every key. */
  | { readonly id: number; readonly ok: true; readonly columns: string[]; readonly values: SqlValue[][]; readonly truncated: boolean; readonly bytes: number }
  | { readonly id: number; readonly ok: false; readonly code: string; readonly message: string };

const databases = new Map<number, Database.Database>();

/** How long past its limit a statement may run before the watchdog kills the process (the pool kills sooner). */
export const WATCHDOG_GRACE_MS = 1_000;
/** How often the watchdog looks: a dead parent is noticed within this (well under a second). */
const WATCHDOG_INTERVAL_MS = 100;

/** Slot 0: the epoch ms after which the running statement is killed; 0 while none runs. */
const deadline = new BigInt64Array(new SharedArrayBuffer(8));

/**
 * The watchdog: plain JavaScript evaluated in a thread of its own, so it runs the same from the
 * compiled package and from sources. It never touches SQLite; it reads the deadline and the
 * parent's pid and sends SIGKILL to this process when either says so.
 */
const WATCHDOG_SOURCE = `
const { workerData } = require("node:worker_threads");
const deadline = new BigInt64Array(workerData.deadline);
const parentGone = () => {
  if (process.ppid !== workerData.parentPid) return true;
  try { process.kill(workerData.parentPid, 0); return false; } catch (error) { return error.code === "ESRCH"; }
};
setInterval(() => {
  const until = Number(Atomics.load(deadline, 0));
  if (parentGone() || (until > 0 && Date.now() > until)) process.kill(process.pid, "SIGKILL");
}, workerData.intervalMs);
`;

function startWatchdog(): void {
  const watchdog = new Worker(WATCHDOG_SOURCE, {
    eval: true,
    workerData: { deadline: deadline.buffer, parentPid: process.ppid, intervalMs: WATCHDOG_INTERVAL_MS },
    // The watchdog needs nothing of the main thread's loaders or memory.
    execArgv: [],
    resourceLimits: { maxOldGenerationSizeMb: 16 },
  });
  // If the watchdog cannot run, the parent's own timer still stops runaway statements.
  watchdog.on("error", () => undefined);
  watchdog.unref();
}

/** A query that overran its limit between rows: the same words as the pool's own timeout. */
function timeout(request: WorkerQuery): WorkerResponse {
  return { id: request.id, ok: false, code: "QUERY_TIMEOUT", message: `the query ran longer than ${request.timeoutMs} ms and was stopped` };
}

function run(db: Database.Database, request: WorkerQuery): WorkerResponse {
  const keyword = leadingKeyword(request.sql);
  if (keyword !== "SELECT" && keyword !== "WITH") {
    return {
      id: request.id,
      ok: false,
      code: "READ_ONLY",
      message: `only SELECT or WITH queries are allowed; the org is read-only (got ${keyword || "an empty query"})`,
    };
  }
  let statement: Database.Statement;
  try {
    statement = db.prepare(request.sql);
  } catch (error) {
    return { id: request.id, ok: false, code: "SQL_ERROR", message: (error as Error).message };
  }
  if (!statement.reader || !statement.readonly) {
    return { id: request.id, ok: false, code: "READ_ONLY", message: "only read-only statements that return rows are allowed" };
  }
  const started = performance.now();
  const limitMs = request.timeoutMs ?? Number.POSITIVE_INFINITY;
  if (Number.isFinite(limitMs)) Atomics.store(deadline, 0, BigInt(Math.ceil(Date.now() + limitMs + WATCHDOG_GRACE_MS)));
  try {
    statement.raw(true);
    const columns = uniqueNames(statement.columns().map((column) => column.name));
    const values: SqlValue[][] = [];
    // Measured as the records the parent rebuilds: {"column":value,...} per row.
    const keyBytes = columns.reduce((sum, name) => sum + JSON.stringify(name).length + 1, 2);
    let bytes = 0;
    let truncated = false;
    for (const raw of statement.iterate() as Iterable<unknown[]>) {
      if (performance.now() - started > limitMs) return timeout(request);
      if (values.length >= request.maxRows) {
        truncated = true;
        break;
      }
      const row = raw.map(toSqlValue);
      bytes += keyBytes + JSON.stringify(row).length - 2;
      if (bytes > request.maxBytes) {
        truncated = true;
        break;
      }
      values.push(row);
    }
    return { id: request.id, ok: true, columns, values, truncated, bytes };
  } catch (error) {
    return { id: request.id, ok: false, code: "SQL_ERROR", message: (error as Error).message };
  } finally {
    Atomics.store(deadline, 0, 0n);
  }
}

function toSqlValue(value: unknown): SqlValue {
  if (value === null || typeof value === "string" || typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  if (Buffer.isBuffer(value)) return `<blob ${value.length} bytes>`;
  return String(value);
}

process.on("message", (message: WorkerMessage) => {
  if (message.kind === "load") {
    const db = new Database(Buffer.from(message.image), { readonly: true });
    db.pragma("query_only = ON");
    // SOSL's token matching runs in the statement (sosl/match.ts), under its time limit.
    registerSoslMatch(db);
    databases.set(message.imageId, db);
    // The query's time limit starts now: loading is not the query's time.
    process.send!({ loaded: message.imageId } satisfies WorkerLoaded);
    return;
  }
  if (message.kind === "drop") {
    databases.get(message.imageId)?.close();
    databases.delete(message.imageId);
    return;
  }
  const db = databases.get(message.imageId);
  if (!db) {
    process.send!({ id: message.id, ok: false, code: "QUERY_FAILED", message: "the query engine has not loaded this org" });
    return;
  }
  process.send!(run(db, message));
});
// The parent owns this process; if it goes away (even before this process is up), so do we.
process.on("disconnect", () => process.exit(0));
process.on("error", () => process.exit(0));
if (process.connected) {
  startWatchdog();
  process.send!({ ready: true });
} else process.exit(0);
