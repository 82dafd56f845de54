import { type QueryContext, runTool, type ToolOutcome, type ToolPort, type ToolRequest } from "../tools/index.js";
import { runSoql } from "./soql/execute.js";
import { runSosl } from "./sosl/search.js";
import type { OrgStore, QueryOutcome } from "./types.js";

/** SOQL over an org store, as a tool outcome: records, or `COUNT()`'s total with none. */
export async function soqlOutcome(store: OrgStore, query: string, context: QueryContext): Promise<ToolOutcome> {
  const outcome = await runSoql(store, query, context.today);
  if (!outcome.ok) return outcome;
  return { ok: true, kind: "records", records: outcome.records, truncated: outcome.truncated, elapsedMs: outcome.elapsedMs, totalSize: outcome.totalSize };
}

/** SOSL over an org store, as a tool outcome. */
export async function soslOutcome(store: OrgStore, search: string, context: QueryContext): Promise<ToolOutcome> {
  const outcome = await runSosl(store, search, context.today);
  if (!outcome.ok) return outcome;
  return { ok: true, kind: "records", records: outcome.records, truncated: outcome.truncated, elapsedMs: outcome.elapsedMs };
}

/** A SQL query's outcome as a tool outcome. */
export function sqlOutcome(outcome: QueryOutcome): ToolOutcome {
  if (!outcome.ok) return outcome;
  return { ok: true, kind: "records", records: outcome.rows, truncated: outcome.truncated, elapsedMs: outcome.elapsedMs };
}

/** Runs one tool call against an org (the registry's tool, its arguments checked). Never throws: failures come back as error outcomes. */
export function runOrgTool(org: ToolPort, request: ToolRequest, context: QueryContext = { today: new Date().toISOString().slice(0, 10) }): Promise<ToolOutcome> {
  return runTool(org, request, context);
}
