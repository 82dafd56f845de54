import { addDays, Random } from "../util/index.js";
import { IdFactory, KEY_PREFIXES } from "./ids.js";
import { ORG_COLUMNS, REAL_ROW_COUNTS, type Row } from "./org-schema.js";
import * as V from "./vocabulary.js";

/**
 * What every object family's generator draws with: the org's one random stream (each family draws
 * from it in turn, so the order in which generateOrg calls them is the org), its Ids, its tables.
 */
export interface OrgDraw {
  readonly rng: Random;
  readonly ids: IdFactory;
  /** The tables, every object's present from the start (empty until its family fills it). */
  readonly t: Record<string, Row[]>;
  /** The next Id of `object`. */
  id(object: string): string;
  /** How many rows of `object` the scale asks for, and at least `floor`. */
  count(object: string, floor: number): number;
  /** A first and a last name. */
  personName(): readonly [string, string];
}

/** The draw of one (seed, scale): the stream is seeded `org:<seed>`, and its first number starts the Id sequence. */
export function orgDraw(seed: number | string, scale: number): OrgDraw {
  const rng = new Random(`org:${seed}`);
  const ids = new IdFactory(rng.int(1000, 9000));
  return {
    rng,
    ids,
    t: Object.fromEntries(Object.keys(ORG_COLUMNS).map((name) => [name, []])),
    id: (object) => ids.next(KEY_PREFIXES[object]!),
    count: (object, floor) => Math.max(floor, Math.round(REAL_ROW_COUNTS[object]! * scale)),
    personName: () => [rng.pick(V.FIRST_NAMES), rng.pick(V.LAST_NAMES)] as const,
  };
}

const FIRST_DAY = "2020-01-01";
const DAY_SPAN = 1815;

export function datetime(date: string, rng: Random): string {
  return `${date}T${String(rng.int(8, 18)).padStart(2, "0")}:${String(rng.int(0, 59)).padStart(2, "0")}:${String(rng.int(0, 59)).padStart(2, "0")}.000+0000`;
}

export function randomDay(rng: Random, from = FIRST_DAY, span = DAY_SPAN): string {
  return addDays(from, rng.int(0, span));
}

export function phone(rng: Random): string {
  return `(${rng.int(200, 989)}) ${rng.int(200, 989)}-${String(rng.int(0, 9999)).padStart(4, "0")}`;
}

export function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

export function groupBy(rows: readonly Row[], key: string): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) groups.set(String(row[key]), [...(groups.get(String(row[key])) ?? []), row]);
  return groups;
}
