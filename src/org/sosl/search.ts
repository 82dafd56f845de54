import { quoteIdent } from "../introspect.js";
import { SalesforceError } from "../soql/errors.js";
import { runSoql } from "../soql/execute.js";
import { SchemaIndex } from "../soql/schema-index.js";
import { mentionsAllRows, notDeleted, sqlString, translateSoql } from "../soql/translate.js";
import type { FieldInfo, ObjectInfo, OrgStore } from "../types.js";
import { SOSL_MATCH_FUNCTION } from "./match.js";
import { parseSosl, type ReturningObject, type SearchExpr, type SearchScope } from "./parse.js";

/** A SOSL answer: Salesforce's `searchRecords`, or an error in its words. */
export type SoslOutcome =
  | { readonly ok: true; readonly records: Record<string, unknown>[]; readonly truncated: boolean; readonly elapsedMs: number }
  | { readonly ok: false; readonly code: string; readonly message: string; readonly elapsedMs: number };

/** Salesforce returns at most 2,000 records per search. */
const MAX_SEARCH_RECORDS = 2000;

/** The text fields a search scope looks in, chosen by their labels (which drift leaves alone). */
export function searchFields(object: ObjectInfo, scope: SearchScope): FieldInfo[] {
  const text = object.fields.filter((field) => field.type === "string");
  switch (scope) {
    case "ALL":
      return text;
    case "EMAIL":
      return text.filter((field) => /email|address/i.test(field.label));
    case "PHONE":
      return text.filter((field) => /phone/i.test(field.label));
    case "NAME": {
      const names = text.filter((field) => ["Name", "First Name", "Last Name"].includes(field.label));
      if (names.length > 0) return names;
      // Objects without a Name field are named by their Title (Knowledge) or Subject (Case, Task, ...);
      // a deprecated copy beside its replacement is not the name the search uses.
      return text.filter((field) => (field.label === "Title" || field.label === "Subject") && !field.replacedBy).slice(0, 1);
    }
  }
}

/**
 * A coarse SQL filter that keeps every record the expression can match (substring LIKE on the
 * longest literal piece of each term), so only candidates travel from the query process.
 */
function prefilter(expr: SearchExpr, columns: readonly string[]): string {
  const like = (piece: string) => `(${columns.map((column) => `${column} LIKE ${sqlString(`%${piece.replace(/[%_\\]/g, (ch) => `\\${ch}`)}%`)} ESCAPE '\\'`).join(" OR ")})`;
  switch (expr.kind) {
    case "term": {
      const piece = expr.text.split(/[*?]/).sort((a, b) => b.length - a.length)[0] ?? "";
      return piece ? like(piece) : "1";
    }
    case "phrase":
      return like(expr.words.reduce((a, b) => (b.replace(/[*?]/g, "").length > a.length ? b.replace(/[*?]/g, "") : a), ""));
    case "and":
      return `(${prefilter(expr.left, columns)} AND ${prefilter(expr.right, columns)})`;
    case "or":
      return `(${prefilter(expr.left, columns)} OR ${prefilter(expr.right, columns)})`;
    case "not":
      // Substring filtering cannot decide a negation; the token check does.
      return "1";
  }
}

/**
 * The Ids of the records that match, found where the SQL runs: the coarse filter narrows the rows,
 * then `sosl_match` (match.ts) checks each candidate's tokens inside the statement, so the
 * regular expressions of a purple's terms run in the query process under the statement's time
 * limit, never on the server's event loop, and only matches travel back.
 */
async function matchingIds(
  org: OrgStore,
  index: SchemaIndex,
  object: ObjectInfo,
  fields: readonly FieldInfo[],
  expr: SearchExpr,
): Promise<{ ids: string[]; truncated: boolean } | { failure: { code: string; message: string } }> {
  if (fields.length === 0) return { ids: [], truncated: false };
  const columns = fields.map((field) => quoteIdent(field.name));
  // A search never finds recycle-bin records; leaving them out here keeps them from the 2,000 cap too.
  const live = notDeleted(index, object);
  const match = `${SOSL_MATCH_FUNCTION}(${sqlString(JSON.stringify(expr))}, ${columns.join(", ")})`;
  const sql = `SELECT ${quoteIdent(index.idField(object).name)} AS record_id FROM ${quoteIdent(object.name)} WHERE ${prefilter(expr, columns)}${live ? ` AND ${live}` : ""} AND ${match}`;
  const outcome = await org.query(sql, { maxRows: MAX_SEARCH_RECORDS + 1 });
  if (!outcome.ok) {
    // A search stopped at its time limit says so, as a query does; any other failure is the search's.
    if (outcome.code === "QUERY_TIMEOUT") return { failure: { code: outcome.code, message: `the search ${outcome.message.replace(/^the query /, "")}` } };
    throw new SalesforceError("MALFORMED_SEARCH", `${outcome.code}: ${outcome.message}`);
  }
  const ids = outcome.rows.map((row) => String(row.record_id));
  return { ids: ids.slice(0, MAX_SEARCH_RECORDS), truncated: outcome.truncated || ids.length > MAX_SEARCH_RECORDS };
}

/** Runs a SOSL search. Never throws: every failure is a Salesforce-style error. */
export async function runSosl(org: OrgStore, text: string, today: string): Promise<SoslOutcome> {
  const started = performance.now();
  const fail = (code: string, message: string): SoslOutcome => ({ ok: false, code, message, elapsedMs: performance.now() - started });
  try {
    const query = parseSosl(text);
    const index = new SchemaIndex(org.schema);
    const targets: readonly ReturningObject[] = query.returning ?? org.schema.objects.map((object) => ({ object: object.name }));
    const records: Record<string, unknown>[] = [];
    let truncated = false;
    for (const target of targets) {
      const object = index.object(target.object);
      const idField = index.idField(object);
      const soqlFor = (ids: readonly string[]) => {
        const filter = `${idField.name} IN (${ids.map(sqlString).join(", ")})`;
        const where = target.where ? ` WHERE ${filter} AND (${target.where})` : ` WHERE ${filter}`;
        const orderBy = target.orderBy ? ` ORDER BY ${target.orderBy}` : "";
        const limit = target.limit !== undefined ? ` LIMIT ${target.limit}` : "";
        return `SELECT ${target.fields ?? idField.name} FROM ${object.name}${where}${orderBy}${limit}`;
      };
      // The RETURNING clause is checked even when nothing matches, as Salesforce does.
      const check = soqlFor(["000000000000000"]);
      // SOSL has no ALL ROWS; at the end of a RETURNING clause it would reach the SOQL translator, which honours it.
      if (mentionsAllRows(check)) throw new SalesforceError("MALFORMED_SEARCH", "ALL ROWS is not part of SOSL: a search never returns deleted records");
      translateSoql(check, org.schema, today);
      const found = await matchingIds(org, index, object, searchFields(object, query.scope), query.search);
      if ("failure" in found) return fail(found.failure.code, found.failure.message);
      const { ids, truncated: cut } = found;
      truncated ||= cut;
      if (ids.length === 0) continue;
      const outcome = await runSoql(org, soqlFor(ids), today);
      if (!outcome.ok) return fail(outcome.code, outcome.message);
      truncated ||= outcome.truncated;
      records.push(...outcome.records);
    }
    const limited = query.limit !== undefined ? records.slice(0, query.limit) : records;
    return { ok: true, records: limited, truncated: truncated || limited.length < records.length, elapsedMs: performance.now() - started };
  } catch (error) {
    if (error instanceof SalesforceError) return fail(error.code, error.message);
    return fail("MALFORMED_SEARCH", (error as Error).message);
  }
}
