import { quoteIdent } from "../introspect.js";
import { SalesforceError } from "../soql/errors.js";
import { runSoql } from "../soql/execute.js";
import { SchemaIndex } from "../soql/schema-index.js";
import { mentionsAllRows, notDeleted, sqlString, translateSoql } from "../soql/translate.js";
import type { FieldInfo, ObjectInfo, OrgStore } from "../types.js";
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

function escapeRegex(text: string): string {
  return text.replace(/[.+^${}()|[\]\\]/g, "\\$&");
}

/** A term's token pattern: `*` is any run of characters, `?` exactly one. */
function termPattern(term: string): string {
  return escapeRegex(term).replace(/\*/g, "[\\p{L}\\p{N}]*").replace(/\?/g, "[\\p{L}\\p{N}]");
}

/** Does the record's text (all searched fields) satisfy the expression, token by token? */
export function matches(expr: SearchExpr, texts: readonly string[]): boolean {
  switch (expr.kind) {
    case "term": {
      const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${termPattern(expr.text)}(?![\\p{L}\\p{N}])`, "iu");
      return texts.some((text) => pattern.test(text));
    }
    case "phrase": {
      const pattern = new RegExp(`(?<![\\p{L}\\p{N}])${expr.words.map(termPattern).join("[^\\p{L}\\p{N}]+")}(?![\\p{L}\\p{N}])`, "iu");
      return texts.some((text) => pattern.test(text));
    }
    case "and":
      return matches(expr.left, texts) && matches(expr.right, texts);
    case "or":
      return matches(expr.left, texts) || matches(expr.right, texts);
    case "not":
      return !matches(expr.expr, texts);
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

async function matchingIds(org: OrgStore, index: SchemaIndex, object: ObjectInfo, fields: readonly FieldInfo[], expr: SearchExpr): Promise<{ ids: string[]; truncated: boolean }> {
  if (fields.length === 0) return { ids: [], truncated: false };
  const columns = fields.map((field) => quoteIdent(field.name));
  // A search never finds recycle-bin records; leaving them out here keeps them from the 2,000 cap too.
  const live = notDeleted(index, object);
  const sql = `SELECT ${quoteIdent(index.idField(object).name)} AS record_id, ${columns.join(", ")} FROM ${quoteIdent(object.name)} WHERE ${prefilter(expr, columns)}${live ? ` AND ${live}` : ""}`;
  const outcome = await org.query(sql, { maxRows: 20_000, maxBytes: 20_000_000 });
  if (!outcome.ok) throw new SalesforceError("MALFORMED_SEARCH", `${outcome.code}: ${outcome.message}`);
  const ids = outcome.rows
    .filter((row) =>
      matches(
        expr,
        fields.map((field) => String(row[field.name] ?? "")),
      ),
    )
    .map((row) => String(row.record_id));
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
      const { ids, truncated: cut } = await matchingIds(org, index, object, searchFields(object, query.scope), query.search);
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
