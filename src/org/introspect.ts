import type Database from "better-sqlite3";
import { fieldLabel, SALESFORCE_ID } from "../util/index.js";
import { quoteIdent } from "./quote.js";
import { relationshipNameOf } from "./schema-after.js";
import type { FieldInfo, FieldType, ObjectInfo, OrgSchema } from "./types.js";

/** For a perturbed org: per table, each renamed column's original name (labels and the Id column follow it). */
export type OriginalNames = Readonly<Record<string, Readonly<Record<string, string>>>>;

const DATETIME = /^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}/;
const DATE = /^\d{4}-\d{2}-\d{2}$/;
const SAMPLE_SIZE = 200;

/** Quotes an identifier for SQLite (`Case`, `Order` and `User` are reserved words). */
export { quoteIdent };

export function listTables(db: Database.Database): string[] {
  const rows = db.prepare("SELECT name FROM sqlite_master WHERE type = 'table' AND name NOT LIKE 'sqlite_%' ORDER BY name").all() as { name: string }[];
  return rows.map((row) => row.name);
}

/**
 * Reads the schema from the data itself: columns from SQLite, types from the values,
 * and relationships from Salesforce key prefixes (the first three characters of an Id
 * name its object), so no table or column is hard-coded.
 */
export function introspectSchema(db: Database.Database, originalNames: OriginalNames = {}): OrgSchema {
  const tables = listTables(db);
  const original = (table: string, column: string) => originalNames[table]?.[column] ?? column;
  const idColumn = (table: string) => Object.entries(originalNames[table] ?? {}).find(([, name]) => name === "Id")?.[0] ?? "Id";
  const prefixOwners = new Map<string, string>();
  const keyPrefixes = new Map<string, string | null>();
  for (const table of tables) {
    const prefix = dominantPrefix(db, table, idColumn(table));
    keyPrefixes.set(table, prefix);
    if (prefix && !prefixOwners.has(prefix)) prefixOwners.set(prefix, table);
  }
  const objects: ObjectInfo[] = tables.map((table) => {
    const columns = db.prepare(`PRAGMA table_info(${quoteIdent(table)})`).all() as { name: string }[];
    const rowCount = (db.prepare(`SELECT COUNT(*) AS n FROM ${quoteIdent(table)}`).get() as { n: number }).n;
    const fields = columns.map((column) => inferField(db, table, column.name, original(table, column.name), prefixOwners));
    return { name: table, keyPrefix: keyPrefixes.get(table) ?? null, rowCount, fields };
  });
  return { objects };
}

function sampleValues(db: Database.Database, table: string, column: string): unknown[] {
  const sql = `SELECT ${quoteIdent(column)} AS v FROM ${quoteIdent(table)} WHERE ${quoteIdent(column)} IS NOT NULL LIMIT ${SAMPLE_SIZE}`;
  return (db.prepare(sql).all() as { v: unknown }[]).map((row) => row.v);
}

function dominantPrefix(db: Database.Database, table: string, column: string): string | null {
  const hasColumn = (db.prepare(`PRAGMA table_info(${quoteIdent(table)})`).all() as { name: string }[]).some((c) => c.name === column);
  if (!hasColumn) return null;
  const counts = new Map<string, number>();
  for (const value of sampleValues(db, table, column)) {
    if (typeof value === "string" && SALESFORCE_ID.test(value)) counts.set(value.slice(0, 3), (counts.get(value.slice(0, 3)) ?? 0) + 1);
  }
  let best: string | null = null;
  let bestCount = 0;
  for (const [prefix, count] of counts) {
    if (count > bestCount) [best, bestCount] = [prefix, count];
  }
  return best;
}

function inferField(db: Database.Database, table: string, column: string, originalName: string, prefixOwners: Map<string, string>): FieldInfo {
  const values = sampleValues(db, table, column);
  const nullCount = (db.prepare(`SELECT COUNT(*) AS n FROM ${quoteIdent(table)} WHERE ${quoteIdent(column)} IS NULL`).get() as { n: number }).n;
  const nullable = nullCount > 0 || values.length === 0;
  const label = fieldLabel(originalName);
  if (originalName === "Id") return { name: column, label, type: "id", references: [], nullable: false };
  const references = referencedObjects(values, prefixOwners);
  if (references.length > 0) {
    // SOQL walks a lookup as X for XId and X__r for X__c; a field holding several Ids (ToIds) is no lookup.
    const walkable = /Id$/.test(column) || column.endsWith("__c");
    return { name: column, label, type: "reference", references, nullable, ...(walkable ? { relationshipName: relationshipNameOf(column) } : {}) };
  }
  return { name: column, label, type: inferScalarType(originalName, values), references: [], nullable };
}

function referencedObjects(values: unknown[], prefixOwners: Map<string, string>): string[] {
  const strings = values.filter((value): value is string => typeof value === "string");
  if (strings.length === 0 || strings.length < values.length) return [];
  const targets = new Set<string>();
  for (const value of strings) {
    // Several comma-separated Ids (EmailMessage.ToIds) still make a reference field.
    for (const part of value.split(/[,;]\s*/)) {
      const owner = SALESFORCE_ID.test(part) ? prefixOwners.get(part.slice(0, 3)) : undefined;
      if (!owner) return [];
      targets.add(owner);
    }
  }
  return [...targets].sort();
}

function inferScalarType(column: string, values: unknown[]): FieldType {
  if (values.length === 0) return "string";
  if (values.every((value) => typeof value === "number")) {
    const integral = values.every((value) => Number.isInteger(value));
    if (integral && /^Is[A-Z]/.test(column) && values.every((value) => value === 0 || value === 1)) return "boolean";
    return integral ? "int" : "double";
  }
  if (values.every((value) => typeof value === "string" && DATETIME.test(value))) return "datetime";
  if (values.every((value) => typeof value === "string" && DATE.test(value))) return "date";
  if (values.every((value) => value === "True" || value === "False" || value === "true" || value === "false")) return "boolean";
  return "string";
}
