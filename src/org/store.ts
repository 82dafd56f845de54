import Database from "better-sqlite3";
import type { Capability, QueryContext, ToolOutcome } from "../tools/index.js";
import type { IdRemap } from "../util/index.js";
import type { CopyOptions, OrgBackend } from "./backend.js";
import { type FieldSpec, type OrgChange, schemaAfter } from "./changes.js";
import { quoteIdent } from "./introspect.js";
import { loadOrgImage } from "./load.js";
import { QueryPool, sharedQueryPool } from "./query-pool.js";
import { soqlOutcome, soslOutcome, sqlOutcome } from "./tools.js";
import { DEFAULT_QUERY_LIMITS, type ObjectInfo, type OrgSchema, type OrgStore, type QueryLimits, type QueryOutcome, type SqlRow } from "./types.js";

export type { OrgStore } from "./types.js";

export interface OpenOrgOptions {
  /** Query processes of the org's own pool; without it the org (and its copies) use the process's shared pool. */
  readonly workers?: number;
  readonly limits?: Partial<QueryLimits>;
}

const SQLITE_CAPABILITIES: ReadonlySet<Capability> = new Set(["soql", "sosl", "sql"]);

/** An org held in memory as a SQLite image, queried through a pool of read-only worker copies. */
export class SqliteOrgStore implements OrgStore, OrgBackend {
  readonly capabilities = SQLITE_CAPABILITIES;
  private readonly limits: QueryLimits;
  private readonly objectsByLowerName: Map<string, ObjectInfo>;
  private readonly imageId: number;
  /** Whether this store made its pool (and closes it) or uses one it was given. */
  private readonly ownsPool: boolean;
  private readonly pool: QueryPool;

  constructor(
    readonly schema: OrgSchema,
    readonly source: string,
    /** The serialized database; private, so nothing outside the backend depends on SQLite. */
    private readonly image: Buffer,
    private readonly options: OpenOrgOptions = {},
    pool?: QueryPool,
    /** The assessment this copy serves; the pool shares its processes fairly between owners. */
    owner?: string,
  ) {
    this.ownsPool = pool === undefined && options.workers !== undefined;
    this.pool = pool ?? (options.workers !== undefined ? new QueryPool(options.workers) : sharedQueryPool());
    this.imageId = this.pool.register(image, owner);
    this.limits = { ...DEFAULT_QUERY_LIMITS, ...options.limits };
    this.objectsByLowerName = new Map(schema.objects.map((object) => [object.name.toLowerCase(), object]));
  }

  findObject(name: string): ObjectInfo | undefined {
    return this.objectsByLowerName.get(name.trim().toLowerCase());
  }

  private ids: Set<string> | undefined;

  async recordIds(): Promise<ReadonlySet<string>> {
    this.ids ??= readRecordIds(this.image, this.schema);
    return this.ids;
  }

  query(sql: string, limits: Partial<QueryLimits> = {}): Promise<QueryOutcome> {
    return this.pool.run(this.imageId, sql, { ...this.limits, ...limits });
  }

  /** Releases the image; a store that made its own pool also stops its processes (its copies with them). */
  async close(): Promise<void> {
    this.pool.release(this.imageId);
    if (this.ownsPool) await this.pool.close();
  }

  soql(query: string, context: QueryContext): Promise<ToolOutcome> {
    return soqlOutcome(this, query, context);
  }

  sosl(search: string, context: QueryContext): Promise<ToolOutcome> {
    return soslOutcome(this, search, context);
  }

  async sql(query: string): Promise<ToolOutcome> {
    return sqlOutcome(await this.query(query));
  }

  private latest: string | undefined;

  async today(): Promise<string> {
    if (this.latest === undefined) {
      const db = new Database(this.image, { readonly: true });
      try {
        let latest = "1970-01-01";
        for (const object of this.schema.objects) {
          for (const field of object.fields.filter((candidate) => candidate.type === "date" || candidate.type === "datetime")) {
            const value = db
              .prepare(`SELECT MAX(substr(${quoteIdent(field.name)}, 1, 10)) FROM ${quoteIdent(object.name)}`)
              .pluck()
              .get();
            if (typeof value === "string" && /^\d{4}-\d{2}-\d{2}$/.test(value) && value > latest) latest = value;
          }
        }
        this.latest = latest;
      } finally {
        db.close();
      }
    }
    return this.latest;
  }

  async rows(object: string): Promise<SqlRow[]> {
    const info = this.schema.objects.find((candidate) => candidate.name === object);
    if (!info) throw new Error(`the org has no object ${object}`);
    return this.reader()
      .prepare(`SELECT * FROM ${quoteIdent(info.name)}`)
      .all() as SqlRow[];
  }

  private openReader: Database.Database | undefined;

  /**
   * A read-only database of the image, shared by the reads of one turn of the event loop: the
   * view asks for every object's rows at once, and each would otherwise copy the whole image.
   */
  private reader(): Database.Database {
    if (!this.openReader) {
      const db = new Database(this.image, { readonly: true });
      this.openReader = db;
      setImmediate(() => {
        db.close();
        if (this.openReader === db) this.openReader = undefined;
      });
    }
    return this.openReader;
  }

  /** The copy is made in SQLite itself (changes, remap and Id order in one transaction on a copy of the image). */
  async derive(changes: readonly OrgChange[], source: string, options: CopyOptions = {}): Promise<SqliteOrgStore> {
    const schema = schemaAfter(this.schema, changes);
    const db = new Database(this.image);
    try {
      db.transaction(() => {
        for (const change of changes) applyChange(db, this.schema, change);
        if (options.remap) remapIds(db, schema, options.remap);
        // Records are kept in Id order, as an org returns them when a query names no order:
        // records a change added sit among the real ones, not after them, and new Ids reorder all.
        const reordered = options.remap ? schema.objects.map((object) => object.name) : changes.filter((change) => change.op === "insert_records").map((change) => change.object);
        for (const object of new Set(reordered)) storeInIdOrder(db, schema, object);
      })();
      // The copy queries through the same processes: an assessment costs an image, not a process.
      return new SqliteOrgStore(schema, source, db.serialize(), this.options, this.pool, options.owner);
    } finally {
      db.close();
    }
  }
}

/**
 * Every record Id of the copy through the remap: the Id and lookup fields of every object, and
 * the Ids that text fields mention (descriptions, transcripts, article bodies). Values that are
 * not Ids (null, 'None', free text without one) stay as they are.
 */
function remapIds(db: Database.Database, schema: OrgSchema, remap: IdRemap): void {
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

/** Opens an org from a CRMArena-Pro SQLite file or a folder of CSV files (for the backend factory, `openBackend`, only). */
export function openOrg(path: string, options: OpenOrgOptions = {}): SqliteOrgStore {
  const { image, schema, source } = loadOrgImage(path);
  return new SqliteOrgStore(schema, source, image, options);
}

/** The embedded default: the org in a SQLite image, copies derived in SQLite. */
export const sqliteBackend = {
  name: "sqlite",
  open: async (spec: { readonly location: string; readonly workers?: number | undefined; readonly limits?: Partial<QueryLimits> | undefined }): Promise<OrgBackend> =>
    openOrg(spec.location, { ...(spec.workers !== undefined ? { workers: spec.workers } : {}), ...(spec.limits ? { limits: spec.limits } : {}) }),
};

/** The Id values of every object, read once from the image (a few ms for the real org's 29,000 rows). */
function readRecordIds(image: Buffer, schema: OrgSchema): Set<string> {
  const db = new Database(image, { readonly: true });
  try {
    return readRecordIdsFrom(db, schema);
  } finally {
    db.close();
  }
}

/** The Id values of every object in an open database (a copy being changed, or an image). */
function readRecordIdsFrom(db: Database.Database, schema: OrgSchema): Set<string> {
  const ids = new Set<string>();
  for (const object of schema.objects) {
    const idField = object.fields.find((field) => field.type === "id");
    if (!idField) continue;
    for (const value of db
      .prepare(`SELECT ${quoteIdent(idField.name)} FROM ${quoteIdent(object.name)}`)
      .pluck()
      .iterate()) {
      if (typeof value === "string") ids.add(value);
    }
  }
  return ids;
}
