import Database from "better-sqlite3";
import type { Capability, QueryContext, ToolOutcome } from "../tools/index.js";
import { recordKey } from "../util/index.js";
import type { CopyOptions, OrgBackend } from "./backend.js";
import type { OrgChange } from "./changes.js";
import { latestDate, readRecordIdsFrom } from "./derive.js";
import { deriveInWorker } from "./derive-thread.js";
import { quoteIdent } from "./introspect.js";
import { loadOrgImage } from "./load.js";
import { QueryPool, sharedQueryPool } from "./query-pool.js";
import { schemaAfter } from "./schema-after.js";
import { soqlOutcome, soslOutcome, sqlOutcome } from "./tools.js";
import { DEFAULT_QUERY_LIMITS, type ObjectInfo, type OrgSchema, type OrgStore, type QueryLimits, type QueryOutcome, type SqlRow } from "./types.js";

export type { OrgStore } from "./types.js";

export interface OpenOrgOptions {
  /** Query processes of the org's own pool; without it the org (and its copies) use the process's shared pool. */
  readonly workers?: number;
  readonly limits?: Partial<QueryLimits>;
}

/** How long the records read from the image are kept after the last read (see `rows`): as long as an idle derive thread. */
const ROWS_KEEP_MS = 30_000;

/** How long the image's read-only copy for row reads stays open after the last read (see `reader`). */
const READER_IDLE_MS = 1_000;

let nextImageKey = 1;

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
  /** Names this store's image to the derive threads, which may keep it changed between copies (it never changes). */
  private readonly imageKey = nextImageKey++;

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

  private keys: Set<string> | undefined;

  async recordKeys(): Promise<ReadonlySet<string>> {
    this.keys ??= new Set([...(await this.recordIds())].map(recordKey));
    return this.keys;
  }

  query(sql: string, limits: Partial<QueryLimits> = {}): Promise<QueryOutcome> {
    return this.pool.run(this.imageId, sql, { ...this.limits, ...limits });
  }

  /** Releases the image; a store that made its own pool also stops its processes (its copies with them). */
  async close(): Promise<void> {
    clearTimeout(this.readerTimer);
    clearTimeout(this.keptRowsTimer);
    this.keptRows.clear();
    this.openReader?.close();
    this.openReader = undefined;
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
        this.latest = latestDate(db, this.schema);
      } finally {
        db.close();
      }
    }
    return this.latest;
  }

  /**
   * An object's records. The image never changes, so what was read is kept (frozen: a reader
   * that changed a row would change every later request's) for as long as reads keep coming:
   * each request's entropy plan reads every object, and reading them all again was most of the
   * plan's CPU. Dropped ROWS_KEEP_MS after the last read, so an idle server does not hold them.
   */
  async rows(object: string): Promise<readonly SqlRow[]> {
    const info = this.schema.objects.find((candidate) => candidate.name === object);
    if (!info) throw new Error(`the org has no object ${object}`);
    clearTimeout(this.keptRowsTimer);
    this.keptRowsTimer = setTimeout(() => this.keptRows.clear(), ROWS_KEEP_MS);
    this.keptRowsTimer.unref();
    let rows = this.keptRows.get(info.name);
    if (!rows) {
      const read = this.reader()
        .prepare(`SELECT * FROM ${quoteIdent(info.name)}`)
        .all() as SqlRow[];
      for (const row of read) Object.freeze(row);
      rows = Object.freeze(read);
      this.keptRows.set(info.name, rows);
    }
    return rows;
  }

  private readonly keptRows = new Map<string, readonly SqlRow[]>();
  private keptRowsTimer: NodeJS.Timeout | undefined;

  private openReader: Database.Database | undefined;
  private readerTimer: NodeJS.Timeout | undefined;

  /**
   * A read-only database of the image, shared by reads that follow each other within
   * READER_IDLE_MS: the view reads every object's rows one per turn of the event loop, and each
   * read would otherwise copy the whole image (a copy per object per request was 126 ms of a
   * 2,140-task request on the sample org). Closed once no read came for that long.
   */
  private reader(): Database.Database {
    this.openReader ??= new Database(this.image, { readonly: true });
    clearTimeout(this.readerTimer);
    this.readerTimer = setTimeout(() => {
      this.openReader?.close();
      this.openReader = undefined;
    }, READER_IDLE_MS);
    this.readerTimer.unref();
    return this.openReader;
  }

  /**
   * The copy is made in SQLite itself (changes, remap and Id order in one transaction on a copy of
   * the image), in a worker thread: for a full-size org at high rot that is a second of work the
   * event loop (every other assessment's episodes) would otherwise wait for.
   */
  async derive(changes: readonly OrgChange[], source: string, options: CopyOptions = {}): Promise<SqliteOrgStore> {
    const schema = schemaAfter(this.schema, changes);
    const derived = await deriveInWorker(this.image, this.schema, changes, options.remap, this.imageKey);
    // The copy queries through the same processes: an assessment costs an image, not a process.
    const copy = new SqliteOrgStore(schema, source, Buffer.from(derived.image.buffer, derived.image.byteOffset, derived.image.byteLength), this.options, this.pool, options.owner);
    copy.keys = new Set(derived.keys);
    copy.latest = derived.today;
    return copy;
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
