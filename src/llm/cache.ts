import { createHash } from "node:crypto";
import { mkdir, readFile, rename, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ChatMessage } from "./provider.js";

/** A stored judgement: what was asked, of which model, and what it said. */
interface CacheEntry {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly output: string;
}

/**
 * Judgements on disk, one file per (model, prompt, input), so that re-running or re-scoring an
 * assessment gives the same verdicts at no cost and without network.
 */
export class JudgementCache {
  private static writes = 0;

  constructor(readonly dir: string) {}

  static key(model: string, messages: readonly ChatMessage[]): string {
    return createHash("sha256").update(JSON.stringify({ model, messages })).digest("hex");
  }

  async get(model: string, messages: readonly ChatMessage[]): Promise<string | undefined> {
    try {
      const entry = JSON.parse(await readFile(this.path(model, messages), "utf8")) as CacheEntry;
      return entry.output;
    } catch {
      return undefined;
    }
  }

  async put(model: string, messages: readonly ChatMessage[], output: string): Promise<void> {
    const path = this.path(model, messages);
    await mkdir(dirname(path), { recursive: true });
    const entry: CacheEntry = { model, messages, output };
    // Write then rename, so a reader never sees half a file; concurrent writers each use their own temporary file.
    const temporary = `${path}.${process.pid}.${++JudgementCache.writes}.tmp`;
    await writeFile(temporary, JSON.stringify(entry));
    await rename(temporary, path);
  }

  private path(model: string, messages: readonly ChatMessage[]): string {
    const key = JudgementCache.key(model, messages);
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }
}
