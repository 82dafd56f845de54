import { cpus } from "node:os";
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
