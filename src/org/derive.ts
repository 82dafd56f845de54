import Database from "better-sqlite3";
import { type IdRemap, recordKey } from "../util/id-remap.js";
import type { FieldSpec, OrgChange } from "./changes.js";
import { COPY, isPlainOrg, openCopy, type ReadForCopies, readForCopies, writeCopy } from "./derive-remap.js";
import { quoteIdent } from "./quote.js";
import { schemaAfter } from "./schema-after.js";
import type { OrgSchema } from "./types.js";

/**
 * How a SQLite org's copy is made: the plan's changes, the Id remap and the Id order in one
 * transaction on a copy of the image. Plain functions of an image, so the same SQL runs in the
 * thread that derives copies off the event loop (derive-worker.ts) and, for tests, in this one.
 */

/**
 * A derived copy: its image, its records' keys (`canonicalId` of each record Id, the Id itself
 * when it is none: what the view compares Ids by) and its latest date, found while the copy is
 * open anyway.
 */
export interface DerivedImage {
  readonly image: Uint8Array;
  readonly keys: readonly string[];
  readonly today: string;
}

export function deriveImage(image: Uint8Array, schema: OrgSchema, changes: readonly OrgChange[], remap?: IdRemap): DerivedImage {
  // Records are kept in Id order, as an org returns them when a query names no order:
  // records a change added sit among the real ones, not after them, and new Ids reorder all.
  const changed = remap ? ChangedOrg.open(image, schema, changes) : undefined;
  if (changed && remap) {
    try {
      return changed.copy(remap);
    } finally {
      changed.close();
    }
  }
  const after = schemaAfter(schema, changes);
  const db = new Database(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
  try {
    db.transaction(() => {
      for (const change of changes) applyChange(db, schema, change);
      if (remap) remapIdsInPlace(db, after, remap);
      const reordered = remap ? after.objects.map((object) => object.name) : changes.filter((change) => change.op === "insert_records").map((change) => change.object);
      for (const object of new Set(reordered)) storeInIdOrder(db, after, object);
    })();
    return { image: db.serialize(), keys: [...readRecordIdsFrom(db, after)].map(recordKey), today: latestDate(db, after) };
  } finally {
    db.close();
  }
}

/**
 * A plain org (`isPlainOrg`) with a plan's changes applied, kept open for remapped copies of it:
 * each `copy` is what `deriveImage` gives for these changes and that remap, byte for byte. The
 * derive thread keeps one for the next request (derive-worker.ts), whose changes are often the
 * same (a level that adds no records gives every seed the same changes): only the remap is new.
 */
export class ChangedOrg {
  private constructor(
    private readonly db: Database.Database,
    private readonly read: ReadForCopies,
    private readonly today: string,
  ) {}

  /** The org with the changes applied and read for copies; undefined for an org that is not only tables. */
  static open(image: Uint8Array, schema: OrgSchema, changes: readonly OrgChange[]): ChangedOrg | undefined {
    const db = new Database(Buffer.from(image.buffer, image.byteOffset, image.byteLength));
    try {
      if (!isPlainOrg(db, schema)) {
        db.close();
        return undefined;
      }
      const after = schemaAfter(schema, changes);
      db.transaction(() => {
        for (const change of changes) applyChange(db, schema, change);
      })();
      // The dates are no Ids: the changed org has every copy's.
      return new ChangedOrg(db, readForCopies(db, after), latestDate(db, after));
    } catch (error) {
      db.close();
      throw error;
    }
  }

  /** A copy through a remap, written to a database of its own that is dropped once serialized. */
  copy(remap: IdRemap): DerivedImage {
    openCopy(this.db);
    try {
      const keys = this.db.transaction(() => writeCopy(this.db, this.read, remap))();
      return { image: this.db.serialize({ attached: COPY }), keys, today: this.today };
    } finally {
      this.db.exec(`DETACH DATABASE ${COPY}`);
    }
  }

  close(): void {
    this.db.close();
  }
}

/** The org's own "today": its latest date in any date or datetime field (1970-01-01 when none). */
export function latestDate(db: Database.Database, schema: OrgSchema): string {
  let latest = "1970-01-01";
  for (const object of schema.objects) {
    for (const field of object.fields.filter((candidate) => candidate.type === "date" || candidate.type === "datetime")) {
      const value = db
        .prepare(`SELECT MAX(substr(${quoteIdent(field.name)}, 1, 10)) FROM ${quoteIdent(object.name)}`)
        .pluck()
        .get();
      if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) && value > latest) latest = value;
    }
  }
  return latest;
}

/**
 * Every record Id of an org that is not only tables (derive-remap.ts's copy is for those)
 * through the remap, in place, a SQL function called for each value: the Id and lookup fields of
 * every object, and the Ids that text fields mention. Values that are not Ids (null, 'None', free
 * text without one) stay as they are.
 */
function remapIdsInPlace(db: Database.Database, schema: OrgSchema, remap: IdRemap): void {
  const known = new Set([...readRecordIdsFrom(db, schema)].map((id) => id.slice(0, 15)));
  remap.assertInjective(known);
  db.function("entropic_remap_id", { deterministic: true }, (value: unknown) => (typeof value === "string" ? remap.id(value) : value));
  db.function("entropic_remap_text", { deterministic: true }, (value: unknown) => (typeof value === "string" ? remap.text(value, known) : value));
  for (const object of schema.objects) {
    const assignments = object.fields.flatMap((field) => {
      const column = quoteIdent(field.name);
      if (field.type === "id" || field.type === "reference") return [`${column} = entropic_remap_id(${column})`];
      if (field.type === "string") return [`${column} = entropic_remap_text(${column})`];
      return [];
    });
    if (assignments.length > 0) db.exec(`UPDATE ${quoteIdent(object.name)} SET ${assignments.join(", ")}`);
  }
}

/** Rebuilds a table with its rows in Id order (same columns and types; the old table is dropped). */
function storeInIdOrder(db: Database.Database, schema: OrgSchema, object: string): void {
  const idField = schema.objects.find((candidate) => candidate.name === object)?.fields.find((field) => field.type === "id")?.name ?? "Id";
  const ddl = (db.prepare("SELECT sql FROM sqlite_master WHERE type = 'table' AND name = ?").pluck().get(object) as string | undefined) ?? "";
  const staging = `${object}__ordered`;
  const create = ddl.replace(/^CREATE TABLE\s+("(?:[^"]|"")*"|\S+)/i, `CREATE TABLE ${quoteIdent(staging)}`);
  if (create === ddl) throw new Error(`cannot read the definition of table ${object}`);
  db.exec(create);
  db.exec(`INSERT INTO ${quoteIdent(staging)} SELECT * FROM ${quoteIdent(object)} ORDER BY ${quoteIdent(idField)}`);
  db.exec(`DROP TABLE ${quoteIdent(object)}`);
  db.exec(`ALTER TABLE ${quoteIdent(staging)} RENAME TO ${quoteIdent(object)}`);
}

const SQL_TYPE: Record<FieldSpec["type"], string> = {
  id: "TEXT",
  reference: "TEXT",
  string: "TEXT",
  date: "TEXT",
  datetime: "TEXT",
  int: "INTEGER",
  double: "REAL",
  boolean: "INTEGER",
};

/** One change in SQLite's terms, on the backend's own copy. */
function applyChange(db: Database.Database, schema: OrgSchema, change: OrgChange): void {
  const table = quoteIdent(change.object);
  switch (change.op) {
    case "add_field": {
      const fill = change.value === null ? "" : ` NOT NULL DEFAULT ${typeof change.value === "number" ? change.value : `'${change.value.replaceAll("'", "''")}'`}`;
      db.exec(`ALTER TABLE ${table} ADD COLUMN ${quoteIdent(change.field.name)} ${SQL_TYPE[change.field.type]}${fill}`);
      return;
    }
    case "rename_field":
      db.exec(`ALTER TABLE ${table} RENAME COLUMN ${quoteIdent(change.from)} TO ${quoteIdent(change.to)}`);
      return;
    case "copy_field":
      db.exec(`ALTER TABLE ${table} ADD COLUMN ${quoteIdent(change.to)}`);
      db.exec(`UPDATE ${table} SET ${quoteIdent(change.to)} = ${quoteIdent(change.from)}`);
      return;
    case "annotate_field":
      return;
    case "set_values": {
      const idField = schema.objects.find((object) => object.name === change.object)?.fields.find((field) => field.type === "id")?.name ?? "Id";
      const update = db.prepare(`UPDATE ${table} SET ${quoteIdent(change.field)} = ? WHERE ${quoteIdent(idField)} = ?`);
      for (const id of change.ids) update.run(change.value, id);
      return;
    }
    case "insert_records": {
      if (change.records.length === 0) return;
      const columns = [...new Set(change.records.flatMap((record) => Object.keys(record)))];
      const insert = db.prepare(`INSERT INTO ${table} (${columns.map(quoteIdent).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`);
      for (const record of change.records) insert.run(columns.map((column) => record[column] ?? null));
      return;
    }
  }
}

/** The Id values of every object in an open database (a copy being changed, or an image). */
export function readRecordIdsFrom(db: Database.Database, schema: OrgSchema): Set<string> {
  const ids = new Set<string>();
  for (const object of schema.objects) {
    const idField = object.fields.find((field) => field.type === "id");
    if (!idField) continue;
    for (const value of db
      .prepare(`SELECT ${quoteIdent(idField.name)} FROM ${quoteIdent(object.name)}`)
      .pluck()
      .all()) {
      if (typeof value === "string") ids.add(value);
    }
  }
  return ids;
}
