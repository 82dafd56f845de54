import { type ChildProcess, fork } from "node:child_process";
import { cpus, setPriority } from "node:os";
import { fileURLToPath } from "node:url";
import { environment } from "../util/index.js";
import type { WorkerLoaded, WorkerMessage, WorkerResponse } from "./query-worker.js";
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
  /** Whose queries it ran last: an owner goes back to its own process, so a kill costs others no reload. */
  lastOwner?: string;
}

/** One assessment's (or one image's) queries: its own queue and the worker time it has used. */
interface Owner {
  readonly key: string;
  readonly queue: Job[];
  /** Processes it holds now, counting one being restarted after its query overran. */
  running: number;
  /** Worker time charged to it (queries, image loads, restarts its timeouts caused), in ms. */
  usedMs: number;
  /** When it last had work queued or running (performance.now()). */
  lastActive: number;
  /** While others are active, its next query waits until then (performance.now()): see `pause`. */
  notBefore: number;
  /** Until then it counts as heavy: even alone it leaves one process free for an owner that comes. */
  heavyUntil: number;
  /** Whether its last query was quick: until one is, it too leaves one process free. */
  light: boolean;
}

/** Org images one query process keeps loaded: the base org and a few assessments' copies. */
const IMAGES_PER_PROCESS = 4;

/**
 * How long an owner counts as active after its last query: an honest assessment pauses between
 * queries while its purple thinks, and must not lose its share to a neighbour in every pause.
 */
const ACTIVE_WINDOW_MS = 2_000;

/**
 * How long past its limit the pool waits before killing the process: a statement that hands
 * rows back to JavaScript is stopped by the worker itself at the limit, and that costs no restart.
 */
const KILL_GRACE_MS = 100;

/**
 * While other owners are active, a costly query holds back its owner's next one: a query that
 * kept a process busy longer than HEAVY_QUERY_MS pauses it twice as long (HEAVY_PAUSE_FACTOR; a
 * restart after a kill counts too), and a result pauses it PAUSE_MS_PER_MB per megabyte beyond its first FREE_RESULT_BYTES, at
 * most MAX_RESULT_PAUSE_MS (what the main thread spends rendering, sending and recording a result is
 * about a tenth of a second per megabyte on an idle core, several times that on a loaded one). A purple that floods the org with runaway statements or megabyte results
 * then takes at most about a third of a process and a bounded share of the main thread; an honest
 * assessment's queries (milliseconds, kilobytes) never pause. Alone, an owner never pauses.
 */
const HEAVY_QUERY_MS = 250;
const HEAVY_PAUSE_FACTOR = 2;
/** How long an owner that sent a heavy query (or got a megabyte result) keeps a process free for others. */
const HEAVY_MEMORY_MS = 10_000;
const PAUSE_MS_PER_MB = 1_000;
const FREE_RESULT_BYTES = 64_000;
const MAX_RESULT_PAUSE_MS = 2_000;

/**
 * A statement still running after HEAVY_QUERY_MS has its process lowered to the least CPU
 * priority: on a busy machine the cores go to the server and the other owners' processes first.
 * An unprivileged process cannot raise it again, so the process stays low; an owner goes back to
 * the process it used last, so that is mostly the one whose statements were heavy.
 */
const LOW_PRIORITY = 19;

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

function lowerPriority(child: ChildProcess): void {
  try {
    if (child.pid !== undefined) setPriority(child.pid, LOW_PRIORITY);
  } catch {
    // Not permitted or already gone: it keeps its priority.
  }
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

/** How long query processes holding no image are kept (see `QueryPool.endWhenIdle`). */
export const PROCESSES_IDLE_MS = 30_000;

const ORG_CLOSED: QueryOutcome = { ok: false, code: "ORG_CLOSED", message: "the org is closed", elapsedMs: 0 };

/**
 * A fixed set of query processes serving every org image registered with it: the server has one
 * such pool for all its assessments, so their number never grows with the assessments in flight.
 * A process loads an image on its first query on it and keeps a few (least recently used ones
 * dropped). The server's event loop never waits on SQLite.
 *
 * Queries are scheduled fairly between owners (an owner is an assessment: the key its org view
 * was copied with, else the image): each has its own queue; of the owners with work, the one
 * that has used the least worker time goes next, and none holds more than its share of the
 * processes (the pool's size over the owners active in the last ACTIVE_WINDOW_MS, at least one).
 * A purple that sends runaway statements therefore spends its own share only.
 *
 * A query that overruns its time limit between rows is stopped by the worker (no cost beyond its
 * time); one still inside SQLite at the limit costs its process: killed and replaced, the restart
 * charged to its owner, and the caller gets a QUERY_TIMEOUT error. An owner goes back to the
 * process it used last, so the replaced process held mostly the offender's own image.
 */
export class QueryPool {
  private readonly slots: Slot[] = [];
  private readonly owners = new Map<string, Owner>();
  private readonly images = new Map<number, { readonly image: Buffer; readonly owner: string | undefined }>();
  private nextJobId = 1;
  private nextImageId = 1;
  private closed = false;

  constructor(
    readonly size: number,
    /** How long processes that hold no image and run nothing are kept before they end. */
    private readonly idleMs = PROCESSES_IDLE_MS,
    /** How long past a statement's limit the pool waits for its process to stop it before killing the process. */
    private readonly killGraceMs = KILL_GRACE_MS,
  ) {}

  private idleTimer: NodeJS.Timeout | undefined;

  /** Processes start with the first query: a command that never queries forks none. */
  private start(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = undefined;
    if (this.slots.length > 0 || this.closed) return;
    for (let i = 0; i < Math.max(1, this.size); i++) this.slots.push({ ...startWorker(), busy: false });
  }

  /**
   * Makes an image queryable; its id names it in `run` until `release`. `owner` names whose
   * image it is (an assessment): its queries share that owner's queue and share of processes.
   */
  register(image: Buffer, owner?: string): number {
    const id = this.nextImageId++;
    this.images.set(id, { image, owner });
    return id;
  }

  /** Forgets an image: processes that hold it drop it. Queries still queued for it fail. */
  release(imageId: number): void {
    this.images.delete(imageId);
    for (const owner of this.owners.values()) {
      for (const job of owner.queue.filter((candidate) => candidate.imageId === imageId)) {
        owner.queue.splice(owner.queue.indexOf(job), 1);
        job.resolve(ORG_CLOSED);
      }
    }
    for (const slot of this.slots) {
      if (!slot.loaded.includes(imageId)) continue;
      slot.loaded = slot.loaded.filter((id) => id !== imageId);
      if (slot.child.connected) slot.child.send({ kind: "drop", imageId } satisfies WorkerMessage);
    }
    if (this.slots.length > 0 && this.slots.every((slot) => slot.loaded.length === 0)) this.endWhenIdle();
  }

  /**
   * Ends the processes once none holds an image and none has run anything for `idleMs`: a closed
   * twin set (or the last assessment's copy) gives its memory back, and the next query forks
   * them again as the first one did (a few hundred milliseconds). Not at once, so that requests
   * that follow each other keep warm processes.
   */
  private endWhenIdle(): void {
    clearTimeout(this.idleTimer);
    this.idleTimer = setTimeout(() => {
      this.idleTimer = undefined;
      const queued = [...this.owners.values()].some((owner) => owner.queue.length > 0);
      if (queued || this.slots.some((slot) => slot.busy || slot.loaded.length > 0)) return;
      for (const slot of this.slots.splice(0)) slot.child.kill("SIGKILL");
    }, this.idleMs);
    this.idleTimer.unref();
  }

  /** Runs a read-only query on an image, queued under `owner` (default: the image's owner, else the image itself). */
  run(imageId: number, sql: string, limits: QueryLimits, owner?: string): Promise<QueryOutcome> {
    const registered = this.images.get(imageId);
    if (this.closed || !registered) return Promise.resolve(ORG_CLOSED);
    this.start();
    const key = owner ?? registered.owner ?? `image ${imageId}`;
    return new Promise((resolve) => {
      this.ownerOf(key).queue.push({ imageId, sql, limits, resolve });
      this.dispatch();
    });
  }

  /** The query processes' ids, once started (for diagnostics and tests). */
  processIds(): number[] {
    return this.slots.flatMap((slot) => (slot.child.pid === undefined ? [] : [slot.child.pid]));
  }

  async close(): Promise<void> {
    this.closed = true;
    for (const owner of this.owners.values()) for (const job of owner.queue.splice(0)) job.resolve(ORG_CLOSED);
    for (const slot of this.slots) slot.child.kill("SIGKILL");
    clearTimeout(this.wakeTimer);
    clearTimeout(this.idleTimer);
    this.images.clear();
  }

  /** Owners active now: with work queued or running, or done within the window. */
  private activeOwners(now: number): Owner[] {
    return [...this.owners.values()].filter((owner) => owner.queue.length > 0 || owner.running > 0 || now - owner.lastActive < ACTIVE_WINDOW_MS);
  }

  /**
   * The owner's record; one that comes back after a pause starts level with the active owners
   * (the least time any of them used), so time it did not use is no credit against them.
   */
  private ownerOf(key: string): Owner {
    const now = performance.now();
    const active = this.activeOwners(now);
    for (const [name, owner] of this.owners) if (!active.includes(owner)) this.owners.delete(name);
    let owner = this.owners.get(key);
    const floor = active.length > 0 ? Math.min(...active.map((candidate) => candidate.usedMs)) : 0;
    if (!owner) {
      owner = { key, queue: [], running: 0, usedMs: floor, lastActive: now, notBefore: 0, heavyUntil: 0, light: false };
      this.owners.set(key, owner);
    }
    owner.lastActive = now;
    return owner;
  }

  /** The owner to serve next: within its share and not paused, the least worker time used. */
  private nextOwner(): Owner | undefined {
    const now = performance.now();
    const active = this.activeOwners(now);
    const share = Math.max(1, Math.floor(this.slots.length / Math.max(1, active.length)));
    // An owner whose queries were heavy, or that has not yet had a quick one, never holds every
    // process: an assessment that starts beside it finds one free instead of waiting for a
    // runaway statement to be killed. A quick query (a few ms) lifts that at once.
    const heavyShare = Math.max(1, Math.min(share, this.slots.length - 1));
    let best: Owner | undefined;
    let resume = Number.POSITIVE_INFINITY;
    for (const owner of active) {
      if (owner.queue.length === 0 || owner.running >= (owner.light && owner.heavyUntil <= now ? share : heavyShare)) continue;
      if (active.length > 1 && owner.notBefore > now) {
        resume = Math.min(resume, owner.notBefore);
        continue;
      }
      if (!best || owner.usedMs < best.usedMs) best = owner;
    }
    if (!best && Number.isFinite(resume)) this.wakeAt(resume);
    return best;
  }

  private wakeTimer: NodeJS.Timeout | undefined;
  private wakeTime = Number.POSITIVE_INFINITY;

  /**
   * Dispatches again when a paused owner may go on (one timer, the earliest wins). It keeps the
   * process alive as a running query would: a caller is waiting for that owner's queued query.
   */
  private wakeAt(time: number): void {
    if (this.wakeTimer && this.wakeTime <= time) return;
    clearTimeout(this.wakeTimer);
    this.wakeTime = time;
    this.wakeTimer = setTimeout(
      () => {
        this.wakeTimer = undefined;
        this.wakeTime = Number.POSITIVE_INFINITY;
        this.dispatch();
      },
      Math.max(1, time - performance.now()),
    );
  }

  /** Holds back the owner's next query after a costly one (see PAUSE_MS_PER_MB); it matters only beside other owners. */
  private pause(owner: Owner, busyMs: number, bytes: number): void {
    const resultPauseMs = Math.min(MAX_RESULT_PAUSE_MS, (Math.max(0, bytes - FREE_RESULT_BYTES) / 1_000_000) * PAUSE_MS_PER_MB);
    const pauseMs = (busyMs > HEAVY_QUERY_MS ? busyMs * HEAVY_PAUSE_FACTOR : 0) + resultPauseMs;
    if (pauseMs > 0) owner.notBefore = Math.max(owner.notBefore, performance.now() + pauseMs);
    if (pauseMs >= HEAVY_QUERY_MS) this.markHeavy(owner);
    else owner.light = true;
  }

  private markHeavy(owner: Owner): void {
    owner.light = false;
    owner.heavyUntil = performance.now() + HEAVY_MEMORY_MS;
  }

  private dispatch(): void {
    for (;;) {
      const free = this.slots.filter((slot) => !slot.busy);
      if (free.length === 0) return;
      const owner = this.nextOwner();
      if (!owner) return;
      const job = owner.queue.shift()!;
      // A process that holds the image answers without loading it again; else the owner's own process.
      const slot =
        free.find((candidate) => candidate.loaded.includes(job.imageId)) ??
        free.find((candidate) => candidate.lastOwner === owner.key) ??
        free.reduce((fewest, candidate) => (candidate.loaded.length < fewest.loaded.length ? candidate : fewest));
      slot.busy = true;
      slot.lastOwner = owner.key;
      owner.running++;
      holdOpen(slot.child, true);
      const dispatched = performance.now();
      void slot.ready.then((ready) => {
        if (ready) this.execute(slot, job, owner, dispatched);
        else this.failToStart(slot, job, owner, dispatched);
      });
    }
  }

  /**
   * Gives the process back and charges its time to the owner; `queryMs` (the statement's own time,
   * not loading its image) and `bytes` (its result's size) say how costly it was.
   */
  private releaseSlot(slot: Slot, owner: Owner, since: number, queryMs = performance.now() - since, bytes = 0): void {
    const now = performance.now();
    owner.running--;
    owner.usedMs += now - since;
    this.pause(owner, queryMs, bytes);
    owner.lastActive = now;
    holdOpen(slot.child, false);
    slot.busy = false;
    this.dispatch();
  }

  /** Sends the image to the process if it lacks it, dropping its least recently used one beyond the cap. */
  private ensureLoaded(slot: Slot, imageId: number): boolean {
    const image = this.images.get(imageId)?.image;
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

  private failToStart(slot: Slot, job: Job, owner: Owner, since: number): void {
    holdOpen(slot.child, false);
    if (!this.closed) Object.assign(slot, startWorker());
    job.resolve({ ok: false, code: "QUERY_FAILED", message: "the query engine could not start", elapsedMs: 0 });
    this.releaseSlot(slot, owner, since, 0);
  }

  /**
   * Kills the slot's process and starts its replacement; the slot stays the owner's (busy, and
   * charged to it) until the replacement is up, so a purple's timeouts slow that purple only.
   */
  private replace(slot: Slot, owner: Owner, since: number): void {
    slot.child.kill("SIGKILL");
    if (this.closed) return;
    Object.assign(slot, startWorker());
    // Queries may be waiting for this process: its start keeps the host process alive.
    holdOpen(slot.child, true);
    // It replaces a process killed in a runaway statement and will mostly serve the same owner:
    // its start (a Node process and the engine) takes the cores only when nobody else needs them.
    lowerPriority(slot.child);
    void slot.ready.then(() => this.releaseSlot(slot, owner, since));
  }

  private execute(slot: Slot, job: Job, owner: Owner, since: number): void {
    const id = this.nextJobId++;
    let started = performance.now();
    const child = slot.child;
    let settled = false;
    const finish = (outcome: QueryOutcome, restart: boolean, bytes = 0) => {
      if (settled) return;
      settled = true;
      clearTimeout(timer);
      clearTimeout(lower);
      child.off("message", onMessage);
      child.off("exit", onExit);
      job.resolve(outcome);
      if (restart) this.replace(slot, owner, since);
      else this.releaseSlot(slot, owner, since, performance.now() - started, bytes);
    };
    const onMessage = (response: WorkerResponse | WorkerLoaded | { ready: true }) => {
      if ("loaded" in response && response.loaded === job.imageId) {
        // Loading is not the query's time: its limit starts now.
        clearTimeout(timer);
        clearTimeout(lower);
        started = performance.now();
        timer = setTimeout(onTimeout, job.limits.timeoutMs + this.killGraceMs);
        lower = setTimeout(onHeavy, HEAVY_QUERY_MS);
        return;
      }
      if (!("id" in response) || response.id !== id) return;
      const elapsedMs = performance.now() - started;
      finish(
        response.ok
          ? { ok: true, columns: response.columns, rows: toRows(response.columns, response.values), truncated: response.truncated, elapsedMs }
          : { ok: false, code: response.code, message: response.message, elapsedMs },
        false,
        response.ok ? response.bytes : 0,
      );
    };
    const timedOut = (): QueryOutcome => ({
      ok: false,
      code: "QUERY_TIMEOUT",
      message: `the query ran longer than ${job.limits.timeoutMs} ms and was stopped`,
      elapsedMs: performance.now() - started,
    });
    const onExit = (code: number | null, signal: string | null) => {
      // Past its limit, the worker's own watchdog stopped it (this loop was late to): a timeout all the same.
      if (performance.now() - started >= job.limits.timeoutMs) {
        finish(timedOut(), true);
        return;
      }
      finish(
        {
          ok: false,
          code: "QUERY_FAILED",
          message: `the query engine stopped (${signal ?? `exit code ${code}`}); the query was not answered`,
          elapsedMs: performance.now() - started,
        },
        true,
      );
    };
    const onTimeout = () => finish(timedOut(), true);
    const onHeavy = () => {
      this.markHeavy(owner);
      lowerPriority(child);
    };
    let lower = setTimeout(onHeavy, HEAVY_QUERY_MS + (slot.loaded.includes(job.imageId) ? 0 : LOAD_ALLOWANCE_MS));
    // An image still to load gets its allowance first; the query's own limit starts when it is loaded.
    let timer = setTimeout(onTimeout, job.limits.timeoutMs + this.killGraceMs + (slot.loaded.includes(job.imageId) ? 0 : LOAD_ALLOWANCE_MS));
    child.on("message", onMessage);
    child.on("exit", onExit);
    if (!this.ensureLoaded(slot, job.imageId)) {
      finish(ORG_CLOSED, false);
      return;
    }
    child.send({
      kind: "query",
      id,
      imageId: job.imageId,
      sql: job.sql,
      maxRows: job.limits.maxRows,
      maxBytes: job.limits.maxBytes,
      timeoutMs: job.limits.timeoutMs,
    } satisfies WorkerMessage);
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
    const configured = Number(environment().ENTROPIC_QUERY_PROCESSES);
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
