import { type ChildProcess, fork } from "node:child_process";
import { cpus } from "node:os";
import { fileURLToPath } from "node:url";
import type { WorkerMessage, WorkerResponse } from "./query-worker.js";
import type { QueryLimits, QueryOutcome, SqlRow, SqlValue } from "./types.js";

interface Job {
  readonly imageId: number;
  readonly sql: string;
  readonly limits: QueryLimits;
  readonly resolve: (outcome: QueryOutcome) => void;
}

interface Slot {
  child: ChildProcess;
  /** Settles when the process has started; the time limit starts only then. */
  ready: Promise<boolean>;
  busy: boolean;
  /** Images this process holds, least recently used first. */
  loaded: number[];
}

/** Org images one query process keeps loaded: the base org and a few assessments' copies. */
const IMAGES_PER_PROCESS = 4;

/**
 * Starts the worker module next to this one: compiled JavaScript directly, TypeScript
 * sources (tests, `tsx`) through the tsx loader.
 */
function startWorker(): Pick<Slot, "child" | "ready" | "loaded"> {
  const fromSource = import.meta.url.endsWith(".ts");
  const entry = fileURLToPath(new URL(fromSource ? "./query-worker.ts" : "./query-worker.js", import.meta.url));
  const child = fork(entry, [], {
    serialization: "advanced",
    execArgv: fromSource ? ["--import", "tsx"] : [],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  // A failure is reported to the job that was running; without a job there is nobody to tell.
  child.on("error", () => undefined);
  holdOpen(child, false);
  const ready = new Promise<boolean>((resolve) => {
    const onMessage = (message: unknown) => {
      if (typeof message === "object" && message !== null && "ready" in message) done(true);
    };
    const done = (ok: boolean) => {
      child.off("message", onMessage);
      child.off("exit", onExit);
      resolve(ok);
    };
    const onExit = () => done(false);
    child.on("message", onMessage);
    child.on("exit", onExit);
  });
  return { child, ready, loaded: [] };
}

/** A busy query process keeps the host process alive; an idle one does not. */
function holdOpen(child: ChildProcess, busy: boolean): void {
  if (busy) {
    child.ref();
    child.channel?.ref();
  } else {
    child.unref();
    child.channel?.unref();
  }
}

/**
 * A fixed set of query processes serving every org image registered with it: the server has one
 * such pool for all its assessments, so their number never grows with the assessments in flight.
 * A process loads an image on its first query on it and keeps a few (least recently used ones
 * dropped). A query that overruns its time limit costs its process: it is killed and replaced,
 * and the caller gets a QUERY_TIMEOUT error. The server's event loop never waits on SQLite.
 */
export class QueryPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private readonly images = new Map<number, Buffer>();
  private nextJobId = 1;
  private nextImageId = 1;
  private closed = false;

  constructor(readonly size: number) {}

  /** Processes start with the first query: a command that never queries forks none. */
  private start(): void {
    if (this.slots.length > 0 || this.closed) return;
    for (let i = 0; i < Math.max(1, this.size); i++) this.slots.push({ ...startWorker(), busy: false });
  }

  /** Makes an image queryable; its id names it in `run` until `release`. */
  register(image: Buffer): number {
    const id = this.nextImageId++;
    this.images.set(id, image);
    return id;
  }

  /** Forgets an image: processes that hold it drop it. Queries still queued for it fail. */
  release(imageId: number): void {
    this.images.delete(imageId);
    for (const job of this.queue.filter((candidate) => candidate.imageId === imageId)) {
      this.queue.splice(this.queue.indexOf(job), 1);
      job.resolve({ ok: false, code: "ORG_CLOSED", message: "the org is closed", elapsedMs: 0 });
    }
    for (const slot of this.slots) {
      if (!slot.loaded.includes(imageId)) continue;
      slot.loaded = slot.loaded.filter((id) => id !== imageId);
      if (slot.child.connected) slot.child.send({ kind: "drop", imageId } satisfies WorkerMessage);
    }
  }

  run(imageId: number, sql: string, limits: QueryLimits): Promise<QueryOutcome> {
    if (this.closed || !this.images.has(imageId)) return Promise.resolve({ ok: false, code: "ORG_CLOSED", message: "the org is closed", elapsedMs: 0 });
    this.start();
    return new Promise((resolve) => {
      this.queue.push({ imageId, sql, limits, resolve });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.resolve({ ok: false, code: "ORG_CLOSED", message: "the org is closed", elapsedMs: 0 });
    for (const slot of this.slots) slot.child.kill("SIGKILL");
    this.images.clear();
  }

  private dispatch(): void {
    while (this.queue.length > 0) {
      const free = this.slots.filter((slot) => !slot.busy);
      if (free.length === 0) return;
      const job = this.queue[0]!;
      // A process that holds the image answers without loading it again.
      const slot = free.find((candidate) => candidate.loaded.includes(job.imageId)) ?? free[0]!;
      this.queue.shift();
      slot.busy = true;
      holdOpen(slot.child, true);
      void slot.ready.then((ready) => {
        if (ready) this.execute(slot, job);
        else this.failToStart(slot, job);
      });
    }
  }

  /** Sends the image to the process if it lacks it, dropping its least recently used one beyond the cap. */
  private ensureLoaded(slot: Slot, imageId: number): boolean {
    const image = this.images.get(imageId);
    if (!image) return false;
    if (slot.loaded.includes(imageId)) {
      slot.loaded = [...slot.loaded.filter((id) => id !== imageId), imageId];
      return true;
    }
    while (slot.loaded.length >= IMAGES_PER_PROCESS) slot.child.send({ kind: "drop", imageId: slot.loaded.shift()! } satisfies WorkerMessage);
    slot.child.send({ kind: "load", imageId, image } satisfies WorkerMessage);
    slot.loaded.push(imageId);
    return true;
  }

  private failToStart(slot: Slot, job: Job): void {
    holdOpen(slot.child, false);
    if (!this.closed) Object.assign(slot, startWorker());
    slot.busy = false;
    job.resolve({ ok: false, code: "QUERY_FAILED", message: "the query engine could not start", elapsedMs: 0 });
    this.dispatch();
  }

  private execute(slot: Slot, job: Job): void {
    const id = this.nextJobId++;
    const started = performance.now();
    const child = slot.child;
    let settled = false;
    const finish = (outcome: QueryOutcome) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      child.off("message", onMessage);
      child.off("exit", onExit);
      holdOpen(child, false);
      slot.busy = false;
      job.resolve(outcome);
      this.dispatch();
    };
    const replace = () => {
      child.kill("SIGKILL");
      if (!this.closed) Object.assign(slot, startWorker());
    };
    const onMessage = (response: WorkerResponse | { ready: true }) => {
      if (!("id" in response) || response.id !== id) return;
      const elapsedMs = performance.now() - started;
      finish(
        response.ok
          ? { ok: true, columns: response.columns, rows: toRows(response.columns, response.values), truncated: response.truncated, elapsedMs }
          : { ok: false, code: response.code, message: response.message, elapsedMs },
      );
    };
    const onExit = (code: number | null, signal: string | null) => {
      replace();
      finish({
        ok: false,
        code: "QUERY_FAILED",
        message: `the query engine stopped (${signal ?? `exit code ${code}`}); the query was not answered`,
        elapsedMs: performance.now() - started,
      });
    };
    // Loading an image is not the query's time: the limit covers the query alone.
    const timer = setTimeout(
      () => {
        replace();
        finish({
          ok: false,
          code: "QUERY_TIMEOUT",
          message: `the query ran longer than ${job.limits.timeoutMs} ms and was stopped`,
          elapsedMs: performance.now() - started,
        });
      },
      job.limits.timeoutMs + (slot.loaded.includes(job.imageId) ? 0 : LOAD_ALLOWANCE_MS),
    );
    child.on("message", onMessage);
    child.on("exit", onExit);
    if (!this.ensureLoaded(slot, job.imageId)) {
      finish({ ok: false, code: "ORG_CLOSED", message: "the org is closed", elapsedMs: 0 });
      return;
    }
    child.send({ kind: "query", id, imageId: job.imageId, sql: job.sql, maxRows: job.limits.maxRows, maxBytes: job.limits.maxBytes } satisfies WorkerMessage);
  }
}

/** Time a process may take to load an image (the real org is about 35 MB) on top of a query's limit. */
const LOAD_ALLOWANCE_MS = 5_000;

let shared: QueryPool | undefined;

/**
 * The process's one query pool: ENTROPIC_QUERY_PROCESSES processes, else one per core up to 4.
 * Every org opened without its own `workers` count, and every perturbed copy of it, queries here.
 */
export function sharedQueryPool(): QueryPool {
  if (!shared) {
    const configured = Number(process.env.ENTROPIC_QUERY_PROCESSES);
    shared = new QueryPool(Number.isInteger(configured) && configured > 0 ? configured : Math.min(4, Math.max(1, cpus().length)));
  }
  return shared;
}

/** Records from the worker's value arrays. */
function toRows(columns: readonly string[], values: readonly SqlValue[][]): SqlRow[] {
  return values.map((row) => {
    const record: SqlRow = {};
    for (let i = 0; i < columns.length; i++) record[columns[i]!] = row[i]!;
    return record;
  });
}
