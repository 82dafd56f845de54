import type { TaskInfo, Tools } from "../server.js";
import { type AnalystWindow, analystWindow } from "./window.js";

/**
 * What the analyst's "which agent had the most/least X in a window" analyses share: reading
 * today's date and the window off the task, which way the question ranks, batched Id lookups,
 * and picking the one agent the ranking names.
 */

type Row = Record<string, unknown>;

/** "Today's date: YYYY-MM-DD" from the task's context (or its text). */
export function taskToday(task: TaskInfo): string | undefined {
  return /Today's date:\s*(\d{4}-\d{2}-\d{2})/i.exec(`${task.requiredContext}\n${task.prompt}`)?.[1];
}

export function taskWindow(task: TaskInfo): AnalystWindow | undefined {
  const today = taskToday(task);
  return today ? analystWindow(task.prompt, today) : undefined;
}

const HIGH = /\b(top|highest|greatest|most|largest|maximum|best|longest|leading|peak|biggest|slowest)\b/i;
const LOW = /\b(lowest|least|smallest|poorest|minimal|minimum|worst|quickest|fastest|shortest|briefest|swiftest|speediest)\b/i;

/** Whether the question wants the highest score ("top", "longest") or the lowest ("least", "quickest"): the first such word decides. */
export function wantsHighest(prompt: string): boolean | undefined {
  const high = HIGH.exec(prompt);
  const low = LOW.exec(prompt);
  if (high && (!low || high.index < low.index)) return true;
  return low ? false : undefined;
}

/** SOQL date literals for a window's days on a date field. */
export const dateIn = (field: string, window: AnalystWindow) => `${field} >= ${window.start} AND ${field} <= ${window.end}`;

/** The same on a datetime field: from the first day's midnight to the end of the last day. */
export const dateTimeIn = (field: string, window: AnalystWindow) => `${field} >= ${window.start}T00:00:00Z AND ${field} <= ${window.end}T23:59:59Z`;

export const dayOf = (value: unknown) => (value === null || value === undefined ? "" : String(value).slice(0, 10));
export const within = (value: unknown, window: AnalystWindow) => {
  const day = dayOf(value);
  return day !== "" && day >= window.start && day <= window.end;
};

/** Rows of `object` whose `field` is one of `ids`, queried in batches so no IN list grows too long. */
export async function rowsWhereIn(tools: Tools, fields: string, object: string, field: string, ids: readonly string[], extra = ""): Promise<Row[]> {
  const unique = [...new Set(ids)];
  const rows: Row[] = [];
  for (let at = 0; at < unique.length; at += 100) {
    const list = unique
      .slice(at, at + 100)
      .map((id) => `'${id}'`)
      .join(", ");
    rows.push(...(await tools.soql(`SELECT ${fields} FROM ${object} WHERE ${field} IN (${list})${extra}`)));
  }
  return rows;
}

/**
 * The agent the ranking names: "None" when there is nothing to rank (no agent scored, or all
 * scored alike); otherwise the best one (on a tie, the first in the org's order, as an analyst
 * reporting one Id would).
 */
export function rankedAgent(scores: ReadonlyMap<string, number>, highest: boolean): string {
  const entries = [...scores];
  if (entries.length === 0 || entries.every(([, value]) => Math.abs(value - entries[0]![1]) < 1e-9)) return "None";
  let best = entries[0]!;
  for (const entry of entries) if (highest ? entry[1] > best[1] + 1e-9 : entry[1] < best[1] - 1e-9) best = entry;
  return best[0];
}
