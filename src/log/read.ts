import { open, readFile } from "node:fs/promises";
import { EntropicError, type ErrorDetails, parseOrThrow } from "../util/index.js";
import { type AssessmentLog, type EpisodeRecord, EpisodeRecordSchema, LOG_VERSION, type LogFooter, LogFooterSchema, type LogHeader, LogHeaderSchema } from "./schema.js";
import { migrateV1Footer, migrateV1Header, V1FooterSchema, V1HeaderSchema } from "./v1.js";

/** A log that cannot be read; the message names the file, line and field. */
export class LogError extends EntropicError {
  override readonly name = "LogError";
  constructor(message: string, details?: ErrorDetails) {
    super("data", message, details);
  }
}

/**
 * A journal whose first line never reached the disk whole (the disk was full as the run began):
 * it holds nothing of the run, which counts as not started.
 */
export class NoHeaderError extends LogError {}

/** A line after the header that could not be read (read with `unreadable: "collect"`). */
export interface UnreadableLine {
  /** 1-based. */
  readonly line: number;
  readonly reason: string;
}

/** A log as found on disk: the footer is missing when the run was interrupted. */
export interface StoredLog {
  readonly path: string;
  readonly header: LogHeader;
  readonly episodes: EpisodeRecord[];
  readonly footer: LogFooter | undefined;
  /** Lines skipped as unreadable; only with `unreadable: "collect"`, otherwise such a line is an error. */
  readonly unreadable?: readonly UnreadableLine[];
  /** The layout the file was written in (older ones are migrated on read to the current one). */
  readonly writtenVersion: number;
}

/** A stored log as a whole assessment: one that never finished (a crash, a stop) gets the footer of an interrupted run. */
export function asAssessmentLog(stored: StoredLog): AssessmentLog {
  return {
    header: stored.header,
    episodes: stored.episodes,
    footer: stored.footer ?? { kind: "footer", finishedAt: stored.header.createdAt, wallMs: 0, status: "interrupted", judgeUsage: null },
  };
}

/**
 * Reads a journal. A last line cut short by a crash is dropped (its episode was never reported);
 * any other unreadable line is an error, or with `unreadable: "collect"` (a run resuming: the
 * episode of a damaged line is simply run again) skipped and listed. The header must be readable
 * either way; a journal without a whole first line is a NoHeaderError. An episode written twice
 * (a resumed run that re-ran a task whose line was cut) counts once: the later line wins.
 */
export async function readLog(path: string, options: { readonly unreadable?: "error" | "collect" } = {}): Promise<StoredLog> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new LogError(`cannot read the assessment log ${path}: ${(error as Error).message}`);
  }
  // The last piece is empty after a final newline, or a line cut short by a crash: drop it either way.
  const complete = text.split("\n").slice(0, -1);
  if (complete.length === 0)
    throw new NoHeaderError(`${path} ${text.length === 0 ? "is empty" : "has no whole first line"}: it is not an assessment log (its header was never written whole)`);
  const parse = (line: string, number: number): unknown => {
    try {
      return JSON.parse(line);
    } catch (error) {
      throw new LogError(`${path}:${number} is not JSON (${(error as Error).message})`);
    }
  };
  const first = parse(complete[0]!, 1) as { kind?: unknown; logVersion?: unknown; log_version?: unknown };
  if (first.kind !== "header") throw new LogError(`${path}:1 is not an assessment log header`);
  // Version 1 named its version in snake_case, like the rest of its header.
  const version = first.logVersion ?? first.log_version;
  const reader = READERS.get(version as number);
  if (!reader) throw new LogError(`${path} has log version ${String(version)}; this green agent reads versions ${[...READERS.keys()].join(" and ")}`);
  const header = reader.header(first, path);
  const byPosition = new Map<number, EpisodeRecord>();
  let footer: LogFooter | undefined;
  const unreadable: UnreadableLine[] = [];
  complete.slice(1).forEach((line, i) => {
    try {
      const value = parse(line, i + 2) as { kind?: unknown } | null;
      if (value?.kind === "episode") {
        const record = check(EpisodeRecordSchema, value, path, i + 2);
        byPosition.set(record.position, record);
      } else if (value?.kind === "footer") footer = reader.footer(value, path, i + 2);
      else throw new LogError(`${path}:${i + 2} has unknown kind ${JSON.stringify(value?.kind)}`);
    } catch (error) {
      if (options.unreadable !== "collect" || !(error instanceof LogError)) throw error;
      unreadable.push({ line: i + 2, reason: error.message });
    }
  });
  const episodes = [...byPosition.values()].sort((a, b) => a.position - b.position);
  return { path, header, episodes, footer, writtenVersion: version as number, ...(options.unreadable === "collect" ? { unreadable } : {}) };
}

/** Whether a journal's first line (its header) is whole on disk; read up to it only. */
export async function hasWholeFirstLine(path: string): Promise<boolean> {
  const file = await open(path, "r");
  try {
    const chunk = Buffer.alloc(64 * 1024);
    for (let position = 0; ; ) {
      const { bytesRead } = await file.read(chunk, 0, chunk.length, position);
      if (bytesRead === 0) return false;
      if (chunk.subarray(0, bytesRead).includes(0x0a)) return true;
      position += bytesRead;
    }
  } finally {
    await file.close();
  }
}

/** How each log version's header and footer are read into the current layout (episode lines are the same in both). */
interface VersionReader {
  header(value: unknown, path: string): LogHeader;
  footer(value: unknown, path: string, line: number): LogFooter;
}

const READERS = new Map<number, VersionReader>([
  [
    LOG_VERSION,
    {
      header: (value, path) => check(LogHeaderSchema, value, path, 1),
      footer: (value, path, line) => check(LogFooterSchema, value, path, line),
    },
  ],
  [
    1,
    {
      // Checked as version 1 wrote it, so that an error names the field as it is in the file.
      header: (value, path) => migrateV1Header(check(V1HeaderSchema, value, path, 1)),
      footer: (value, path, line) => migrateV1Footer(check(V1FooterSchema, value, path, line)),
    },
  ],
]);

function check<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } },
  value: unknown,
  path: string,
  line: number,
): T {
  return parseOrThrow(schema, value, (fault) => new LogError(`${path}:${line}: ${fault}`));
}
