import { mkdirSync, rmSync, statSync, writeFileSync } from "node:fs";
import { join, resolve } from "node:path";

/**
 * The runs folder, checked before the server takes a request: made when missing, and proved
 * writable by writing and removing a probe file (a read-only mount answers EROFS only then, and
 * root passes every permission check). A folder that fails is refused at start-up with its path
 * and the fix, rather than failing every request later with the file system's own words.
 */
export function checkRunsDir(dir: string): string {
  const path = resolve(dir);
  const fix = "make it a writable folder, or pass --runs-dir (ENTROPIC_RUNS_DIR) another one";
  try {
    const stats = statSync(path, { throwIfNoEntry: false });
    if (stats && !stats.isDirectory()) throw new Error("it is not a folder");
    if (!stats) mkdirSync(path, { recursive: true });
    const probe = join(path, `.write-check-${process.pid}`);
    writeFileSync(probe, "");
    rmSync(probe);
  } catch (error) {
    const code = (error as NodeJS.ErrnoException).code;
    const reason = code === "EROFS" ? "it is on a read-only file system" : code === "EACCES" || code === "EPERM" ? "it is not writable" : (error as Error).message;
    throw new Error(`the runs folder ${path} cannot hold journals: ${reason}; ${fix}`);
  }
  return path;
}
