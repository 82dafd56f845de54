import { createWriteStream } from "node:fs";
import { mkdir } from "node:fs/promises";
import { dirname } from "node:path";
import type { TaskOutcome } from "../assessment/index.js";

/** Writes the full trajectories, one JSON object per line, for analysis beyond the compact form. */
export async function writeTrajectories(path: string, outcomes: readonly TaskOutcome[]): Promise<void> {
  await mkdir(dirname(path), { recursive: true });
  const stream = createWriteStream(path, { encoding: "utf8" });
  for (const outcome of outcomes) {
    const line = JSON.stringify({ ...outcome.trajectory, score: outcome.score ?? null });
    if (!stream.write(`${line}\n`)) await new Promise<void>((resolve) => stream.once("drain", () => resolve()));
  }
  await new Promise<void>((resolve, reject) => stream.end((error?: Error | null) => (error ? reject(error) : resolve())));
}
