import { numberWordValue } from "../../util/index.js";
import type { TaskInfo, Tools } from "../server.js";
import { type AnalystWindow, analystWindow } from "./window.js";

/**
 * What the analyst's service analyses share (cases, their history, agents): the task's today and
 * window as the text states them, and SOQL conditions and arithmetic over the rows it reads.
 */

export type Row = Record<string, unknown>;

export function todayOf(task: TaskInfo): string {
  const match = /Today's date:\s*(\d{4}-\d{2}-\d{2})/.exec(`${task.requiredContext}\n${task.prompt}`);
  if (!match) throw new Error("the task gives no today's date");
  return match[1] as string;
}

export function windowOf(task: TaskInfo): AnalystWindow {
  const window = analystWindow(task.prompt, todayOf(task));
  if (!window) throw new Error("the task names no time window the analyst can read");
  return window;
}

const nextDay = (day: string) => new Date(Date.parse(`${day}T00:00:00Z`) + 86_400_000).toISOString().slice(0, 10);

/** A SOQL condition on a datetime field: inside the window's days, both ends inclusive. */
export const withinWindow = (field: string, window: AnalystWindow) => `${field} >= ${window.start}T00:00:00Z AND ${field} < ${nextDay(window.end)}T00:00:00Z`;

export const nested = (row: Row, path: string) => path.split(".").reduce<unknown>((value, key) => (value as Row | null | undefined)?.[key], row);

export const daysBetween = (from: unknown, to: unknown) => (Date.parse(`${String(to).slice(0, 19)}Z`) - Date.parse(`${String(from).slice(0, 19)}Z`)) / 86_400_000;

/** The key with the best value; the first seen on a tie. */
export function bestOf(values: ReadonlyMap<string, number>, highest: boolean): string | undefined {
  let best: [string, number] | undefined;
  for (const entry of values) if (!best || (highest ? entry[1] > best[1] : entry[1] < best[1])) best = entry;
  return best?.[0];
}

/** "highest/longest/most" against "lowest/shortest/quickest/fewest": whichever the question says first. */
export function wantsHighest(prompt: string): boolean {
  const text = prompt.toLowerCase();
  const high = text.search(/\b(highest|longest|maximum|slowest|most|greatest|largest|top)\b/);
  const low = text.search(/\b(lowest|shortest|minimum|quickest|fastest|smallest|least|fewest)\b/);
  if (high >= 0 && low >= 0) return high < low;
  return high >= 0;
}

/**
 * The "managed more than N cases" filter as the number an agent's cases must exceed ("managed
 * cases" alone: at least one; "a case handle count above 3": more than three).
 */
export function minimumCasesExceeded(prompt: string): number {
  const match =
    /\b(more than|over|above|greater than|at least)\s+(\d+|zero|one|two|three|four|five|six|seven|eight|nine|ten)\s+(?:\w+\s+)?cases?\b/i.exec(prompt) ??
    /\bhandle count\s+(more than|over|above|greater than|exceeding|of at least)\s+(\d+|zero|one|two|three|four|five|six|seven|eight|nine|ten)\b/i.exec(prompt);
  if (!match) return /\bmultiple cases\b/i.test(prompt) ? 1 : 0;
  const word = (match[2] as string).toLowerCase();
  const value = /^\d+$/.test(word) ? Number(word) : (numberWordValue(word) ?? -1);
  return /at least$/i.test(match[1] ?? "") ? value - 1 : value;
}

/** Owner Assignment history dated in the window: who was given which case, and by whom. */
export function ownerAssignments(tools: Tools, window: AnalystWindow): Promise<Row[]> {
  return tools.soql(`SELECT CaseId__c, OldValue__c, NewValue__c FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' AND ${withinWindow("CreatedDate", window)}`);
}

/** Per agent, how many distinct cases were assigned to them (first owner or transferred to). */
export function casesManaged(assignments: readonly Row[]): Map<string, number> {
  const cases = new Map<string, Set<string>>();
  for (const row of assignments) {
    if (!row.NewValue__c) continue;
    const agent = String(row.NewValue__c);
    cases.set(agent, (cases.get(agent) ?? new Set()).add(String(row.CaseId__c)));
  }
  return new Map([...cases].map(([agent, set]) => [agent, set.size]));
}

export function productIdOf(task: TaskInfo): string {
  const match = /product Id is\s+([A-Za-z0-9]{15,18})/i.exec(task.prompt);
  if (!match) throw new Error("the task gives no product Id");
  return match[1] as string;
}
