import { runSoql } from "./soql/execute.js";
import { runSosl } from "./sosl/search.js";
import type { ObjectInfo, OrgStore } from "./types.js";

/** A call the org can answer: the protocol's tool calls, minus `respond`. */
export type OrgRequest =
  | { readonly tool: "describe_schema"; readonly object?: string }
  | { readonly tool: "sql_query"; readonly query: string }
  | { readonly tool: "soql_query"; readonly query: string }
  | { readonly tool: "sosl_search"; readonly search: string };

/** Per-episode facts a query needs: SOQL's TODAY and relative date literals use the task's date. */
export interface QueryContext {
  /** YYYY-MM-DD */
  readonly today: string;
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
  | { readonly ok: true; readonly kind: "schema"; readonly objects: readonly ObjectInfo[]; readonly elapsedMs: number }
  | { readonly ok: false; readonly code: string; readonly message: string; readonly elapsedMs: number };

/** Runs one tool call against the org. Never throws: failures come back as error outcomes. */
export async function runOrgTool(org: OrgStore, request: OrgRequest, context: QueryContext = { today: new Date().toISOString().slice(0, 10) }): Promise<ToolOutcome> {
  if (request.tool === "describe_schema") {
    if (request.object === undefined) return { ok: true, kind: "schema", objects: org.schema.objects, elapsedMs: 0 };
    const object = org.findObject(request.object);
    if (!object) {
      return {
        ok: false,
        code: "INVALID_TYPE",
        message: `sObject type '${request.object}' is not supported. The objects are: ${org.schema.objects.map((o) => o.name).join(", ")}`,
        elapsedMs: 0,
      };
    }
    return { ok: true, kind: "schema", objects: [object], elapsedMs: 0 };
  }
  if (request.tool === "soql_query") {
    const outcome = await runSoql(org, request.query, context.today);
    if (!outcome.ok) return outcome;
    return { ok: true, kind: "records", records: outcome.records, truncated: outcome.truncated, elapsedMs: outcome.elapsedMs, totalSize: outcome.totalSize };
  }
  if (request.tool === "sosl_search") {
    const outcome = await runSosl(org, request.search, context.today);
    if (!outcome.ok) return outcome;
    return { ok: true, kind: "records", records: outcome.records, truncated: outcome.truncated, elapsedMs: outcome.elapsedMs };
  }
  const outcome = await org.query(request.query);
  if (!outcome.ok) return outcome;
  return { ok: true, kind: "records", records: outcome.rows, truncated: outcome.truncated, elapsedMs: outcome.elapsedMs };
}
