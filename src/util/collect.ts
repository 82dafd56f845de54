import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

type Collect = (options?: { type: "major" | "minor"; execution: "sync" | "async"; flavor?: "regular" | "last-resort" }) => void;
let collect: Collect | undefined | null;

/** `young`: the young generation only (a few ms); `full`: the whole heap; `last-resort`: see collectNow. */
export type CollectionKind = "young" | "full" | "last-resort";

/**
 * A garbage collection of this thread's heap now (a full one unless `kind` says otherwise), when V8 lets us have one (false when it
 * does not). V8 would collect only when the thread next allocates enough, which for a thread or
 * server that waits idle may be minutes later: what it let go stays resident until then.
 *
 * `last-resort`: V8's last-resort collection instead, which collects until nothing more goes, drops
 * the pages V8 keeps pooled for reuse and the compiled code of functions not run lately (it is
 * compiled again when next called), and shrinks the young generation to its least: on the green
 * after a run of the 2,140 tasks, 258 -> 198 MB of RSS where a plain one left 263, for about
 * 200 ms of CPU instead of 90 (npm run bench; the request that follows cost no more CPU).
 */
export function collectNow(kind: CollectionKind = "full"): boolean {
  if (collect === undefined) {
    try {
      setFlagsFromString("--expose-gc");
      collect = runInNewContext("gc") as Collect;
    } catch {
      collect = null;
    }
  }
  if (!collect) return false;
  // Options always: V8's gc() called with undefined runs a young collection, not a full one.
  collect(kind === "young" ? { type: "minor", execution: "sync" } : { type: "major", execution: "sync", ...(kind === "last-resort" ? { flavor: "last-resort" as const } : {}) });
  return true;
}

type MallocTrim = (pad: bigint) => unknown;
let mallocTrim: MallocTrim | undefined | null;

/**
 * glibc's `malloc_trim(0)`: the free pages malloc keeps in its arenas handed back to the system.
 * What a run's threads freed (V8's compiler zones, SQLite's pages in the org-copy thread, request
 * and reply buffers) otherwise stays resident between blocks still in use: after a run of the
 * 2,140 tasks, 4-11 MB of RSS for about 1.5 ms of CPU (npm run bench). Through `node:ffi`, experimental in
 * Node.js 26 (it warns once, when first used); false where there is no `node:ffi` or no glibc.
 */
export function trimMalloc(): boolean {
  if (mallocTrim === undefined) {
    try {
      const ffi = process.getBuiltinModule("node:ffi") as unknown as {
        dlopen(path: string, symbols: Record<string, { returns: string; arguments: string[] }>): { functions: Record<string, MallocTrim> };
      };
      mallocTrim = ffi.dlopen("libc.so.6", { malloc_trim: { returns: "int32", arguments: ["uint64"] } }).functions.malloc_trim ?? null;
    } catch {
      mallocTrim = null;
    }
  }
  if (!mallocTrim) return false;
  mallocTrim(0n);
  return true;
}
