import { type FileHandle, open, readFile, truncate } from "node:fs/promises";
import { jsonPieces, PIECE_CHARS } from "./json-pieces.js";
import type { EpisodeRecord, LogFooter, LogHeader } from "./schema.js";

/**
 * Appends an assessment log to disk as it happens: the header first, each episode as it ends,
 * the footer last. `append` resolves only once the line is on disk (fsync), so an episode that
 * was reported is never lost to a crash. Lines that finish together share one fsync.
 */
export class Journal {
  private pending: { value: LogHeader | EpisodeRecord | LogFooter; done: () => void; failed: (error: Error) => void }[] = [];
  private flushing: Promise<void> | undefined;
  private closed = false;

  private constructor(
    readonly path: string,
    private readonly file: FileHandle,
  ) {}

  /** Starts a new journal (`wx`: never over another run's file) or continues one (`a`). */
  static async open(path: string, mode: "new" | "continue"): Promise<Journal> {
    if (mode === "continue") await dropTornLine(path);
    const file = await open(path, mode === "new" ? "wx" : "a");
    return new Journal(path, file);
  }

  writeHeader(header: LogHeader): Promise<void> {
    return this.append(header);
  }

  writeEpisode(record: EpisodeRecord): Promise<void> {
    return this.append(record);
  }

  async finish(footer: LogFooter): Promise<void> {
    await this.append(footer);
    await this.close();
  }

  async close(): Promise<void> {
    if (this.closed) return;
    await this.flushing;
    this.closed = true;
    await this.file.close();
  }

  private append(value: LogHeader | EpisodeRecord | LogFooter): Promise<void> {
    if (this.closed) return Promise.reject(new Error(`the journal ${this.path} is closed`));
    return new Promise((done, failed) => {
      this.pending.push({ value, done, failed });
      this.flushing ??= this.flush();
    });
  }

  /** Lines in pieces (see json-pieces.ts), gathered into writes of about PIECE_CHARS characters. */
  private async writeLines(values: readonly (LogHeader | EpisodeRecord | LogFooter)[]): Promise<void> {
    let text = "";
    for (const value of values) {
      for (const piece of jsonPieces(value)) {
        text += piece;
        if (text.length >= PIECE_CHARS) {
          await this.file.write(text, null, "utf8");
          text = "";
        }
      }
      text += "\n";
    }
    await this.file.write(text, null, "utf8");
  }

  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0);
      try {
        await this.writeLines(batch.map((entry) => entry.value));
        await this.file.sync();
        for (const entry of batch) entry.done();
      } catch (error) {
        for (const entry of batch) entry.failed(error as Error);
      }
    }
    this.flushing = undefined;
  }
}

/** A crash can leave the last line half written: cut it, so that what is appended starts a line of its own. */
async function dropTornLine(path: string): Promise<void> {
  const bytes = await readFile(path);
  const end = bytes.lastIndexOf(0x0a) + 1;
  if (end < bytes.length) await truncate(path, end);
}
