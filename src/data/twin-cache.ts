import { readdir, rm, stat, utimes } from "node:fs/promises";
import { join } from "node:path";
import { environment, megabytesFromEnv } from "../util/index.js";

/** The twin cache's size unless ENTROPIC_TWINS_CACHE_MB says otherwise: a set at full size is about 9 MB, so some 50 sets. */
export const DEFAULT_TWINS_CACHE_MB = 512;

/** A set used this recently is never evicted: another request may be reading it now. */
const IN_USE_MS = 60_000;

/** The operator's bound on the twin cache, in bytes: ENTROPIC_TWINS_CACHE_MB (a positive number of megabytes), else the default. */
export const twinCacheBudgetBytes = (env: NodeJS.ProcessEnv = environment()): number => megabytesFromEnv(env, "ENTROPIC_TWINS_CACHE_MB", DEFAULT_TWINS_CACHE_MB);

/** Marks a set as used now (its marker file's time), so that eviction takes the least recently used first. A cache it cannot touch is left as it is. */
export async function touchTwinSet(markerPath: string): Promise<void> {
  const now = new Date();
  await utimes(markerPath, now, now).catch(() => undefined);
}

/** Bytes of the files under a folder. */
async function folderBytes(dir: string): Promise<number> {
  let total = 0;
  for (const entry of await readdir(dir, { withFileTypes: true, recursive: true }).catch(() => [])) {
    if (!entry.isFile()) continue;
    total += (await stat(join(entry.parentPath, entry.name)).catch(() => ({ size: 0 }))).size;
  }
  return total;
}

/**
 * Removes the least recently used twin sets of a cache folder until the whole is within `budgetBytes`:
 * never `keep` (the set just built or read), nor a set used in the last minute, nor a set being
 * built (a `.building-` folder). A set is rebuilt from the real task file when asked for again (the
 * same set: it is a pure function of its key). Returns the folders removed.
 */
export async function evictTwinSets(cacheDir: string, budgetBytes: number, keep: string, markerFile: string, now = Date.now()): Promise<string[]> {
  const entries = await readdir(cacheDir, { withFileTypes: true }).catch(() => []);
  const sets: { dir: string; bytes: number; usedAt: number }[] = [];
  for (const entry of entries) {
    if (!entry.isDirectory() || entry.name.includes(".building-")) continue;
    const dir = join(cacheDir, entry.name);
    const marker = await stat(join(dir, markerFile)).catch(() => undefined);
    // A folder without its marker is a set that was never finished (or damaged): the oldest of all.
    sets.push({ dir, bytes: await folderBytes(dir), usedAt: marker?.mtimeMs ?? 0 });
  }
  let total = sets.reduce((sum, set) => sum + set.bytes, 0);
  const removed: string[] = [];
  for (const set of sets.sort((a, b) => a.usedAt - b.usedAt)) {
    if (total <= budgetBytes) break;
    if (set.dir === keep || now - set.usedAt < IN_USE_MS) continue;
    await rm(set.dir, { recursive: true, force: true });
    total -= set.bytes;
    removed.push(set.dir);
  }
  return removed;
}
