import type Database from "better-sqlite3";
import { type IdRemap, recordKey, replaceIdTokens } from "../util/id-remap.js";
import { quoteIdent } from "./quote.js";
import type { OrgSchema } from "./types.js";

/**
 * A sandbox refresh of a copy being derived (derive.ts): every record Id through the remap, and
 * each table written once, in Id order, to a new database that becomes the copy. The Id and
 * lookup fields of every object change, and the Ids that text fields mention (descriptions,
 * transcripts, article bodies); values that are not Ids (null, 'None', numbers, free text without
 * one) stay as they are, and so does every other column.
 *
 * The new values are worked out in JS, once per table and column (the org's Ids enciphered in
 * one call of the cipher), and go to SQLite as one JSONB document per table: each table of the
 * copy is filled by a single INSERT ... SELECT that takes every value it does not change from the
 * changed org's row, so each keeps its storage class. A SQL function called for every cell, an
 * UPDATE of every row and then a new table per object to reorder them (each rename making SQLite
 * parse the whole schema again) were most of a request's fixed CPU.
 *
 * The copy is what the rebuild in place gave: its tables defined as the changed org's, made in
 * the schema's order, rows numbered from 1 in Id order. `isPlainOrg` says when that holds (an org
 * of tables only: a view, an index or SQLite's own tables would be kept, or dropped, by the
 * rebuild in place, which derive.ts then does).
 */
/**
 * What every copy of a changed org needs and the remap's key does not change: its tables' Id,
 * lookup and text columns, their distinct Id values and the records' Ids. Read once, it serves
 * any number of copies (derive-worker.ts keeps it for the next request's).
 */
export interface ReadForCopies {
  readonly tables: readonly TableRead[];
  readonly idValues: ReadonlySet<string>;
  readonly recordIds: readonly string[];
  /** The records' Ids by their first 15 characters (the Ids a text may name in that form). */
  readonly known: ReadonlySet<string>;
}

export function readForCopies(db: Database.Database, schema: OrgSchema): ReadForCopies {
  const definitions = tableDefinitions(db);
  const tables = schema.objects.map((object) => readTable(db, object, definitions));
  const recordIds: string[] = [];
  for (const table of tables)
    if (table.idColumn >= 0) for (const row of table.rows) if (typeof row[table.idColumn + 1] === "string") recordIds.push(row[table.idColumn + 1] as string);
  return { tables, idValues: idValues(tables), recordIds, known: new Set(recordIds.map((id) => id.slice(0, 15))) };
}

/** Writes the copy's tables (to the attached COPY, in a transaction the caller holds) and returns its records' keys. */
export function writeCopy(db: Database.Database, read: ReadForCopies, remap: IdRemap): string[] {
  // Every Id and lookup value, enciphered in one call before the cells are mapped one by one.
  const answers = remap.answers(read.idValues);
  // The records' Ids as written: the same check as of their first 15 characters.
  remap.assertInjective(read.recordIds, answers);
  const newId = (value: string) => answers.get(value) ?? remap.id(value);
  for (const table of read.tables) write(db, table, newId, (value) => remap.text(value, read.known));
  return recordKeys(read.tables, newId);
}

/** The database the copy is written to (attached to the changed org's; `openCopy`). */
export const COPY = "entropic_copy";

/**
 * Attaches the empty database the copy is written to, with the org's page size and header
 * values (outside a transaction, where SQLite allows an ATTACH).
 */
export function openCopy(db: Database.Database): void {
  db.exec(`ATTACH DATABASE ':memory:' AS ${COPY}`);
  for (const pragma of ["page_size", "auto_vacuum", "user_version", "application_id"]) {
    const value = Number(db.pragma(`main.${pragma}`, { simple: true }));
    db.pragma(`${COPY}.${pragma} = ${value}`);
  }
}

/** Whether an org is tables only, each an object of the schema (its copies are then made by `writeCopy`). */
export function isPlainOrg(db: Database.Database, schema: OrgSchema): boolean {
  const objects = new Set(schema.objects.map((object) => object.name));
  const entries = db.prepare("SELECT type, name FROM main.sqlite_master").all() as { type: string; name: string }[];
  return entries.length === objects.size && entries.every((entry) => entry.type === "table" && objects.has(entry.name));
}

/**
 * The copy's record keys: `canonicalId` of each new Id, which is its first 15 characters (the
 * remap gives an 18-character Id its own case-safe suffix), or a value that is no Id as it is.
 */
function recordKeys(tables: readonly TableRead[], newId: (id: string) => string): string[] {
  const keys: string[] = [];
  for (const table of tables) {
    if (table.idColumn < 0) continue;
    for (const row of table.rows) {
      const id = row[table.idColumn + 1];
      if (typeof id !== "string") continue;
      const mapped = newId(id);
      keys.push(mapped !== id ? mapped.slice(0, 15) : recordKey(id));
    }
  }
  return keys;
}

/** A table's columns that the remap changes, and those columns of every row (each row led by its rowid). */
interface TableRead {
  readonly name: string;
  /** Its CREATE TABLE statement, as the changed org has it. */
  readonly ddl: string;
  readonly columns: readonly string[];
  readonly idField: string;
  /** The remapped columns: their names and how each is remapped. */
  readonly remapped: readonly { readonly column: string; readonly as: "id" | "text" }[];
  /** Where the Id field is among `remapped` (-1 when it is not). */
  readonly idColumn: number;
  readonly rows: readonly (readonly unknown[])[];
}

/** Each table's definition and columns (in their order), from one query rather than two per table. */
function tableDefinitions(db: Database.Database): Map<string, { readonly ddl: string; readonly columns: string[] }> {
  const definitions = new Map<string, { ddl: string; columns: string[] }>();
  const rows = db
    .prepare("SELECT m.name, m.sql, c.name FROM main.sqlite_master AS m JOIN pragma_table_info(m.name, 'main') AS c WHERE m.type = 'table' ORDER BY m.name, c.cid")
    .raw()
    .all() as [string, string, string][];
  for (const [table, ddl, column] of rows) {
    const definition = definitions.get(table) ?? { ddl, columns: [] };
    definition.columns.push(column);
    definitions.set(table, definition);
  }
  return definitions;
}

function readTable(db: Database.Database, object: OrgSchema["objects"][number], definitions: ReturnType<typeof tableDefinitions>): TableRead {
  const definition = definitions.get(object.name);
  if (!definition) throw new Error(`cannot read the definition of table ${object.name}`);
  const columns = definition.columns;
  const types = new Map(object.fields.map((field) => [field.name, field.type]));
  const remapped = columns.flatMap((column): TableRead["remapped"][number][] => {
    const type = types.get(column);
    if (type === "id" || type === "reference") return [{ column, as: "id" as const }];
    return type === "string" ? [{ column, as: "text" as const }] : [];
  });
  const idField = object.fields.find((field) => field.type === "id")?.name ?? "Id";
  const rows = db
    .prepare(`SELECT ${["rowid", ...remapped.map(({ column }) => quoteIdent(column))].join(", ")} FROM main.${quoteIdent(object.name)}`)
    .raw()
    .all() as unknown[][];
  // A text with no token of an Id's shape is the same through any remap: it is not kept (it is
  // most of a table's text, held for as long as the derive thread keeps the org).
  const texts = remapped.flatMap(({ as }, at) => (as === "text" ? [at + 1] : []));
  for (const row of rows) for (const at of texts) if (typeof row[at] === "string" && !hasIdToken(row[at] as string)) row[at] = null;
  return { name: object.name, ddl: definition.ddl, columns, idField, remapped, idColumn: remapped.findIndex(({ column, as }) => as === "id" && column === idField), rows };
}

/** Whether a text has a token `IdRemap.text` may change (15 or 18 letters and digits, a digit among them). */
function hasIdToken(text: string): boolean {
  let found = false;
  replaceIdTokens(text, (token) => {
    found = true;
    return token;
  });
  return found;
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
 * Writes a table of the copy: defined as the changed org's (its name put back as a rebuild's
 * rename spells it) and filled in Id order, each value the remap changes taken from the JSONB,
 * every other from the changed org's row.
 */
function write(db: Database.Database, table: TableRead, newId: (id: string) => string, newText: (text: string) => string): void {
  const mapped = table.rows.map((row) =>
    table.remapped.map(({ as }, at) => {
      const value = row[at + 1];
      if (typeof value !== "string") return null;
      const next = as === "id" ? newId(value) : newText(value);
      return next === value ? null : next;
    }),
  );
  // Only the columns with a value that changed go to SQLite (most text columns name no Id).
  const changing = table.remapped.flatMap((_, at) => (mapped.some((values) => values[at] !== null) ? [at] : []));
  const document = JSON.stringify(table.rows.map((row, i) => [row[0], ...changing.map((at) => mapped[i]![at])]));
  const name = quoteIdent(table.name);
  const ddl = table.ddl;
  const create = ddl.replace(/^CREATE TABLE\s+("(?:[^"]|"")*"|\S+)/i, `CREATE TABLE ${COPY}.${name}`);
  if (create === ddl) throw new Error(`cannot read the definition of table ${table.name}`);
  db.exec(create);
  const changingAt = new Map(changing.map((at, place) => [table.remapped[at]!.column, place + 1]));
  const values = table.columns.map((column) => {
    const at = changingAt.get(column);
    const old = `old.${quoteIdent(column)}`;
    return `${at === undefined ? old : `coalesce(new.value ->> ${at}, ${old})`} AS ${quoteIdent(column)}`;
  });
  db.prepare(
    `INSERT INTO ${COPY}.${name} (${table.columns.map(quoteIdent).join(", ")}) SELECT ${values.join(", ")} FROM jsonb_each(jsonb(?)) AS new JOIN main.${name} AS old ON old.rowid = new.value ->> 0 ORDER BY ${quoteIdent(table.idField)}`,
  ).run(document);
}
