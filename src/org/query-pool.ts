import { fork, type ChildProcess } from "node:child_process";
import { fileURLToPath } from "node:url";
import type { QueryLimits, QueryOutcome } from "./types.js";
import type { WorkerInit, WorkerRequest, WorkerResponse } from "./query-worker.js";

interface Job {
  readonly sql: string;
  readonly limits: QueryLimits;
  readonly resolve: (outcome: QueryOutcome) => void;
}

interface Slot {
  child: ChildProcess;
  /** Settles when the process has loaded the org; the time limit starts only then. */
  ready: Promise<boolean>;
  busy: boolean;
}

/**
 * Starts the worker module next to this one: compiled JavaScript directly, TypeScript
 * sources (tests, `tsx`) through the tsx loader.
 */
function startWorker(image: Buffer): Pick<Slot, "child" | "ready"> {
  const fromSource = import.meta.url.endsWith(".ts");
  const entry = fileURLToPath(new URL(fromSource ? "./query-worker.ts" : "./query-worker.js", import.meta.url));
  const child = fork(entry, [], {
    serialization: "advanced",
    execArgv: fromSource ? ["--import", "tsx"] : [],
    stdio: ["ignore", "ignore", "inherit", "ipc"],
  });
  const init: WorkerInit = { image };
  child.send(init);
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
  return { child, ready };
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
 * A fixed set of query processes, each holding its own read-only copy of the org.
 * A query that overruns its time limit costs its process: it is killed and replaced,
 * and the caller gets a QUERY_TIMEOUT error. The server's event loop never waits on SQLite.
 */
export class QueryPool {
  private readonly slots: Slot[] = [];
  private readonly queue: Job[] = [];
  private nextId = 1;
  private closed = false;

  constructor(
    private readonly image: Buffer,
    size: number,
  ) {
    for (let i = 0; i < Math.max(1, size); i++) this.slots.push({ ...startWorker(image), busy: false });
  }

  run(sql: string, limits: QueryLimits): Promise<QueryOutcome> {
    if (this.closed) return Promise.resolve({ ok: false, code: "ORG_CLOSED", message: "the org is closed", elapsedMs: 0 });
    return new Promise((resolve) => {
      this.queue.push({ sql, limits, resolve });
      this.dispatch();
    });
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const job of this.queue.splice(0)) job.resolve({ ok: false, code: "ORG_CLOSED", message: "the org is closed", elapsedMs: 0 });
    for (const slot of this.slots) slot.child.kill("SIGKILL");
  }

  private dispatch(): void {
    for (const slot of this.slots) {
      if (this.queue.length === 0) return;
      if (!slot.busy) {
        slot.busy = true;
        holdOpen(slot.child, true);
        const job = this.queue.shift()!;
        void slot.ready.then((ready) => {
          if (ready) this.execute(slot, job);
          else this.failToStart(slot, job);
        });
      }
    }
  }

  private failToStart(slot: Slot, job: Job): void {
    holdOpen(slot.child, false);
    if (!this.closed) Object.assign(slot, startWorker(this.image));
    slot.busy = false;
    job.resolve({ ok: false, code: "QUERY_FAILED", message: "the query engine could not start", elapsedMs: 0 });
    this.dispatch();
  }

  private execute(slot: Slot, job: Job): void {
    const id = this.nextId++;
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
      if (!this.closed) Object.assign(slot, startWorker(this.image));
    };
    const onMessage = (response: WorkerResponse | { ready: true }) => {
      if (!("id" in response) || response.id !== id) return;
      const elapsedMs = performance.now() - started;
      finish(
        response.ok
          ? { ok: true, columns: response.columns, rows: response.rows, truncated: response.truncated, elapsedMs }
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
    const timer = setTimeout(() => {
      replace();
      finish({
        ok: false,
        code: "QUERY_TIMEOUT",
        message: `the query ran longer than ${job.limits.timeoutMs} ms and was stopped`,
        elapsedMs: performance.now() - started,
      });
    }, job.limits.timeoutMs);
    child.on("message", onMessage);
    child.on("exit", onExit);
    const request: WorkerRequest = { id, sql: job.sql, maxRows: job.limits.maxRows, maxBytes: job.limits.maxBytes };
    child.send(request);
  }
}
