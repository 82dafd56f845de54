import { readFile } from "node:fs/promises";
import { type AssessmentLog, type EpisodeRecord, EpisodeRecordSchema, LOG_VERSION, type LogFooter, LogFooterSchema, type LogHeader, LogHeaderSchema } from "./schema.js";

/** A log that cannot be read; the message names the file, line and field. */
export class LogError extends Error {
  override readonly name = "LogError";
}

/** A log as found on disk: the footer is missing when the run was interrupted. */
export interface StoredLog {
  readonly path: string;
  readonly header: LogHeader;
  readonly episodes: EpisodeRecord[];
  readonly footer: LogFooter | undefined;
}

/** A stored log as a whole assessment: one that never finished (a crash, a stop) gets the footer of an interrupted run. */
export function asAssessmentLog(stored: StoredLog): AssessmentLog {
  return {
    header: stored.header,
    episodes: stored.episodes,
    footer: stored.footer ?? { kind: "footer", finished_at: stored.header.created_at, wall_ms: 0, status: "interrupted", judge_usage: null },
  };
}

/**
 * Reads a journal. A last line cut short by a crash is dropped (its episode was never reported);
 * any other unreadable line is an error. An episode written twice (a resumed run that re-ran a
 * task whose line was cut) counts once: the later line wins.
 */
export async function readLog(path: string): Promise<StoredLog> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch (error) {
    throw new LogError(`cannot read the assessment log ${path}: ${(error as Error).message}`);
  }
  // The last piece is empty after a final newline, or a line cut short by a crash: drop it either way.
  const complete = text.split("\n").slice(0, -1);
  if (complete.length === 0) throw new LogError(`${path} is empty: it is not an assessment log`);
  const parse = (line: string, number: number): unknown => {
    try {
      return JSON.parse(line);
    } catch (error) {
      throw new LogError(`${path}:${number} is not JSON (${(error as Error).message})`);
    }
  };
  const first = parse(complete[0]!, 1) as { kind?: unknown; log_version?: unknown };
  if (first.kind !== "header") throw new LogError(`${path}:1 is not an assessment log header`);
  if (first.log_version !== LOG_VERSION) throw new LogError(`${path} has log version ${String(first.log_version)}; this green agent reads version ${LOG_VERSION}`);
  const header = check(LogHeaderSchema, first, path, 1);
  const byPosition = new Map<number, EpisodeRecord>();
  let footer: LogFooter | undefined;
  complete.slice(1).forEach((line, i) => {
    const value = parse(line, i + 2) as { kind?: unknown };
    if (value.kind === "episode") {
      const record = check(EpisodeRecordSchema, value, path, i + 2);
      byPosition.set(record.position, record);
    } else if (value.kind === "footer") footer = check(LogFooterSchema, value, path, i + 2);
    else throw new LogError(`${path}:${i + 2} has unknown kind ${JSON.stringify(value.kind)}`);
  });
  const episodes = [...byPosition.values()].sort((a, b) => a.position - b.position);
  return { path, header, episodes, footer };
}

function check<T>(
  schema: { safeParse(value: unknown): { success: true; data: T } | { success: false; error: { issues: { path: PropertyKey[]; message: string }[] } } },
  value: unknown,
  path: string,
  line: number,
): T {
  const parsed = schema.safeParse(value);
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    throw new LogError(`${path}:${line}: field '${issue.path.map(String).join(".")}': ${issue.message}`);
  }
  return parsed.data;
}
