import { createHash } from "node:crypto";
import { mkdir, readdir, readFile, rename, rm, stat, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import type { ChatMessage } from "./provider.js";

/** A stored judgement: what was asked, of which model, and what it said. */
interface CacheEntry {
  readonly model: string;
  readonly messages: readonly ChatMessage[];
  readonly output: string;
}

/** The judgement cache's size unless ENTROPIC_JUDGE_CACHE_MB says otherwise: some 200,000 verdicts of about 5 KB. */
export const DEFAULT_JUDGE_CACHE_MB = 1024;

/**
 * Judgements on disk, one file per (model, prompt, input), so that re-running or re-scoring an
 * assessment gives the same verdicts at no cost and without network. Bounded: once a sixteenth of
 * the budget has been written since the last look, the oldest written verdicts are removed until
 * the cache holds at most nine tenths of `budgetBytes` (a verdict removed is asked again when
 * needed, and cached again).
 */
export class JudgementCache {
  private static writes = 0;
  private writtenSinceSweep = 0;
  private sweeping: Promise<number> | undefined;

  constructor(
    readonly dir: string,
    readonly budgetBytes: number = DEFAULT_JUDGE_CACHE_MB * 1024 * 1024,
  ) {}

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
    const text = JSON.stringify(entry);
    await writeFile(temporary, text);
    await rename(temporary, path);
    this.writtenSinceSweep += Buffer.byteLength(text);
    if (this.writtenSinceSweep >= this.budgetBytes / 16) await this.sweep();
  }

  /**
   * Removes the oldest written verdicts until the cache holds at most nine tenths of its budget;
   * nothing when it is within the budget. One sweep at a time (a put during one waits for it).
   * Returns how many files it removed.
   */
  async sweep(): Promise<number> {
    this.sweeping ??= this.removeOldest().finally(() => {
      this.sweeping = undefined;
      this.writtenSinceSweep = 0;
    });
    return this.sweeping;
  }

  private async removeOldest(): Promise<number> {
    const files: { path: string; bytes: number; writtenAt: number }[] = [];
    for (const folder of await readdir(this.dir).catch(() => [])) {
      for (const name of await readdir(join(this.dir, folder)).catch(() => [])) {
        if (!name.endsWith(".json")) continue;
        const path = join(this.dir, folder, name);
        const info = await stat(path).catch(() => undefined);
        if (info?.isFile()) files.push({ path, bytes: info.size, writtenAt: info.mtimeMs });
      }
    }
    let total = files.reduce((sum, file) => sum + file.bytes, 0);
    if (total <= this.budgetBytes) return 0;
    let removed = 0;
    for (const file of files.sort((a, b) => a.writtenAt - b.writtenAt)) {
      if (total <= this.budgetBytes * 0.9) break;
      await rm(file.path, { force: true });
      total -= file.bytes;
      removed++;
    }
    return removed;
  }

  private path(model: string, messages: readonly ChatMessage[]): string {
    const key = JudgementCache.key(model, messages);
    return join(this.dir, key.slice(0, 2), `${key}.json`);
  }
}
