import { cpus } from "node:os";
import Database from "better-sqlite3";
import { quoteIdent } from "./introspect.js";
import { loadOrgImage } from "./load.js";
import { QueryPool } from "./query-pool.js";
import { DEFAULT_QUERY_LIMITS, type ObjectInfo, type OrgSchema, type QueryLimits, type QueryOutcome } from "./types.js";

/** The hosted CRM org: a read-only schema plus a query engine that never blocks the caller. */
export interface OrgStore {
  readonly schema: OrgSchema;
  readonly source: string;
  /** The serialized database, from which perturbed copies (drift, rot) are derived. */
  readonly image: Buffer;
  readonly options: OpenOrgOptions;
  findObject(name: string): ObjectInfo | undefined;
  /** Every record Id of the org (the values of each object's Id field). */
  recordIds(): ReadonlySet<string>;
  query(sql: string, limits?: Partial<QueryLimits>): Promise<QueryOutcome>;
  close(): Promise<void>;
}

export interface OpenOrgOptions {
  /** Worker threads answering queries; defaults to the number of cores, at most 4. */
  readonly workers?: number;
  readonly limits?: Partial<QueryLimits>;
}

/** An org held in memory, queried through a pool of read-only worker copies. */
export class SqliteOrgStore implements OrgStore {
  private readonly pool: QueryPool;
  private readonly limits: QueryLimits;
  private readonly objectsByLowerName: Map<string, ObjectInfo>;

  constructor(
    readonly schema: OrgSchema,
    readonly source: string,
    /** The serialized database, from which perturbed copies (drift, rot) are derived. */
    readonly image: Buffer,
    readonly options: OpenOrgOptions = {},
  ) {
    this.pool = new QueryPool(image, options.workers ?? Math.min(4, Math.max(1, cpus().length)));
    this.limits = { ...DEFAULT_QUERY_LIMITS, ...options.limits };
    this.objectsByLowerName = new Map(schema.objects.map((object) => [object.name.toLowerCase(), object]));
  }

  findObject(name: string): ObjectInfo | undefined {
    return this.objectsByLowerName.get(name.trim().toLowerCase());
  }

  private ids: Set<string> | undefined;

  recordIds(): ReadonlySet<string> {
    this.ids ??= readRecordIds(this.image, this.schema);
    return this.ids;
  }

  query(sql: string, limits: Partial<QueryLimits> = {}): Promise<QueryOutcome> {
    return this.pool.run(sql, { ...this.limits, ...limits });
  }

  close(): Promise<void> {
    return this.pool.close();
  }
}

/** Opens an org from a CRMArena-Pro SQLite file or a folder of CSV files. */
export function openOrg(path: string, options: OpenOrgOptions = {}): OrgStore {
  const { image, schema, source } = loadOrgImage(path);
  return new SqliteOrgStore(schema, source, image, options);
}

/** The Id values of every object, read once from the image (a few ms for the real org's 29,000 rows). */
function readRecordIds(image: Buffer, schema: OrgSchema): Set<string> {
  const db = new Database(image, { readonly: true });
  try {
    const ids = new Set<string>();
    for (const object of schema.objects) {
      const idField = object.fields.find((field) => field.type === "id");
      if (!idField) continue;
      for (const value of db.prepare(`SELECT ${quoteIdent(idField.name)} FROM ${quoteIdent(object.name)}`).pluck().iterate()) {
        if (typeof value === "string") ids.add(value);
      }
    }
    return ids;
  } finally {
    db.close();
  }
}
