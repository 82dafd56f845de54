import type Database from "better-sqlite3";
import { canonicalId, type IdRemap } from "../util/id-remap.js";
import { quoteIdent } from "./quote.js";
import type { OrgSchema } from "./types.js";

/**
 * A sandbox refresh of a copy being derived (derive.ts): every record Id through the remap, each
 * table rewritten once in Id order. The Id and lookup fields of every object change, and the Ids
 * that text fields mention (descriptions, transcripts, article bodies); values that are not Ids
 * (null, 'None', numbers, free text without one) stay as they are, and so does every other column.
 *
 * The new values are worked out in JS, once per table and column (the org's Ids enciphered in
 * one call of the cipher), and go back to SQLite as one JSON document per table: the rows are
 * rebuilt by a single INSERT ... SELECT that takes every value it does not change from the old
 * rows, so each keeps its storage class. A SQL function called for every cell, an UPDATE of every
 * row and a second rewrite in a new table to reorder them were most of a request's fixed CPU.
 */
export function remapInIdOrder(db: Database.Database, schema: OrgSchema, remap: IdRemap): string[] {
  const tables = schema.objects.map((object) => readTable(db, object));
  const known = new Set<string>();
  for (const table of tables)
    if (table.idColumn >= 0) for (const row of table.rows) if (typeof row[table.idColumn + 1] === "string") known.add((row[table.idColumn + 1] as string).slice(0, 15));
  // Every Id and lookup value, enciphered in one call before the cells are mapped one by one.
  remap.prepare(idValues(tables));
  remap.assertInjective(known);
  for (const table of tables) rewrite(db, table, remap, known);
  return recordKeys(tables, remap);
}

/**
 * The copy's record keys: `canonicalId` of each new Id, which is its first 15 characters (the
 * remap gives an 18-character Id its own case-safe suffix), or a value that is no Id as it is.
 */
function recordKeys(tables: readonly TableRead[], remap: IdRemap): string[] {
  const keys: string[] = [];
  for (const table of tables) {
    if (table.idColumn < 0) continue;
    for (const row of table.rows) {
      const id = row[table.idColumn + 1];
      if (typeof id !== "string") continue;
      const mapped = remap.id(id);
      keys.push(mapped !== id ? mapped.slice(0, 15) : (canonicalId(id) ?? id));
    }
  }
  return keys;
}

/** A table's columns that the remap changes, and those columns of every row (each row led by its rowid). */
interface TableRead {
  readonly name: string;
  readonly columns: readonly string[];
  readonly idField: string;
  /** The remapped columns: their names and how each is remapped. */
  readonly remapped: readonly { readonly column: string; readonly as: "id" | "text" }[];
  /** Where the Id field is among `remapped` (-1 when it is not). */
  readonly idColumn: number;
  readonly rows: readonly (readonly unknown[])[];
}

function readTable(db: Database.Database, object: OrgSchema["objects"][number]): TableRead {
  const columns = db.prepare("SELECT name FROM pragma_table_info(?)").pluck().all(object.name) as string[];
  const types = new Map(object.fields.map((field) => [field.name, field.type]));
  const remapped = columns.flatMap((column): TableRead["remapped"][number][] => {
    const type = types.get(column);
    if (type === "id" || type === "reference") return [{ column, as: "id" as const }];
    return type === "string" ? [{ column, as: "text" as const }] : [];
  });
  const idField = object.fields.find((field) => field.type === "id")?.name ?? "Id";
  const rows = db
    .prepare(`SELECT ${["rowid", ...remapped.map(({ column }) => quoteIdent(column))].join(", ")} FROM ${quoteIdent(object.name)}`)
    .raw()
    .all() as unknown[][];
  return { name: object.name, columns, idField, remapped, idColumn: remapped.findIndex(({ column, as }) => as === "id" && column === idField), rows };
}

/** Every value of an Id or lookup column, once each. */
function idValues(tables: readonly TableRead[]): Set<string> {
  const values = new Set<string>();
  for (const table of tables)
    for (const [at, { as }] of table.remapped.entries()) {
      if (as !== "id") continue;
      for (const row of table.rows) if (typeof row[at + 1] === "string") values.add(row[at + 1] as string);
    }
  return values;
}

/**
 * Rewrites a table's rows: the old ones copied aside (a temporary table, cheap to make and to
 * drop where a new table in the org's schema made SQLite reparse all of it), the table emptied
 * (its rowids start again at 1, as in a new table) and filled from them in Id order, each value
 * the remap changes taken from the JSON, every other from the old row.
 */
function rewrite(db: Database.Database, table: TableRead, remap: IdRemap, known: ReadonlySet<string>): void {
  const changed = table.rows.map((row) => [
    row[0],
    ...table.remapped.map(({ as }, at) => {
      const value = row[at + 1];
      if (typeof value !== "string") return null;
      const mapped = as === "id" ? remap.id(value) : remap.text(value, known);
      return mapped === value ? null : mapped;
    }),
  ]);
  const name = quoteIdent(table.name);
  // A new table would not have the old one's indexes and triggers.
  for (const { type, name: dependent } of db
    .prepare("SELECT type, name FROM sqlite_master WHERE tbl_name = ? AND type IN ('index', 'trigger') AND sql IS NOT NULL")
    .all(table.name) as { type: string; name: string }[])
    db.exec(`DROP ${type === "index" ? "INDEX" : "TRIGGER"} ${quoteIdent(dependent)}`);
  // The copy keeps each row's rowid as its own, so the rows are joined by their rowids.
  db.exec(`CREATE TEMP TABLE ${OLD_ROWS} AS SELECT * FROM ${name} WHERE 0`);
  db.exec(`INSERT INTO ${OLD_ROWS} (rowid, ${table.columns.map(quoteIdent).join(", ")}) SELECT rowid, * FROM ${name}`);
  db.exec(`DELETE FROM ${name}`);
  const remappedAt = new Map(table.remapped.map(({ column }, at) => [column, at + 1]));
  const values = table.columns.map((column) => {
    const at = remappedAt.get(column);
    const old = `old.${quoteIdent(column)}`;
    return `${at === undefined ? old : `coalesce(new.value ->> ${at}, ${old})`} AS ${quoteIdent(column)}`;
  });
  db.prepare(
    `INSERT INTO ${name} (${table.columns.map(quoteIdent).join(", ")}) SELECT ${values.join(", ")} FROM jsonb_each(jsonb(?)) AS new JOIN ${OLD_ROWS} AS old ON old.rowid = new.value ->> 0 ORDER BY ${quoteIdent(table.idField)}`,
  ).run(JSON.stringify(changed));
  db.exec(`DROP TABLE ${OLD_ROWS}`);
}

const OLD_ROWS = "temp.entropic_old_rows";
