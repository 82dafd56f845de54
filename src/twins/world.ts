import { generateOrg, IdFactory, KEY_PREFIXES, ORG_COLUMNS, type Row, type SampleOrg } from "../sample/index.js";
import type { TwinKey } from "./key.js";

/**
 * The twin org while twins are made: the generated full-size org (the real schema, row counts
 * and value formats) with indexes the answer programs query, and an Id source for the records
 * enrichers add. Answer programs read `tables` through these helpers as a query would: they
 * never consult what the generator planted except where a category's definition says the
 * answer lives in a text the generator wrote (its `facts`).
 */
export class TwinWorld {
  readonly tables: Record<string, Row[]>;
  readonly facts: SampleOrg["facts"];
  private readonly ids: IdFactory;
  private byIdIndex: Map<string, Row> | undefined;
  private readonly groupIndexes = new Map<string, Map<string, Row[]>>();

  constructor(org: SampleOrg) {
    this.tables = Object.fromEntries(Object.keys(ORG_COLUMNS).map((object) => [object, [...(org.tables[object] ?? [])]]));
    this.facts = org.facts;
    // Far past the generator's sequence (it starts below 60,000 and issues under 6,000 per object), so added Ids never collide.
    this.ids = new IdFactory(5_000_000);
  }

  /** A fresh 18-character Id of `object`'s key prefix. */
  newId(object: string): string {
    const prefix = KEY_PREFIXES[object];
    if (!prefix) throw new Error(`twin world: no key prefix for ${object}`);
    return this.ids.next(prefix);
  }

  /** Adds a record (an enricher's); indexes are rebuilt on next use. */
  add(object: string, row: Row): Row {
    const rows = this.tables[object];
    if (!rows) throw new Error(`twin world: no object ${object}`);
    rows.push(row);
    this.byIdIndex = undefined;
    for (const key of this.groupIndexes.keys()) if (key.startsWith(`${object}.`)) this.groupIndexes.delete(key);
    return row;
  }

  rows(object: string): readonly Row[] {
    const rows = this.tables[object];
    if (!rows) throw new Error(`twin world: no object ${object}`);
    return rows;
  }

  byId(id: string | null | undefined): Row | undefined {
    if (!id) return undefined;
    if (!this.byIdIndex) {
      this.byIdIndex = new Map();
      for (const rows of Object.values(this.tables)) for (const row of rows) this.byIdIndex.set(String(row.Id), row);
    }
    return this.byIdIndex.get(id);
  }

  /** The records of `object` whose `field` is `value` (an index built on first use). */
  where(object: string, field: string, value: string | null | undefined): readonly Row[] {
    if (value === null || value === undefined) return [];
    const key = `${object}.${field}`;
    let index = this.groupIndexes.get(key);
    if (!index) {
      index = new Map();
      for (const row of this.rows(object)) {
        const at = row[field];
        if (at === null || at === undefined) continue;
        const list = index.get(String(at));
        if (list) list.push(row);
        else index.set(String(at), [row]);
      }
      this.groupIndexes.set(key, index);
    }
    return index.get(value) ?? [];
  }

  /** The org as the sample writers take it. */
  toOrg(): SampleOrg {
    return { tables: this.tables, facts: this.facts };
  }
}

/** The base of every twin org: the generator at the real database's size (about 29,000 rows), drawn from the set's key. */
export function generateTwinWorld(key: TwinKey, scale = 1): TwinWorld {
  return new TwinWorld(generateOrg(key.seedText(), scale));
}
