import { type FileHandle, open, readFile, rename, truncate, writeFile } from "node:fs/promises";
import { EntropicError } from "../util/index.js";
import { jsonPieces, PIECE_CHARS } from "./json-pieces.js";
import type { EpisodeRecord, LogFooter, LogHeader } from "./schema.js";

/** A journal line that could not be made durable (a full disk, say): the message names the file and the cause. */
export class JournalWriteError extends EntropicError {
  override readonly name = "JournalWriteError";
  constructor(
    readonly path: string,
    override readonly cause: unknown,
  ) {
    super("journal", `cannot write the run's journal ${path}: ${cause instanceof Error ? cause.message : String(cause)}`, { cause });
  }
}

/** A run's journal would grow past its byte budget: the run stops as on a full disk, and only it. */
export class JournalBudgetError extends EntropicError {
  override readonly name = "JournalBudgetError";
  constructor(readonly budgetBytes: number) {
    super("journal", `the run's journal reached its budget of ${formatBytes(budgetBytes)} (ENTROPIC_JOURNAL_BUDGET_MB)`);
  }
}

function formatBytes(bytes: number): string {
  return bytes >= 1024 * 1024 ? `${Math.round((bytes / 1024 / 1024) * 10) / 10} MB` : `${bytes} bytes`;
}

/**
 * Appends an assessment log to disk as it happens: the header first, each episode as it ends,
 * the footer last. `append` resolves only once the line is on disk (fsync), so an episode that
 * was reported is never lost to a crash. Lines that finish together share one fsync.
 *
 * A write that fails (ENOSPC) leaves the file as it was before the failed lines, cut back to the
 * last whole line, and the journal refuses every later line with the same error: what is on disk
 * is always whole lines that were reported, so the run resumes from it once the disk has room.
 * A journal with a byte budget refuses the line that would take the file past it the same way
 * (the error's cause a JournalBudgetError): one run cannot fill the disk for the others.
 */
export class Journal {
  private pending: { value: LogHeader | EpisodeRecord | LogFooter; done: () => void; failed: (error: Error) => void }[] = [];
  private flushing: Promise<void> | undefined;
  private closed = false;
  /** The first write error: the journal takes no more lines after it. */
  private broken: JournalWriteError | undefined;

  private constructor(
    readonly path: string,
    private readonly file: FileHandle,
    /** Bytes of whole, durable lines: where the file is cut back to after a failed write. */
    private size: number,
    /** Bytes the file may reach (its earlier attempts' lines included). */
    readonly budgetBytes: number,
  ) {}

  /** Bytes written since the last durable line (the lines of the batch being written). */
  private unsynced = 0;

  /** Starts a new journal (`wx`: never over another run's file) or continues one (`a`), with a byte budget (none by default). */
  static async open(path: string, mode: "new" | "continue", options: { budgetBytes?: number } = {}): Promise<Journal> {
    if (mode === "continue") await dropTornLine(path);
    const file = await open(path, mode === "new" ? "wx" : "a");
    return new Journal(path, file, mode === "new" ? 0 : (await file.stat()).size, options.budgetBytes ?? Number.POSITIVE_INFINITY);
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
    if (this.broken) return Promise.reject(this.broken);
    if (this.closed) return Promise.reject(new Error(`the journal ${this.path} is closed`));
    return new Promise((done, failed) => {
      this.pending.push({ value, done, failed });
      this.flushing ??= this.flush();
    });
  }

  /** Lines in pieces (see json-pieces.ts), gathered into writes of about PIECE_CHARS characters; returns the bytes written. */
  private async writeLines(values: readonly (LogHeader | EpisodeRecord | LogFooter)[]): Promise<number> {
    let text = "";
    let written = 0;
    for (const value of values) {
      for (const piece of jsonPieces(value)) {
        text += piece;
        if (text.length >= PIECE_CHARS) {
          written += await this.writeAll(text);
          text = "";
        }
      }
      text += "\n";
    }
    return written + (await this.writeAll(text));
  }

  /** A write can be short (a disk that is filling up takes part of it): the rest is written, or its error thrown. */
  private async writeAll(text: string): Promise<number> {
    const bytes = Buffer.from(text, "utf8");
    if (this.size + this.unsynced + bytes.length > this.budgetBytes) throw new JournalBudgetError(this.budgetBytes);
    this.unsynced += bytes.length;
    for (let offset = 0; offset < bytes.length; ) offset += (await this.file.write(bytes, offset, bytes.length - offset, null)).bytesWritten;
    return bytes.length;
  }

  private async flush(): Promise<void> {
    while (this.pending.length > 0) {
      const batch = this.pending.splice(0);
      if (this.broken) {
        for (const entry of batch) entry.failed(this.broken);
        continue;
      }
      this.unsynced = 0;
      try {
        const written = await this.writeLines(batch.map((entry) => entry.value));
        await this.file.sync();
        this.size += written;
        for (const entry of batch) entry.done();
      } catch (error) {
        this.broken = new JournalWriteError(this.path, error);
        // Cutting a file frees its space, so this works on a full disk; should it not, the cut
        // line is the torn last line a reader drops.
        await this.file.truncate(this.size).catch(() => undefined);
        for (const entry of batch) entry.failed(this.broken);
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

/**
 * Moves lines out of a journal (1-based numbers; lines a reader could not read): they are
 * appended to `<journal>.damaged`, to be looked at, and the journal is rewritten without them (a
 * new file renamed over the old one, so a crash leaves one or the other whole). Returns where
 * the lines went.
 */
export async function setAsideLines(path: string, lineNumbers: readonly number[]): Promise<string> {
  const aside = `${path}.damaged`;
  const drop = new Set(lineNumbers);
  const lines = (await readFile(path, "utf8")).split("\n");
  // The piece after the last newline is empty, or a torn line that a continued journal drops anyway.
  const torn = lines.pop() ?? "";
  const kept = lines.filter((_, i) => !drop.has(i + 1));
  const removed = lines.filter((_, i) => drop.has(i + 1));
  await writeFile(aside, removed.map((line) => `${line}\n`).join(""), { flag: "a", flush: true });
  const rewritten = `${path}.rewrite`;
  await writeFile(rewritten, `${kept.map((line) => `${line}\n`).join("")}${torn}`, { flush: true });
  await rename(rewritten, path);
  return aside;
}
