import type { Level } from "../assessment/config.js";
import { addDays } from "../util/dates.js";
import { Random } from "../util/random.js";
import { BASE62, caseSafeSuffix, SALESFORCE_ID } from "../util/salesforce-id.js";

/** Extra (deleted) records per object, as a share of its real records, at each level. */
export const ROT_SHARE: Readonly<Record<Level, number>> = { none: 0, low: 0.1, medium: 0.25, high: 0.4 };
/** Distractor passages added to a task's context at each level. */
export const ROT_PASSAGES: Readonly<Record<Level, number>> = { none: 0, low: 0, medium: 1, high: 2 };

export type RotRow = Record<string, string | number | null>;

const DATETIME = /^(\d{4}-\d{2}-\d{2})(T.*)$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

function newId(prefix: string, rng: Random, taken: Set<string>): string {
  for (;;) {
    let body = "";
    for (let i = 0; i < 10; i++) body += BASE62[rng.int(0, 61)];
    const id15 = `${prefix.slice(0, 3)}Wt${body}`;
    const id = id15 + caseSafeSuffix(id15);
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

/** A near-duplicate of a real value: numbers moved by up to 30 %, dates by up to 60 days, the rest kept. */
function perturb(value: string | number | null, rng: Random): string | number | null {
  if (typeof value === "number") {
    const moved = value * (1 + (rng.float() - 0.5) * 0.6);
    return Number.isInteger(value) ? Math.round(moved) : Math.round(moved * 100) / 100;
  }
  if (typeof value === "string" && !SALESFORCE_ID.test(value)) {
    const shift = rng.int(1, 60) * (rng.chance(0.5) ? 1 : -1);
    if (DATE.test(value)) return addDays(value, shift);
    const datetime = DATETIME.exec(value);
    if (datetime) return `${addDays(datetime[1]!, shift)}${datetime[2]}`;
  }
  return value;
}

/**
 * Distractor records for one object: near-duplicates of real records (cloned, new Ids with the
 * object's key prefix, values plausibly perturbed), each marked `IsDeleted = 1`, Salesforce's
 * recycle-bin flag. Lookups keep pointing at real records, so joins find them. Pure in (seed, level, rows).
 */
export function distractorRecords(object: string, rows: readonly RotRow[], idColumn: string, level: Level, seed: number): RotRow[] {
  if (level === "none" || rows.length === 0) return [];
  const rng = new Random(`rot:${seed}:${level}:${object}`);
  const count = Math.max(1, Math.round(ROT_SHARE[level] * rows.length));
  const taken = new Set(rows.map((row) => String(row[idColumn])));
  const prefix = String(rows[0]![idColumn] ?? "a99").slice(0, 3);
  return Array.from({ length: count }, () => {
    const source = rng.pick(rows);
    const clone: RotRow = {};
    for (const [column, value] of Object.entries(source)) clone[column] = column === idColumn ? newId(prefix, rng, taken) : perturb(value, rng);
    clone.IsDeleted = 1;
    return clone;
  });
}

/**
 * Distractor passages for a task: guidance from other task categories, as additional reference
 * material. Lines that carry a task's specifics (Ids, dates, regions) are dropped, so a passage
 * never contradicts the task's own instructions. Pure in (seed, level, task, guidance).
 */
export function distractorPassages(taskIdx: number, category: string, guidance: ReadonlyMap<string, string>, level: Level, seed: number): string[] {
  const count = ROT_PASSAGES[level];
  if (count === 0) return [];
  const rng = new Random(`passages:${seed}:${level}:${taskIdx}`);
  const others = [...guidance].filter(([other]) => other !== category).sort(([a], [b]) => a.localeCompare(b));
  return rng.sample(others, count).map(([, text]) => text);
}

/** A category's reusable guidance: its required context without the task-specific lines. */
export function guidanceOf(requiredContext: string): string {
  return requiredContext
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => !/Today's date|to be considered|Id interacting|logged in as|region:|[a-zA-Z0-9]{3}Wt[a-zA-Z0-9]{10}/i.test(line))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}
