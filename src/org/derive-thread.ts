import { createRequire } from "node:module";
import { availableParallelism } from "node:os";
import { dirname, join } from "node:path";
import { fileURLToPath, pathToFileURL } from "node:url";
import { Worker } from "node:worker_threads";
import type { IdRemap } from "../util/index.js";
import type { OrgChange } from "./changes.js";
import type { DerivedImage } from "./derive.js";
import type { DeriveJob, DeriveReply } from "./derive-worker.js";
import type { OrgSchema } from "./types.js";

/**
 * The worker thread's entry: the compiled module directly; from TypeScript sources (tests,
 * `tsx`) a bootstrap that registers tsx's loader in the thread first (a thread does not inherit
 * the loader of the process, and `--import` in a thread's execArgv does not reach it either).
 */
function startDeriveWorker(): Worker {
  const fromSource = import.meta.url.endsWith(".ts");
  const entry = new URL(fromSource ? "./derive-worker.ts" : "./derive-worker.js", import.meta.url);
  if (!fromSource) return new Worker(entry, { resourceLimits: THREAD_LIMITS });
  const tsxApi = pathToFileURL(join(dirname(createRequire(fileURLToPath(import.meta.url)).resolve("tsx/package.json")), "dist/esm/api/index.mjs")).href;
  const bootstrap = `import(${JSON.stringify(tsxApi)}).then(({ register }) => { register(); return import(${JSON.stringify(entry.href)}); });`;
  return new Worker(bootstrap, { eval: true, resourceLimits: THREAD_LIMITS });
}

/**
 * A small young generation: the thread allocates little in JavaScript (SQLite's work is native),
 * and a warm thread keeps what its heap grew to for as long as it waits.
 */
const THREAD_LIMITS = { maxYoungGenerationSizeMb: 8 };

/**
 * Derives a SQLite org's copy in a worker thread (derive.ts's SQL, byte for byte what the main
 * thread would make). The base image is copied to the thread (the store keeps its own); the
 * copy comes back transferred. The remap's key crosses to the thread, never further.
 */
export async function deriveInWorker(image: Uint8Array, schema: OrgSchema, changes: readonly OrgChange[], remap?: IdRemap, baseKey?: number): Promise<DerivedImage> {
  // One copy at a time per spare core: eight threads at once on two cores left the main thread
  // (the event loop) a fifth of a core, which is the stall this thread exists to avoid.
  while (running >= MAX_THREADS) await new Promise<void>((resolve) => queued.push(resolve));
  running++;
  try {
    return await deriveInThread(image, schema, changes, remap, baseKey);
  } finally {
    running--;
    queued.shift()?.();
  }
}

const MAX_THREADS = Math.max(1, availableParallelism() - 1);
let running = 0;
const queued: (() => void)[] = [];

/**
 * Threads kept between copies: a fresh thread cost about 0.66 s of CPU per request (compiling
 * the modules, loading SQLite), while the copy itself is a small part of it. An idle thread is
 * unreferenced (it never keeps the process alive) and ends after IDLE_MS without work.
 */
const idle: Worker[] = [];
const IDLE_MS = 30_000;
const idleTimers = new WeakMap<Worker, NodeJS.Timeout>();

let started = 0;

/** How many derive threads this process has started, and how many wait idle: copies reuse warm threads. */
export function deriveThreads(): { readonly started: number; readonly idle: number } {
  return { started, idle: idle.length };
}

function takeWorker(): Worker {
  const worker = idle.pop();
  if (!worker) {
    started++;
    return startDeriveWorker();
  }
  clearTimeout(idleTimers.get(worker));
  worker.ref();
  return worker;
}

function keepWorker(worker: Worker): void {
  worker.unref();
  idle.push(worker);
  const timer = setTimeout(() => {
    const at = idle.indexOf(worker);
    if (at >= 0) idle.splice(at, 1);
    void worker.terminate();
  }, IDLE_MS);
  timer.unref();
  idleTimers.set(worker, timer);
}

function deriveInThread(image: Uint8Array, schema: OrgSchema, changes: readonly OrgChange[], remap?: IdRemap, baseKey?: number): Promise<DerivedImage> {
  const job: DeriveJob = {
    image: new Uint8Array(image),
    schema,
    changes: [...changes],
    ...(remap ? { remapKey: remap.keyForWorker() } : {}),
    ...(baseKey !== undefined ? { baseKey } : {}),
  };
  const worker = takeWorker();
  return new Promise((resolve, reject) => {
    const done = (outcome: () => void, reusable: boolean) => {
      worker.off("message", onMessage);
      worker.off("error", onError);
      worker.off("exit", onExit);
      outcome();
      if (reusable) keepWorker(worker);
      else void worker.terminate();
    };
    const onMessage = (reply: DeriveReply) =>
      done(() => (reply.ok ? resolve({ image: reply.image, keys: reply.keys, today: reply.today }) : reject(new Error(`deriving the org's copy failed: ${reply.message}`))), true);
    const onError = (error: Error) => done(() => reject(new Error(`deriving the org's copy failed: ${error.message}`)), false);
    const onExit = (code: number) => done(() => reject(new Error(`the thread deriving the org's copy stopped (exit code ${code}) before it answered`)), false);
    worker.once("message", onMessage);
    worker.once("error", onError);
    worker.once("exit", onExit);
    worker.postMessage(job, [job.image.buffer as ArrayBuffer]);
  });
}
