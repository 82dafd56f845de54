import type { Capability, ToolPort } from "../tools/index.js";
import type { IdRemap } from "../util/index.js";
import type { OrgChange } from "./changes.js";
import type { OrgRow, OrgSchema } from "./types.js";

/** How a copy differs beyond its changes. */
export interface CopyOptions {
  /** A sandbox refresh: after the changes, every record Id (in Id fields, lookups and texts) through this bijection. */
  readonly remap?: IdRemap;
  /** Whose copy it is (an assessment): its queries are scheduled fairly against other owners'. */
  readonly owner?: string;
}

/**
 * Where an org lives, behind the tools a purple uses. The SQLite org (the CRMArena-Pro database
 * or the sample's CSV folder) is the embedded one; another (a live Salesforce org, Postgres, rows
 * held in memory) answers the same calls. Every call is asynchronous, so a backend may be remote.
 * Backends are read-only: the view never writes the base org.
 *
 * The tools a run offers come from `capabilities` (a backend without SQL is not offered
 * `sql_query`). A backend that can rewrite a copy of itself offers `derive`; for one that
 * cannot, the view materialises the copy from `rows` (`RowsBackend`, the changes applied in JS).
 */
export interface OrgBackend extends ToolPort {
  readonly source: string;
  /** The schema, known from the moment the backend is open. */
  readonly schema: OrgSchema;
  /** Every record Id of the org (the values of each object's Id field). */
  recordIds(): Promise<ReadonlySet<string>>;
  /**
   * Every record's key (`canonicalId` of its Id, the Id itself when it is none), when the backend
   * has them at hand (a derived copy, from the thread that made it); the view works them out
   * from `recordIds` otherwise.
   */
  recordKeys?(): Promise<ReadonlySet<string>>;
  /** The org's own "today": the latest date its records carry (for queries that come with no task date). */
  today(): Promise<string>;
  /** An object's records as stored, for planners that derive records from real ones (rot) and for the view's copies. */
  rows(object: string): Promise<readonly OrgRow[]>;
  /** A copy of this org with the changes applied (schema and data), answering the same calls; optional (see above). */
  derive?(changes: readonly OrgChange[], source: string, options?: CopyOptions): Promise<OrgBackend>;
  close(): Promise<void>;
}

export type { Capability };
