/**
 * The thread that derives an org's copy (derive.ts's SQL, unchanged) off the main thread's event
 * loop: for each job it gets the base image, the changes and the remap's key, and sends back the
 * copy's image (transferred, not copied), its record Ids and its latest date. The thread is kept
 * warm between jobs (derive-thread.ts), so its module compilation and start-up are paid once.
 */
import { setPriority } from "node:os";
import { parentPort } from "node:worker_threads";
import { z } from "zod";
import { IdRemap } from "../util/index.js";
import { OrgChangeSchema } from "./changes.js";
import { deriveImage } from "./derive.js";
import type { OrgSchema } from "./types.js";

/** What the main thread sends; the schema is the store's own (introspected), passed through as it is. */
export const DeriveJobSchema = z.object({
  image: z.instanceof(Uint8Array),
  schema: z.custom<OrgSchema>((value) => typeof value === "object" && value !== null && Array.isArray((value as OrgSchema).objects), "an org schema"),
  changes: z.array(OrgChangeSchema),
  remapKey: z.instanceof(Uint8Array).optional(),
});
export type DeriveJob = z.infer<typeof DeriveJobSchema>;

export type DeriveReply =
  | { readonly ok: true; readonly image: Uint8Array; readonly ids: readonly string[]; readonly today: string }
  | { readonly ok: false; readonly message: string };

/** The thread's niceness (Linux applies it to this thread alone). */
const DERIVE_PRIORITY = 10;

function derive(message: unknown): DeriveReply {
  try {
    const job = DeriveJobSchema.parse(message);
    const derived = deriveImage(job.image, job.schema, job.changes, job.remapKey ? IdRemap.fromKey(job.remapKey) : undefined);
    // better-sqlite3's serialize() gives a buffer its addon owns, which Node 22 refuses to
    // transfer (DataCloneError; Node 20 let it go): a copy made here, in the thread, transfers.
    return { ok: true, ...derived, image: new Uint8Array(derived.image) };
  } catch (error) {
    return { ok: false, message: error instanceof Error ? error.message : String(error) };
  }
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
});
