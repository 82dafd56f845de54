import { randomBytes } from "node:crypto";
import { lstatSync, mkdirSync, readFileSync, readlinkSync, type Stats, statSync, writeFileSync } from "node:fs";
import { dirname, join } from "node:path";
import { environment } from "../util/index.js";
import { CACHE_DIR } from "./paths.js";

/** The file that holds this installation's secret for the Id remap: ENTROPIC_ID_SECRET_FILE, else in the data cache. */
export function idSecretFile(): string {
  return environment().ENTROPIC_ID_SECRET_FILE || join(CACHE_DIR, "id-secret");
}

/**
 * The operator's secret in the Id remap's key. The map of a run is a keyed hash of its seed: with
 * the seed alone (which the purple is shown, and the code is public) a purple could recompute the
 * map and undo it, so the map also takes a secret the purple never sees:
 *
 *   1. `ENTROPIC_ID_SECRET`, when the operator sets it (the same on every machine of a leaderboard:
 *      runs are then reproducible anywhere the secret is);
 *   2. else this installation's own, 32 random bytes made on first use and kept in `idSecretFile`
 *      (in a container, point ENTROPIC_ID_SECRET_FILE into the runs volume, so that a restarted
 *      container resumes its journals with the same Ids). Runs are reproducible on this
 *      installation, and every process of it (a green, an oracle purple) shares the secret.
 *
 * The results and the log record the map's digest, never the secret.
 */
export function resolveIdSecret(): string {
  const given = environment().ENTROPIC_ID_SECRET;
  if (given) return given;
  const file = idSecretFile();
  const kept = readKeptSecret(file);
  if (kept !== undefined) return kept;
  const secret = randomBytes(32).toString("hex");
  mkdirSync(dirname(file), { recursive: true });
  // "wx": two processes making it at once keep the first one's; the loser reads it back.
  try {
    writeFileSync(file, `${secret}\n`, { mode: 0o600, flag: "wx" });
    return secret;
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "EEXIST") {
      const winner = readKeptSecret(file);
      if (winner !== undefined) return winner;
    }
    throw new Error(`cannot keep the Id remap secret in ${file}: ${(error as Error).message} (set ENTROPIC_ID_SECRET, or ENTROPIC_ID_SECRET_FILE to a writable path)`);
  }
}

/**
 * The secret kept in `file`, or undefined when there is nothing at that path. Anything there that
 * is not a readable regular file (a directory, a FIFO that would block start-up, a link to nothing)
 * is refused with its path and the way out, never read.
 */
function readKeptSecret(file: string): string | undefined {
  const fix = "delete it (a new secret is then made there), or set ENTROPIC_ID_SECRET, or ENTROPIC_ID_SECRET_FILE to another path";
  let link: Stats;
  try {
    link = lstatSync(file);
  } catch (error) {
    if ((error as NodeJS.ErrnoException).code === "ENOENT") return undefined;
    throw new Error(`cannot read the Id remap secret file ${file}: ${(error as Error).message} (${fix})`);
  }
  let target = link;
  if (link.isSymbolicLink()) {
    try {
      target = statSync(file);
    } catch {
      throw new Error(`the Id remap secret file ${file} is a symbolic link to nothing (${readlinkSafe(file)}): ${fix}`);
    }
  }
  if (!target.isFile()) throw new Error(`the Id remap secret file ${file} is ${kindOf(target)}, not a file: ${fix}`);
  if (target.size > 4096) throw new Error(`the Id remap secret file ${file} holds ${target.size} bytes, more than a secret: ${fix}`);
  const kept = readFileSync(file, "utf8").trim();
  if (kept.length >= 16) return kept;
  throw new Error(`${file} holds no usable Id remap secret (at least 16 characters); delete it to make a new one, or set ENTROPIC_ID_SECRET`);
}

function kindOf(stats: Stats): string {
  if (stats.isDirectory()) return "a directory";
  if (stats.isFIFO()) return "a named pipe (FIFO)";
  if (stats.isSocket()) return "a socket";
  if (stats.isCharacterDevice() || stats.isBlockDevice()) return "a device";
  return "not a regular file";
}

function readlinkSafe(file: string): string {
  try {
    return `it points to ${readlinkSync(file)}`;
  } catch {
    return "its target cannot be read";
  }
}
