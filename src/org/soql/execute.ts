import type { OrgStore, SqlRow } from "../types.js";
import { SalesforceError } from "./errors.js";
import { type QueryPlan, translateSoql } from "./translate.js";

/** A SOQL answer: records shaped as Salesforce returns them, or an error in its words. */
export type SoqlOutcome =
  | { readonly ok: true; readonly records: Record<string, unknown>[]; readonly totalSize: number; readonly truncated: boolean; readonly elapsedMs: number }
  | { readonly ok: false; readonly code: string; readonly message: string; readonly elapsedMs: number };

const API_VERSION = "v58.0";

function attributes(type: string, id: unknown) {
  return { type, url: `/services/data/${API_VERSION}/sobjects/${type}/${String(id)}` };
}

/** Builds nested records (`{Account: {attributes, ShippingState}}`) from a flat SQL row. */
function shape(plan: QueryPlan, row: SqlRow): Record<string, unknown> {
  const record: Record<string, unknown> = {};
  for (const column of plan.columns) {
    let target: Record<string, unknown> | null = record;
    column.parents.forEach((parent, level) => {
      if (target === null) return;
      const key = column.path[level]!;
      const parentId = row[parent.idAlias];
      if (parentId === null || parentId === undefined) {
        target[key] = null;
        target = null;
        return;
      }
      target[key] ??= { attributes: attributes(parent.type, parentId) };
      target = target[key] as Record<string, unknown>;
    });
    if (target !== null) (target as Record<string, unknown>)[column.path[column.path.length - 1]!] = row[column.alias] ?? null;
  }
  return record;
}

async function runPlan(org: OrgStore, plan: QueryPlan, sql: string, started: number): Promise<SoqlOutcome> {
  const outcome = await org.query(sql);
  if (!outcome.ok) {
    // A translation SQLite rejects is our bug or a limit, never the agent's syntax: keep the code.
    return { ok: false, code: outcome.code, message: outcome.message, elapsedMs: performance.now() - started };
  }
  if (plan.kind === "count") {
    return { ok: true, records: [], totalSize: Number(outcome.rows[0]?.total ?? 0), truncated: false, elapsedMs: performance.now() - started };
  }
  const records = outcome.rows.map((row) => shape(plan, row));
  let truncated = outcome.truncated;
  for (const child of plan.children) {
    const parentIds = outcome.rows.map((row) => row[plan.idAlias!]).filter((id): id is string => typeof id === "string");
    const byParent = new Map<string, Record<string, unknown>[]>();
    if (parentIds.length > 0) {
      const list = parentIds.map((id) => `'${id.replaceAll("'", "''")}'`).join(", ");
      const childOutcome = await org.query(`SELECT * FROM (${child.plan.sql}) AS child WHERE ${child.plan.parentAlias} IN (${list})`);
      if (!childOutcome.ok) return { ok: false, code: childOutcome.code, message: childOutcome.message, elapsedMs: performance.now() - started };
      truncated ||= childOutcome.truncated;
      for (const row of childOutcome.rows) {
        const parent = String(row[child.plan.parentAlias!]);
        const group = byParent.get(parent) ?? [];
        if (child.limit === undefined || group.length < child.limit) group.push(shape(child.plan, row));
        byParent.set(parent, group);
      }
    }
    outcome.rows.forEach((row, i) => {
      const group = byParent.get(String(row[plan.idAlias!]));
      // Salesforce gives null, not an empty list, for a parent without children.
      records[i]![child.key] = group ? { totalSize: group.length, done: true, records: group } : null;
    });
  }
  return { ok: true, records, totalSize: records.length, truncated, elapsedMs: performance.now() - started };
}

/** Runs a SOQL query against the org. Never throws: every failure is a Salesforce-style error. */
export async function runSoql(org: OrgStore, text: string, today: string): Promise<SoqlOutcome> {
  const started = performance.now();
  let plan: QueryPlan;
  try {
    plan = translateSoql(text, org.schema, today);
  } catch (error) {
    if (error instanceof SalesforceError) return { ok: false, code: error.code, message: error.message, elapsedMs: performance.now() - started };
    return { ok: false, code: "MALFORMED_QUERY", message: (error as Error).message, elapsedMs: performance.now() - started };
  }
  return runPlan(org, plan, plan.sql, started);
}
