import type { ObjectInfo, SqlRow, SqlValue } from "../../org/index.js";
import type { Random } from "../../util/index.js";
import { addDays, BASE62, caseSafeSuffix, SALESFORCE_ID, WeakMemo } from "../../util/index.js";
import type { Level } from "../kind.js";

/** A share of records (or tasks) per level. */
export type Share = Readonly<Record<Level, number>>;

const DATETIME = /^(\d{4}-\d{2}-\d{2})(T.*)$/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;

/**
 * A fresh 18-character Id unused in the org that looks like its neighbours: the first ten
 * characters of a real Id of the object (key prefix, pod, leading zeros) and five new ones, so it
 * sorts among the real records, as a record created at about the same time would. `like` falls
 * back to the key prefix when the object has no records.
 */
export function newId(prefix: string, rng: Random, taken: Set<string>, like: readonly string[] = []): string {
  const models = modelIds(like, prefix.slice(0, 3));
  for (;;) {
    const head = models.length > 0 ? rng.pick(models).slice(0, 10) : `${prefix.slice(0, 3)}Wt00000`;
    let body = "";
    for (let i = head.length; i < 15; i++) body += BASE62[rng.int(0, 61)];
    const id15 = `${head}${body}`;
    const id = id15 + caseSafeSuffix(id15);
    if (!taken.has(id)) {
      taken.add(id);
      return id;
    }
  }
}

/**
 * The Ids of `like` that can model a new Id with this key prefix, found once per list: the
 * recycle bin asks for thousands of new Ids against one object's list of all its Ids, and
 * filtering it each time made planning a full-size org take seconds on the event loop.
 */
const modelsByList = new WeakMemo<readonly string[], string, readonly string[]>();

function modelIds(like: readonly string[], keyPrefix: string): readonly string[] {
  return modelsByList.get(like, keyPrefix, () => like.filter((id) => SALESFORCE_ID.test(id) && id.startsWith(keyPrefix)));
}

/** A near-duplicate of a real value: numbers moved by up to 30 %, dates by up to 60 days, Ids and text kept. */
export function nearValue(value: SqlValue, rng: Random): SqlValue {
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

/** The object's Id field name. */
export function idFieldOf(object: ObjectInfo): string {
  return object.fields.find((field) => field.type === "id")?.name ?? "Id";
}

/**
 * `count` near-duplicates of the object's records: cloned from records picked by the seed, new
 * Ids with the object's key prefix, values moved a little; lookups keep pointing at real records,
 * so joins find the clones. `extra` sets fields of each clone from its source.
 */
export function nearDuplicates(object: ObjectInfo, rows: readonly SqlRow[], count: number, rng: Random, taken: Set<string>, extra: (source: SqlRow) => SqlRow): SqlRow[] {
  const steps = nearDuplicateSteps(object, rows, count, rng, taken, extra);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/** `nearDuplicates`, pausing after each clone (a full-size org's recycle bin makes thousands). */
export function* nearDuplicateSteps(
  object: ObjectInfo,
  rows: readonly SqlRow[],
  count: number,
  rng: Random,
  taken: Set<string>,
  extra: (source: SqlRow) => SqlRow,
): Generator<void, SqlRow[], void> {
  if (rows.length === 0 || count === 0) return [];
  const idField = idFieldOf(object);
  const prefix = object.keyPrefix ?? String(rows[0]![idField] ?? "a99").slice(0, 3);
  const ids = rows.map((row) => String(row[idField]));
  const clones: SqlRow[] = [];
  for (let made = 0; made < count; made++) {
    const source = rng.pick(rows);
    const clone: SqlRow = {};
    for (const [column, value] of Object.entries(source)) clone[column] = column === idField ? newId(prefix, rng, taken, ids) : nearValue(value, rng);
    clones.push({ ...clone, ...extra(source) });
    yield;
  }
  return clones;
}

/** How many records a share of `total` is: at least one above level none when there are any. */
export function doseOf(share: Share, level: Level, total: number): number {
  if (level === "none" || total === 0) return 0;
  return Math.max(1, Math.round(share[level] * total));
}
