import type { IdRemap } from "../util/index.js";
import type { CopyOptions } from "./backend.js";
import type { OrgChange } from "./changes.js";
import { schemaAfter } from "./schema-after.js";
import type { ObjectInfo, OrgRow, OrgSchema } from "./types.js";

/** An org's records, per object, in the order a query that names no order returns them. */
export type OrgTables = ReadonlyMap<string, readonly OrgRow[]>;

const idFieldOf = (object: Pick<ObjectInfo, "fields"> | undefined) => object?.fields.find((field) => field.type === "id")?.name ?? "Id";

/**
 * The records after a list of changes (and a remap), in JS: what SQLite's `derive` does in SQL,
 * for backends that cannot rewrite themselves. Pure: the tables given are not written. Records
 * a change inserts, and every record after a remap, are kept in Id order, as SQLite's copy is.
 */
export function applyChanges(schema: OrgSchema, tables: OrgTables, changes: readonly OrgChange[], options: CopyOptions = {}): { schema: OrgSchema; tables: OrgTables } {
  const after = schemaAfter(schema, changes);
  const work = new Map<string, OrgRow[]>([...tables].map(([name, rows]) => [name, rows.map((row) => ({ ...row }))]));
  const table = (name: string) => {
    const rows = work.get(name);
    if (!rows) throw new Error(`a change names object ${name}, which the org does not have`);
    return rows;
  };
  let current = schema;
  for (const change of changes) {
    const rows = table(change.object);
    switch (change.op) {
      case "add_field":
        for (const row of rows) row[change.field.name] = change.value;
        break;
      case "rename_field":
        work.set(
          change.object,
          rows.map((row) => Object.fromEntries(Object.entries(row).map(([key, value]) => [key === change.from ? change.to : key, value]))),
        );
        break;
      case "copy_field":
        for (const row of rows) row[change.to] = row[change.from] ?? null;
        break;
      case "annotate_field":
        break;
      case "set_values": {
        const idField = idFieldOf(current.objects.find((object) => object.name === change.object));
        const ids = new Set(change.ids);
        for (const row of rows) if (typeof row[idField] === "string" && ids.has(row[idField] as string)) row[change.field] = change.value;
        break;
      }
      case "insert_records": {
        const columns = current.objects.find((object) => object.name === change.object)!.fields.map((field) => field.name);
        for (const record of change.records) {
          const unknown = Object.keys(record).filter((key) => !columns.includes(key));
          if (unknown.length > 0) throw new Error(`records inserted into ${change.object} name fields it does not have: ${unknown.join(", ")}`);
          rows.push(Object.fromEntries(columns.map((column) => [column, record[column] ?? null])));
        }
        break;
      }
    }
    current = schemaAfter(current, [change]);
  }
  if (options.remap) remapRows(after, work, options.remap);
  const reordered = options.remap ? after.objects.map((object) => object.name) : changes.filter((change) => change.op === "insert_records").map((change) => change.object);
  for (const name of new Set(reordered)) {
    const idField = idFieldOf(after.objects.find((object) => object.name === name));
    work.set(name, inIdOrder(table(name), idField));
  }
  return { schema: after, tables: work };
}

/** SQLite's ORDER BY on a text column: nulls first, then by code unit; stable for ties. */
function inIdOrder(rows: readonly OrgRow[], idField: string): OrgRow[] {
  const key = (row: OrgRow) => row[idField] ?? null;
  return [...rows].sort((a, b) => {
    const [x, y] = [key(a), key(b)];
    if (x === y) return 0;
    if (x === null) return -1;
    if (y === null) return 1;
    if (typeof x === "number" && typeof y === "string") return -1;
    if (typeof x === "string" && typeof y === "number") return 1;
    return x < y ? -1 : 1;
  });
}

/** Every record Id through the remap: Id and lookup fields, and the Ids that text fields mention. */
function remapRows(schema: OrgSchema, tables: Map<string, OrgRow[]>, remap: IdRemap): void {
  const known = new Set<string>();
  for (const object of schema.objects) {
    const idField = object.fields.find((field) => field.type === "id");
    if (!idField) continue;
    for (const row of tables.get(object.name) ?? []) {
      const value = row[idField.name];
      if (typeof value === "string") known.add(value.slice(0, 15));
    }
  }
  remap.assertInjective(known);
  for (const object of schema.objects) {
    const ids = object.fields.filter((field) => field.type === "id" || field.type === "reference").map((field) => field.name);
    const texts = object.fields.filter((field) => field.type === "string").map((field) => field.name);
    for (const row of tables.get(object.name) ?? []) {
      for (const field of ids) if (typeof row[field] === "string") row[field] = remap.id(row[field] as string);
      for (const field of texts) if (typeof row[field] === "string") row[field] = remap.text(row[field] as string, known);
    }
  }
}
