import Database from "better-sqlite3";
import type { Capability, QueryContext, ToolOutcome } from "../tools/index.js";
import type { CopyOptions, OrgBackend } from "./backend.js";
import type { OrgChange } from "./changes.js";
import { uniqueNames } from "./columns.js";
import { quoteIdent } from "./introspect.js";
import { applyChanges, type OrgTables } from "./overlay.js";
import { registerSoslMatch } from "./sosl/match.js";
import { leadingKeyword } from "./sql-guard.js";
import { soqlOutcome, soslOutcome } from "./tools.js";
import { DEFAULT_QUERY_LIMITS, type ObjectInfo, type OrgRow, type OrgSchema, type OrgStore, type OrgValue, type QueryLimits, type QueryOutcome } from "./types.js";

/** What a rows backend can answer: SOQL and SOSL. Never raw SQL: it runs in this process, where a runaway query could not be stopped. */
const ROWS_CAPABILITIES: readonly Capability[] = ["soql", "sosl"];

/**
 * An org held as rows in JS. It is the view's copy of a backend that cannot rewrite itself
 * (`materialise`), and a backend of its own for rows that come from elsewhere. SOQL and SOSL
 * run through the same translator as SQLite's org, on a database built in this process from
 * the rows at the first query (each column's affinity from its values, as the CSV loader
 * infers it).
 */
export class RowsBackend implements OrgBackend, OrgStore {
  readonly capabilities: ReadonlySet<Capability>;
  private readonly objectsByLowerName: Map<string, ObjectInfo>;
  private readonly limits: QueryLimits;
  private db: Database.Database | undefined;

  constructor(
    readonly schema: OrgSchema,
    readonly source: string,
    private readonly tables: OrgTables,
    capabilities: Iterable<Capability> = ROWS_CAPABILITIES,
    limits: Partial<QueryLimits> = {},
  ) {
    this.capabilities = new Set([...capabilities].filter((capability) => ROWS_CAPABILITIES.includes(capability)));
    this.objectsByLowerName = new Map(schema.objects.map((object) => [object.name.toLowerCase(), object]));
    this.limits = { ...DEFAULT_QUERY_LIMITS, ...limits };
    for (const object of schema.objects) if (!tables.has(object.name)) throw new Error(`the rows of ${source} have no table ${object.name}`);
  }

  findObject(name: string): ObjectInfo | undefined {
    return this.objectsByLowerName.get(name.trim().toLowerCase());
  }

  async recordIds(): Promise<ReadonlySet<string>> {
    const ids = new Set<string>();
    for (const object of this.schema.objects) {
      const idField = object.fields.find((field) => field.type === "id");
      if (!idField) continue;
      for (const row of this.tables.get(object.name)!) if (typeof row[idField.name] === "string") ids.add(row[idField.name] as string);
    }
    return ids;
  }

  /** The latest date in any date or datetime field (per field its greatest first ten characters, as SQLite's org computes it). */
  async today(): Promise<string> {
    let latest = "1970-01-01";
    for (const object of this.schema.objects) {
      for (const field of object.fields.filter((candidate) => candidate.type === "date" || candidate.type === "datetime")) {
        let greatest: string | undefined;
        for (const row of this.tables.get(object.name)!) {
          const value = row[field.name];
          if (value === null || value === undefined) continue;
          const day = String(value).slice(0, 10);
          if (greatest === undefined || day > greatest) greatest = day;
        }
        if (greatest !== undefined && /^\d{4}-\d{2}-\d{2}$/.test(greatest) && greatest > latest) latest = greatest;
      }
    }
    return latest;
  }

  async rows(object: string): Promise<readonly OrgRow[]> {
    const rows = this.tables.get(object);
    if (!rows || !this.schema.objects.some((candidate) => candidate.name === object)) throw new Error(`the org has no object ${object}`);
    return rows;
  }

  soql(query: string, context: QueryContext): Promise<ToolOutcome> {
    return soqlOutcome(this, query, context);
  }

  sosl(search: string, context: QueryContext): Promise<ToolOutcome> {
    return soslOutcome(this, search, context);
  }

  async sql(): Promise<ToolOutcome> {
    return { ok: false, code: "INVALID_TOOL", message: `${this.source} has no SQL`, elapsedMs: 0 };
  }

  /** The SQL the SOQL and SOSL engines translate to, on the in-process database (SELECT and WITH only, within the limits). */
  async query(sql: string, limits: Partial<QueryLimits> = {}): Promise<QueryOutcome> {
    const started = performance.now();
    const { maxRows, maxBytes } = { ...this.limits, ...limits };
    const elapsedMs = () => performance.now() - started;
    const keyword = leadingKeyword(sql);
    if (keyword !== "SELECT" && keyword !== "WITH") {
      return {
        ok: false,
        code: "READ_ONLY",
        message: `only SELECT or WITH queries are allowed; the org is read-only (got ${keyword || "an empty query"})`,
        elapsedMs: elapsedMs(),
      };
    }
    try {
      const statement = this.database().prepare(sql);
      if (!statement.reader || !statement.readonly)
        return { ok: false, code: "READ_ONLY", message: "only read-only statements that return rows are allowed", elapsedMs: elapsedMs() };
      statement.raw(true);
      const columns = uniqueNames(statement.columns().map((column) => column.name));
      const rows: OrgRow[] = [];
      let bytes = 0;
      let truncated = false;
      for (const raw of statement.iterate() as Iterable<unknown[]>) {
        if (rows.length >= maxRows) {
          truncated = true;
          break;
        }
        const record: OrgRow = {};
        columns.forEach((column, index) => {
          record[column] = toValue(raw[index]);
        });
        bytes += JSON.stringify(record).length;
        if (bytes > maxBytes) {
          truncated = true;
          break;
        }
        rows.push(record);
      }
      return { ok: true, columns, rows, truncated, elapsedMs: elapsedMs() };
    } catch (error) {
      return { ok: false, code: "SQL_ERROR", message: (error as Error).message, elapsedMs: elapsedMs() };
    }
  }

  async close(): Promise<void> {
    this.db?.close();
    this.db = undefined;
  }

  private database(): Database.Database {
    if (this.db) return this.db;
    const db = new Database(":memory:");
    registerSoslMatch(db);
    for (const object of this.schema.objects) {
      const rows = this.tables.get(object.name)!;
      const columns = object.fields.map((field) => field.name);
      db.exec(`CREATE TABLE ${quoteIdent(object.name)} (${columns.map((column) => `${quoteIdent(column)} ${affinityOf(rows, column)}`).join(", ")})`);
      const insert = db.prepare(`INSERT INTO ${quoteIdent(object.name)} (${columns.map(quoteIdent).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`);
      db.transaction(() => {
        for (const row of rows) insert.run(columns.map((column) => row[column] ?? null));
      })();
    }
    db.pragma("query_only = ON");
    this.db = db;
    return db;
  }
}

/** The view's copy of a backend without `derive`: its rows read once, the changes applied in JS. */
export async function materialise(base: OrgBackend, changes: readonly OrgChange[], source: string, options: CopyOptions = {}): Promise<RowsBackend> {
  const tables = new Map(await Promise.all(base.schema.objects.map(async (object) => [object.name, await base.rows(object.name)] as const)));
  const copy = applyChanges(base.schema, tables, changes, options);
  return new RowsBackend(copy.schema, source, copy.tables, base.capabilities);
}

function affinityOf(rows: readonly OrgRow[], column: string): "INTEGER" | "REAL" | "TEXT" {
  const present = rows.map((row) => row[column]).filter((value) => value !== null && value !== undefined);
  if (present.length > 0 && present.every((value) => typeof value === "number" && Number.isSafeInteger(value))) return "INTEGER";
  if (present.length > 0 && present.every((value) => typeof value === "number")) return "REAL";
  return "TEXT";
}

function toValue(value: unknown): OrgValue {
  if (value === null || typeof value === "string" || typeof value === "number") return value;
  if (typeof value === "bigint") return Number(value);
  return String(value);
}
