/**
 * What a tool may ask of the org it runs against: the port every backend implements. Tools are
 * pure data plus a run function typed against this port, so `tools/` (and `protocol/`, which
 * derives the purple-facing contract from the tools) never know a backend.
 */

/** What a backend can answer besides its schema; a tool that needs a capability is offered only where the backend has it. */
export type Capability = "soql" | "sosl" | "sql";

/** A field as describe_schema shows it (the org's FieldInfo has this shape). */
export interface SchemaField {
  readonly name: string;
  readonly label: string;
  readonly type: string;
  readonly references: readonly string[];
  readonly relationshipName?: string;
  readonly note?: string;
  readonly replacedBy?: string;
}

/** An object as describe_schema shows it (the org's ObjectInfo has this shape). */
export interface SchemaObject {
  readonly name: string;
  readonly keyPrefix: string | null;
  readonly rowCount: number;
  readonly fields: readonly SchemaField[];
}

/** What a tool call produced, before it is rendered for the purple agent. */
export type ToolOutcome =
  | {
      readonly ok: true;
      readonly kind: "records";
      readonly records: readonly Record<string, unknown>[];
      readonly truncated: boolean;
      readonly elapsedMs: number;
      /** Set by SOQL: `COUNT()` answers with a total and no records, as Salesforce does. */
      readonly totalSize?: number;
    }
  | { readonly ok: true; readonly kind: "schema"; readonly objects: readonly SchemaObject[]; readonly elapsedMs: number }
  | { readonly ok: false; readonly code: string; readonly message: string; readonly elapsedMs: number };

/** Per-call facts a query needs: SOQL's TODAY and relative date literals use the task's date. */
export interface QueryContext {
  /** YYYY-MM-DD */
  readonly today: string;
}

/** The org as a tool sees it. Never throws for a bad query: failures come back as error outcomes. */
export interface ToolPort {
  readonly schema: { readonly objects: readonly SchemaObject[] };
  readonly capabilities: ReadonlySet<Capability>;
  soql(query: string, context: QueryContext): Promise<ToolOutcome>;
  sosl(search: string, context: QueryContext): Promise<ToolOutcome>;
  /** Raw SQL over the backend's tables; only called when the backend has the `sql` capability. */
  sql(query: string): Promise<ToolOutcome>;
}
