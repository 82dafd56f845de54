/**
 * The thread that derives an org's copy (derive.ts's SQL, unchanged) off the main thread's event
 * loop: for each job it gets the base image, the changes and the remap's key, and sends back the
 * copy's image (transferred, not copied), its records' keys and its latest date. The thread is kept
 * warm between jobs (derive-thread.ts), so its module compilation and start-up are paid once.
 *
 * It imports only what a copy needs (SQLite, the SQL of derive.ts, the remap): a thread holds its
 * own compiled copy of every module it loads for as long as it is warm, and zod, the logger and
 * the rest of util/ cost it about 20 MB (a warm thread was 34 MB of the server's RSS, now 15).
 * Hence the remap and the collection from their own modules, not util/'s index.
 */
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { collectNow } from "../util/collect.js";
import { IdRemap } from "../util/id-remap.js";
import type { OrgChange } from "./changes.js";
import { ChangedOrg, deriveImage } from "./derive.js";
import type { OrgSchema } from "./types.js";

/**
 * What the main thread sends (derive-thread.ts builds it from the plan's changes, already checked
 * where the plan was made; the schema is the store's own, introspected). Both sides are this
 * process's own code, so the thread checks only its shape.
 */
export interface DeriveJob {
  readonly image: Uint8Array;
  readonly schema: OrgSchema;
  readonly changes: readonly OrgChange[];
  readonly remapKey?: Uint8Array;
  /** Names the base image within the process (the same key, the same image): the thread may keep it changed for the next job. */
  readonly baseKey?: number;
}

export type DeriveReply =
  | { readonly ok: true; readonly image: Uint8Array; readonly keys: readonly string[]; readonly today: string }
  | { readonly ok: false; readonly message: string };

/** The thread's niceness (Linux applies it to this thread alone). */
const DERIVE_PRIORITY = 10;

function isDeriveJob(message: unknown): message is DeriveJob {
  if (typeof message !== "object" || message === null) return false;
  const job = message as Partial<DeriveJob>;
  return (
    job.image instanceof Uint8Array &&
    typeof job.schema === "object" &&
    job.schema !== null &&
    Array.isArray(job.schema.objects) &&
    Array.isArray(job.changes) &&
    (job.remapKey === undefined || job.remapKey instanceof Uint8Array) &&
    (job.baseKey === undefined || typeof job.baseKey === "number")
  );
}

function derive(message: unknown): DeriveReply {
  try {
    if (!isDeriveJob(message)) throw new Error("the job is not an image, an org schema, a list of changes and an optional remap key");
    const remap = message.remapKey ? IdRemap.fromKey(message.remapKey) : undefined;
    const derived = remap
      ? (keptFor(message)?.copy(remap) ?? deriveImage(message.image, message.schema, message.changes, remap))
      : deriveImage(message.image, message.schema, message.changes);
    // better-sqlite3's serialize() gives a buffer its addon owns, which Node 22 refuses to
    // transfer (DataCloneError; Node 20 let it go): a copy made here, in the thread, transfers.
    return { ok: true, ...derived, image: new Uint8Array(derived.image) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
}

/**
 * The last job's org with its changes applied, kept while the thread is warm: the next request's
 * copy of the same org with the same changes (every seed's at a level that adds no records) then
 * costs only its remap, not the image's load, the changes and the reading of every table. Kept for
 * a small org only (a thread holds it, and its records' Id and text columns, for as long as it
 * waits), and only for changes that add or set no records (those differ from seed to seed).
 */
let kept: { readonly key: string; readonly org: ChangedOrg } | undefined;
const KEPT_IMAGE_BYTES = 8 * 1024 * 1024;

function keptFor(job: DeriveJob): ChangedOrg | undefined {
  const reusable =
    job.baseKey !== undefined && job.image.byteLength <= KEPT_IMAGE_BYTES && job.changes.every((change) => change.op !== "insert_records" && change.op !== "set_values");
  if (!reusable) return undefined;
  const key = `${job.baseKey}\0${JSON.stringify(job.changes)}`;
  if (kept?.key === key) return kept.org;
  kept?.org.close();
  kept = undefined;
  const org = ChangedOrg.open(job.image, job.schema, job.changes);
  if (org) kept = { key, org };
  return org;
}

// Below the main thread, like the query processes: the copy may take a while, the event loop may not.
try {
  setPriority(DERIVE_PRIORITY);
} catch {
  // Not allowed here (some containers): the thread runs at the process's priority.
}
parentPort?.on("message", (message: unknown) => {
  const reply = derive(message);
  parentPort?.postMessage(reply, reply.ok ? [reply.image.buffer as ArrayBuffer] : []);
  // The job's image (a full-size org's is about 35 MB) and the copy's garbage go now: a warm
  // thread allocates nothing while it waits, so V8 would hold them until its next job. A young
  // collection frees them (the image's buffers are held by objects the job made), at a fraction
  // of a full one's CPU, which a request would pay.
  collectNow("young");
});
