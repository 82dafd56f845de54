import type { IdRemap } from "../util/index.js";
import type { OrgChange } from "./changes.js";
import type { OrgRequest, QueryContext, ToolOutcome } from "./tools.js";
import type { OrgSchema, SqlRow } from "./types.js";

/** How a copy differs beyond its changes. */
export interface CopyOptions {
  /** A sandbox refresh: after the changes, every record Id (in Id fields, lookups and texts) through this bijection. */
  readonly remap?: IdRemap;
  /** Whose copy it is (an assessment): its queries are scheduled fairly against other owners'. */
  readonly owner?: string;
}

/**
 * Where an org lives, behind the tools a purple uses. The SQLite org (the CRMArena-Pro database
 * or the sample's CSV folder) is one implementation; another (a live Salesforce org, Postgres)
 * would answer the same calls. Backends are read-only: `withChanges` gives a derived copy and
 * never writes the original.
 */
export interface OrgBackend {
  readonly source: string;
  readonly schema: OrgSchema;
  /** Every record Id of the org (the values of each object's Id field). */
  recordIds(): ReadonlySet<string>;
  /** The org's own "today": the latest date its records carry (for queries that come with no task date). */
  today(): string;
  /** An object's records as stored, for planners that derive records from real ones (rot). */
  rows(object: string): readonly SqlRow[];
  /** One tool call: describe_schema, soql_query, sosl_search, and sql_query where the backend has SQL. */
  runTool(request: OrgRequest, context: QueryContext): Promise<ToolOutcome>;
  /** A copy of this org with the changes applied (schema and data), answering the same calls. */
  withChanges(changes: readonly OrgChange[], source: string, options?: CopyOptions): OrgBackend;
  close(): Promise<void>;
}
