/** Field types inferred from the data, in Salesforce's vocabulary. */
export type FieldType = "id" | "reference" | "string" | "date" | "datetime" | "int" | "double" | "boolean";

/** One column of an org object. */
export interface FieldInfo {
  readonly name: string;
  /** The human-readable label; it names the field's meaning even when its API name has drifted. */
  readonly label: string;
  readonly type: FieldType;
  /** Objects this field points to (several for polymorphic fields such as Task.WhatId). */
  readonly references: readonly string[];
  readonly nullable: boolean;
  /** A lookup's relationship name in SOQL paths (`Account` for AccountId, `Contract__r` for Contract__c). */
  readonly relationshipName?: string;
  /** What describe_schema says beside the field (a recycle-bin flag, a deprecation). */
  readonly note?: string;
  /** Set when the field is deprecated: the field that replaces it. */
  readonly replacedBy?: string;
}

/** One org object (a SQLite table). */
export interface ObjectInfo {
  readonly name: string;
  readonly keyPrefix: string | null;
  readonly rowCount: number;
  readonly fields: readonly FieldInfo[];
}

/** The introspected schema of an org. */
export interface OrgSchema {
  readonly objects: readonly ObjectInfo[];
}

/** A field's value as a backend stores it (a scalar, as SQLite returns it). */
export type OrgValue = string | number | null;
export type OrgRow = Record<string, OrgValue>;
/** The names entropy's planners use for the same. */
export type SqlValue = OrgValue;
export type SqlRow = OrgRow;

/** The outcome of one query against the org. */
export type QueryOutcome =
  | { readonly ok: true; readonly columns: readonly string[]; readonly rows: readonly SqlRow[]; readonly truncated: boolean; readonly elapsedMs: number }
  | { readonly ok: false; readonly code: string; readonly message: string; readonly elapsedMs: number };

/** Caps that keep one query from hurting the server. */
export interface QueryLimits {
  readonly timeoutMs: number;
  readonly maxRows: number;
  readonly maxBytes: number;
}

export const DEFAULT_QUERY_LIMITS: QueryLimits = { timeoutMs: 2_000, maxRows: 1_000, maxBytes: 1_000_000 };

/** What the SOQL and SOSL engines need of an org: its schema and read-only SQL that never blocks the caller. */
export interface OrgStore {
  readonly schema: OrgSchema;
  readonly source: string;
  findObject(name: string): ObjectInfo | undefined;
  query(sql: string, limits?: Partial<QueryLimits>): Promise<QueryOutcome>;
  close(): Promise<void>;
}
