import type { Condition, FunctionExp, OrderByClause, Query, FieldType as SelectItem, WhereClause } from "soql-parser-js";
import soql from "soql-parser-js";
import { quoteIdent } from "../introspect.js";
import type { FieldInfo, ObjectInfo, OrgSchema } from "../types.js";
import { dateLiteralRange } from "./date-literals.js";
import { malformed, SalesforceError } from "./errors.js";
import { COMPOUND_NAME, nameParts, SchemaIndex } from "./schema-index.js";

/** One output column: where its value goes in the record, and the parents that must exist for it. */
export interface OutputColumn {
  readonly alias: string;
  readonly path: readonly string[];
  /** For each relationship level of `path`: its object type and the hidden column holding its Id. */
  readonly parents: readonly { readonly type: string; readonly idAlias: string }[];
}

/** A child-relationship subquery, run after the main query for the parents it returned. */
export interface ChildPlan {
  readonly key: string;
  readonly plan: QueryPlan;
  readonly limit?: number;
}

/** What the executor needs to run a SOQL query and shape its records like Salesforce. */
export interface QueryPlan {
  readonly kind: "records" | "aggregate" | "count";
  readonly sql: string;
  readonly columns: readonly OutputColumn[];
  readonly children: readonly ChildPlan[];
  readonly objectType: string;
  /** The hidden column with each row's Id (records queries), for child subqueries. */
  readonly idAlias?: string;
  /** In a child plan: the hidden column with the parent's Id. */
  readonly parentAlias?: string;
}

const AGGREGATES = new Set(["COUNT", "COUNT_DISTINCT", "SUM", "AVG", "MIN", "MAX"]);
const DATE_FUNCTIONS = new Set([
  "CALENDAR_MONTH",
  "CALENDAR_QUARTER",
  "CALENDAR_YEAR",
  "DAY_IN_MONTH",
  "DAY_IN_WEEK",
  "DAY_IN_YEAR",
  "DAY_ONLY",
  "HOUR_IN_DAY",
  "WEEK_IN_MONTH",
  "WEEK_IN_YEAR",
  "FISCAL_MONTH",
  "FISCAL_QUARTER",
  "FISCAL_YEAR",
]);

type ValueKind = "text" | "id" | "number" | "boolean" | "date" | "datetime";

function kindOf(field: FieldInfo): ValueKind {
  switch (field.type) {
    case "id":
    case "reference":
      return "id";
    case "int":
    case "double":
      return "number";
    case "boolean":
    case "date":
    case "datetime":
      return field.type;
    default:
      return "text";
  }
}

const SF_TYPE_NAME: Record<ValueKind, string> = { text: "string", id: "id", number: "double", boolean: "boolean", date: "date", datetime: "dateTime" };

/** Salesforce's compound Name of people (User, Contact, Lead): "FirstName LastName". */
function compoundName(alias: string, [first, last]: [FieldInfo, FieldInfo]): string {
  return `trim(coalesce(${alias}.${quoteIdent(first.name)}, '') || ' ' || coalesce(${alias}.${quoteIdent(last.name)}, ''))`;
}

export function sqlString(value: string): string {
  return `'${value.replaceAll("'", "''")}'`;
}

/** Removes SOQL's quotes and backslash escapes from a string literal. */
function unquote(literal: string): string {
  const body = literal.startsWith("'") && literal.endsWith("'") ? literal.slice(1, -1) : literal;
  return body.replace(/\\(.)/g, (_, ch: string) => ({ n: "\n", t: "\t", r: "\r", b: "\b", f: "\f" })[ch] ?? ch);
}

/** A SOQL dateTime literal as the org stores datetimes: UTC, `YYYY-MM-DDTHH:MM:SS.000+0000`. */
function normaliseDateTime(literal: string): string {
  const millis = Date.parse(literal);
  if (Number.isNaN(millis)) throw malformed(`invalid dateTime literal: ${literal}`);
  return new Date(millis).toISOString().replace(/\.\d{3}Z$/, ".000+0000");
}

/** `ALL ROWS` ends a query (after LIMIT and OFFSET), as Apex writes it. */
const TRAILING_ALL_ROWS = /\s+ALL\s+ROWS\s*$/i;

/** Is `position` inside a SOQL string literal ('...', with backslash escapes)? */
function insideStringLiteral(text: string, position: number): boolean {
  let inside = false;
  for (let i = 0; i < position; i++) {
    if (inside && text[i] === "\\") i++;
    else if (text[i] === "'") inside = !inside;
  }
  return inside;
}

/**
 * Separates a trailing `ALL ROWS` from the query, which soql-parser-js cannot read: Apex's
 * ALL ROWS (the API's queryAll) returns recycle-bin records too. Text inside a string literal
 * ('... all rows') is the query's own and stays.
 */
function splitAllRows(text: string): { readonly body: string; readonly allRows: boolean } {
  const match = TRAILING_ALL_ROWS.exec(text);
  if (!match || insideStringLiteral(text, match.index)) return { body: text, allRows: false };
  return { body: text.slice(0, match.index), allRows: true };
}

/** Does `ALL ROWS` appear anywhere in the text outside string literals? */
export function mentionsAllRows(text: string): boolean {
  return [...text.matchAll(/\bALL\s+ROWS\b/gi)].some((match) => !insideStringLiteral(text, match.index));
}

/**
 * Parses SOQL with soql-parser-js, turning its errors into Salesforce's MALFORMED_QUERY with the
 * offending token and its position (`unexpected token: 'SELEC'. ERROR at Row:1:Column:1`).
 */
export function parseSoql(text: string): Query {
  try {
    return soql.parseQuery(text);
  } catch (error) {
    const message = (error as Error).message;
    const found = /but found:? --> '([\s\S]*?)' <--|but found: '([\s\S]*?)'/.exec(message);
    const token = found?.[1] ?? found?.[2];
    if (token === undefined) throw malformed(message.split("\n")[0]!.replace(/\s+/g, " ").trim());
    if (token === "") throw malformed("unexpected end of query: the query is incomplete");
    const index = text.indexOf(token);
    const before = text.slice(0, Math.max(0, index));
    const position = index < 0 ? "" : ` ERROR at Row:${before.split("\n").length}:Column:${index - before.lastIndexOf("\n")}`;
    throw malformed(`unexpected token: '${token}'.${position}`);
  }
}

interface Resolved {
  readonly expr: string;
  readonly field: FieldInfo;
  readonly parents: readonly { readonly name: string; readonly type: string; readonly idAlias: string; readonly idExpr: string }[];
}

/** Table aliases unique within one translation (main query, joins, subqueries). */
class Aliases {
  private count = 0;

  next(): string {
    return `t${this.count++}`;
  }
}

/** What every SELECT of one translation (main query, child subqueries, semi-joins) shares. */
interface Translation {
  readonly index: SchemaIndex;
  readonly today: string;
  readonly aliases: Aliases;
  /** The query ends with ALL ROWS: recycle-bin records are returned too, in every SELECT of it. */
  readonly allRows: boolean;
}

/**
 * SQL that keeps an object's records out of the recycle bin, or undefined for an object without
 * Salesforce's `IsDeleted` flag (the base org has none; the assessment's copy has it everywhere).
 * `IS NOT 1` hides exactly the deleted rows: a missing flag is not a deletion.
 */
export function notDeleted(index: SchemaIndex, object: ObjectInfo, alias?: string): string | undefined {
  const flag = index.deletedFlag(object);
  if (!flag) return undefined;
  return `${alias ? `${alias}.` : ""}${quoteIdent(flag.name)} IS NOT 1`;
}

/** Builds the SQL for one SELECT (main query, child subquery or semi-join), with its joins. */
class SelectBuilder {
  readonly alias: string;
  readonly index: SchemaIndex;
  readonly today: string;
  private readonly joins = new Map<string, { alias: string; object: ObjectInfo; sql: string }>();

  constructor(
    private readonly translation: Translation,
    readonly object: ObjectInfo,
  ) {
    this.index = translation.index;
    this.today = translation.today;
    this.alias = translation.aliases.next();
  }

  from(): string {
    return `${quoteIdent(this.object.name)} ${this.alias}${[...this.joins.values()].map((join) => ` ${join.sql}`).join("")}`;
  }

  /** Resolves `Field` or `Parent.Parent.Field`, adding LEFT JOINs for the relationships. */
  resolve(path: string): Resolved {
    const parts = path.split(".");
    // A path may start with the object's own name (`Case.Subject`), which SOQL allows.
    if (parts.length > 1 && parts[0]!.toLowerCase() === this.object.name.toLowerCase()) parts.shift();
    let object = this.object;
    let alias = this.alias;
    let key = "";
    const parents: Resolved["parents"][number][] = [];
    for (const relationshipName of parts.slice(0, -1)) {
      const relationship = this.index.parent(object, relationshipName);
      key += `.${relationship.name.toLowerCase()}`;
      let join = this.joins.get(key);
      if (!join) {
        const joinAlias = this.translation.aliases.next();
        join = {
          alias: joinAlias,
          object: relationship.target,
          sql: `LEFT JOIN ${quoteIdent(relationship.target.name)} ${joinAlias} ON ${joinAlias}.${quoteIdent(this.index.idField(relationship.target).name)} = ${alias}.${quoteIdent(relationship.field.name)}`,
        };
        this.joins.set(key, join);
      }
      parents.push({
        name: relationship.name,
        type: relationship.target.name,
        idAlias: `${join.alias}_id`,
        idExpr: `${join.alias}.${quoteIdent(this.index.idField(join.object).name)}`,
      });
      object = join.object;
      alias = join.alias;
    }
    const field = this.index.field(object, parts[parts.length - 1]!);
    const personName = field === COMPOUND_NAME ? nameParts(object) : undefined;
    const expr = personName ? compoundName(alias, personName) : `${alias}.${quoteIdent(field.name)}`;
    return { expr, field, parents };
  }

  /** A function call: an aggregate or a date function, with its SQL and value kind. */
  fn(call: FunctionExp, allowAggregates: boolean): { expr: string; kind: ValueKind; aggregate: boolean } {
    const name = (call.functionName ?? "").toUpperCase();
    const params = call.parameters ?? [];
    const arg = (): { expr: string; kind: ValueKind; field?: FieldInfo } => {
      const param = params[0];
      if (param === undefined) throw malformed(`${name}() needs a field`);
      if (typeof param === "string") {
        const resolved = this.resolve(param);
        return { expr: resolved.expr, kind: kindOf(resolved.field), field: resolved.field };
      }
      const inner = this.fn(param as FunctionExp, allowAggregates);
      return { expr: inner.expr, kind: inner.kind };
    };
    if (AGGREGATES.has(name)) {
      if (!allowAggregates) throw malformed(`Aggregate function ${name} is not allowed here`);
      if (name === "COUNT" && params.length === 0) return { expr: "COUNT(*)", kind: "number", aggregate: true };
      const { expr, kind } = arg();
      switch (name) {
        case "COUNT":
          return { expr: `COUNT(${expr})`, kind: "number", aggregate: true };
        case "COUNT_DISTINCT":
          return { expr: `COUNT(DISTINCT ${expr})`, kind: "number", aggregate: true };
        case "SUM":
        case "AVG":
          if (kind !== "number") throw malformed(`field must be numeric for ${name}`);
          return { expr: `${name}(CAST(${expr} AS REAL))`, kind: "number", aggregate: true };
        default:
          return { expr: `${name}(${expr})`, kind, aggregate: true };
      }
    }
    if (DATE_FUNCTIONS.has(name)) {
      const { expr, kind, field } = arg();
      if (kind !== "date" && kind !== "datetime") throw malformed(`${name} needs a date or dateTime field${field ? `, not '${field.name}'` : ""}`);
      if ((name === "DAY_ONLY" || name === "HOUR_IN_DAY") && kind !== "datetime") throw malformed(`${name} needs a dateTime field`);
      const day = `substr(${expr}, 1, 10)`;
      const month = `CAST(substr(${expr}, 6, 2) AS INTEGER)`;
      const dayOfYear = `CAST(strftime('%j', ${day}) AS INTEGER)`;
      const sql: Record<string, string> = {
        CALENDAR_MONTH: month,
        FISCAL_MONTH: month,
        CALENDAR_QUARTER: `((${month} + 2) / 3)`,
        FISCAL_QUARTER: `((${month} + 2) / 3)`,
        CALENDAR_YEAR: `CAST(substr(${expr}, 1, 4) AS INTEGER)`,
        FISCAL_YEAR: `CAST(substr(${expr}, 1, 4) AS INTEGER)`,
        DAY_IN_MONTH: `CAST(substr(${expr}, 9, 2) AS INTEGER)`,
        DAY_IN_WEEK: `(CAST(strftime('%w', ${day}) AS INTEGER) + 1)`,
        DAY_IN_YEAR: dayOfYear,
        DAY_ONLY: day,
        HOUR_IN_DAY: `CAST(substr(${expr}, 12, 2) AS INTEGER)`,
        WEEK_IN_MONTH: `((CAST(substr(${expr}, 9, 2) AS INTEGER) + 6) / 7)`,
        WEEK_IN_YEAR: `((${dayOfYear} + 6) / 7)`,
      };
      return { expr: sql[name]!, kind: name === "DAY_ONLY" ? "date" : "number", aggregate: false };
    }
    throw malformed(`unsupported function ${name}`);
  }

  /**
   * The SELECT's WHERE: the query's own condition and, unless ALL ROWS, Salesforce's rule that a
   * query does not return recycle-bin records. Every SELECT of a translation (main query, child
   * subquery, semi-join) comes through here, so each filters its own FROM object. Parent
   * relationships (LEFT JOINs) are not filtered: a lookup to a deleted parent still reads it.
   */
  whereClause(clause: WhereClause | undefined): string {
    const own = clause ? this.where(clause, false) : undefined;
    const live = this.translation.allRows ? undefined : notDeleted(this.index, this.object, this.alias);
    if (own !== undefined && live !== undefined) return ` WHERE (${own}) AND ${live}`;
    const only = own ?? live;
    return only === undefined ? "" : ` WHERE ${only}`;
  }

  where(clause: WhereClause | undefined, allowAggregates: boolean): string {
    const tokens: string[] = [];
    // soql-parser-js gives WHERE as a chain: left condition, operator, rest; NOT has no left.
    let node = clause as { left?: Condition | null; operator?: string; right?: WhereClause } | undefined;
    while (node) {
      if (node.left) tokens.push(this.condition(node.left, allowAggregates));
      if (node.operator) tokens.push(node.operator);
      node = node.right as typeof node;
    }
    return tokens.join(" ");
  }

  private condition(condition: Condition, allowAggregates: boolean): string {
    const c = condition as Condition & {
      field?: string;
      fn?: FunctionExp;
      value?: string | string[];
      literalType?: string | string[];
      valueQuery?: Query;
      openParen?: number;
      closeParen?: number;
      logicalPrefix?: string;
      operator: string;
    };
    let lhs: string;
    let kind: ValueKind;
    let fieldName: string;
    if (c.fn) {
      const fn = this.fn(c.fn, allowAggregates);
      lhs = fn.expr;
      kind = fn.kind;
      fieldName = c.fn.rawValue ?? c.fn.functionName ?? "";
    } else if (c.field) {
      const resolved = this.resolve(c.field);
      lhs = resolved.expr;
      kind = kindOf(resolved.field);
      fieldName = resolved.field.name;
    } else {
      throw malformed("a condition needs a field");
    }
    const body = this.comparison(lhs, kind, fieldName, c.operator.toUpperCase(), c.value, c.literalType, c.valueQuery);
    return `${"(".repeat(c.openParen ?? 0)}${c.logicalPrefix ? `${c.logicalPrefix} ` : ""}${body}${")".repeat(c.closeParen ?? 0)}`;
  }

  private comparison(
    lhs: string,
    kind: ValueKind,
    field: string,
    operator: string,
    value: string | string[] | undefined,
    literalType: string | string[] | undefined,
    valueQuery: Query | undefined,
  ): string {
    const op = operator === "<>" ? "!=" : operator;
    if (op === "IN" || op === "NOT IN") {
      if (valueQuery) return `${lhs} ${op} (${this.semiJoin(valueQuery)})`;
      const values = (Array.isArray(value) ? value : [value ?? ""]).map((item, i) => this.literal(kind, field, item, Array.isArray(literalType) ? literalType[i] : literalType));
      const collate = kind === "text" || kind === "id" ? " COLLATE NOCASE" : "";
      return `${lhs}${collate} ${op} (${values.join(", ")})`;
    }
    if (op === "INCLUDES" || op === "EXCLUDES") throw malformed(`${op} applies only to multi-select picklists, which this org does not have`);
    const type = (Array.isArray(literalType) ? literalType[0] : literalType) ?? "STRING";
    const raw = Array.isArray(value) ? value[0]! : (value ?? "");
    if (type === "NULL") {
      if (op === "=") return `${lhs} IS NULL`;
      if (op === "!=") return `${lhs} IS NOT NULL`;
      throw malformed(`null can only be compared with = or !=`);
    }
    if (type === "DATE_LITERAL" || type === "DATE_N_LITERAL") return this.dateRange(lhs, kind, field, op, raw);
    if (op === "LIKE") {
      if (kind !== "text" && kind !== "id") throw new SalesforceError("INVALID_FIELD", `invalid operator on field '${field}': LIKE applies to text fields`);
      return `${lhs} LIKE ${this.literal("text", field, raw, type)} ESCAPE '\\'`;
    }
    if (!["=", "!=", "<", "<=", ">", ">="].includes(op)) throw malformed(`unexpected operator ${operator}`);
    const literal = this.literal(kind, field, raw, type);
    if (kind === "id" && type === "STRING" && unquote(raw).length === 15) return `substr(${lhs}, 1, 15) ${op} ${literal}`;
    if (kind === "text" || kind === "id") return `${lhs} ${op} ${literal} COLLATE NOCASE`;
    if (kind === "number") return `CAST(${lhs} AS REAL) ${op} ${literal}`;
    return `${lhs} ${op} ${literal}`;
  }

  /** A literal as SQL, checked against the field's type as Salesforce checks it. */
  private literal(kind: ValueKind, field: string, raw: string, literalType: string | undefined): string {
    const type = literalType ?? "STRING";
    const mismatch = (quoted: boolean) =>
      new SalesforceError(
        "INVALID_FIELD",
        `value of filter criterion for field '${field}' must be of type ${SF_TYPE_NAME[kind]} and should${quoted ? "" : " not"} be enclosed in quotes`,
      );
    switch (kind) {
      case "text":
      case "id":
        if (type !== "STRING") throw mismatch(true);
        return sqlString(unquote(raw));
      case "number":
        if (type !== "INTEGER" && type !== "DECIMAL" && type !== "INTEGER_WITH_CURRENCY_PREFIX" && type !== "DECIMAL_WITH_CURRENCY_PREFIX") throw mismatch(false);
        return String(Number(raw.replace(/^[A-Z]{3}/, "")));
      case "boolean":
        if (type !== "BOOLEAN") throw mismatch(false);
        return raw.toUpperCase() === "TRUE" ? "1" : "0";
      case "date":
        if (type !== "DATE") throw mismatch(false);
        return sqlString(raw);
      case "datetime":
        if (type !== "DATETIME") throw mismatch(false);
        return sqlString(normaliseDateTime(raw));
    }
  }

  private dateRange(lhs: string, kind: ValueKind, field: string, op: string, literal: string): string {
    if (kind !== "date" && kind !== "datetime")
      throw new SalesforceError(
        "INVALID_FIELD",
        `value of filter criterion for field '${field}' must be of type ${SF_TYPE_NAME[kind]}; date literals apply to date and dateTime fields`,
      );
    const range = dateLiteralRange(literal, this.today);
    if (!range) throw malformed(`unknown date literal ${literal}`);
    const bound = (date: string) => sqlString(kind === "date" ? date : `${date}T00:00:00.000+0000`);
    const [start, end] = [bound(range.start), bound(range.end)];
    switch (op) {
      case "=":
        return `(${lhs} >= ${start} AND ${lhs} < ${end})`;
      case "!=":
        return `(${lhs} < ${start} OR ${lhs} >= ${end})`;
      case "<":
        return `${lhs} < ${start}`;
      case "<=":
        return `${lhs} < ${end}`;
      case ">":
        return `${lhs} >= ${end}`;
      case ">=":
        return `${lhs} >= ${start}`;
      default:
        throw malformed(`operator ${op} cannot be used with a date literal`);
    }
  }

  /** `IN (SELECT Field FROM Object WHERE ...)`: one plain field, as Salesforce allows in semi-joins. */
  private semiJoin(query: Query): string {
    const inner = new SelectBuilder(this.translation, this.index.object(query.sObject ?? ""));
    const fields = query.fields ?? [];
    if (fields.length !== 1 || (fields[0]!.type !== "Field" && fields[0]!.type !== "FieldRelationship")) {
      throw malformed("a semi-join subquery must select exactly one field");
    }
    const selected = inner.resolve(fields[0]!.type === "Field" ? fields[0]!.field : ((fields[0] as { rawValue?: string }).rawValue ?? ""));
    const where = inner.whereClause(query.where);
    const limit = query.limit !== undefined ? ` LIMIT ${Number(query.limit)}` : "";
    return `SELECT ${selected.expr} FROM ${inner.from()}${where}${limit}`;
  }

  orderBy(items: OrderByClause | OrderByClause[] | undefined, allowAggregates: boolean): string {
    const list = items === undefined ? [] : Array.isArray(items) ? items : [items];
    if (list.length === 0) return "";
    const parts = list.map((item) => {
      const entry = item as { field?: string; fn?: FunctionExp; order?: string; nulls?: string };
      const expr = entry.fn ? this.fn(entry.fn, allowAggregates).expr : this.resolve(entry.field ?? "").expr;
      return `${expr}${entry.order ? ` ${entry.order}` : ""}${entry.nulls ? ` NULLS ${entry.nulls}` : ""}`;
    });
    return ` ORDER BY ${parts.join(", ")}`;
  }
}

/**
 * Translates SOQL into SQLite over the org, checking names, types and grouping as Salesforce does.
 * Recycle-bin records (IsDeleted = true) are left out unless the query ends with ALL ROWS.
 */
export function translateSoql(text: string, schema: OrgSchema, today: string): QueryPlan {
  const { body, allRows } = splitAllRows(text);
  // Elsewhere than at the end, the parser would read ALL as an alias and fail on ROWS: say what is wrong.
  if (mentionsAllRows(body)) throw malformed("ALL ROWS must end the query, after LIMIT and OFFSET");
  return planQuery(parseSoql(body), { index: new SchemaIndex(schema), today, aliases: new Aliases(), allRows });
}

function planQuery(query: Query, translation: Translation, parentLink?: { field: FieldInfo }): QueryPlan {
  const { index } = translation;
  const object = index.object(query.sObject ?? "");
  const builder = new SelectBuilder(translation, object);
  const items = query.fields ?? [];
  if (items.length === 0) throw malformed("the query selects no fields");
  const isAggregateFn = (item: SelectItem) => item.type === "FieldFunctionExpression" && AGGREGATES.has((item.functionName ?? "").toUpperCase());
  const grouped = query.groupBy !== undefined;
  const aggregate = grouped || items.some(isAggregateFn);

  // COUNT() alone: Salesforce answers with totalSize and no records.
  if (
    items.length === 1 &&
    items[0]!.type === "FieldFunctionExpression" &&
    items[0]!.functionName?.toUpperCase() === "COUNT" &&
    (items[0]!.parameters ?? []).length === 0 &&
    !grouped
  ) {
    const where = builder.whereClause(query.where);
    const sql = `SELECT COUNT(*) AS total FROM ${builder.from()}${where}`;
    return { kind: "count", sql, columns: [], children: [], objectType: object.name };
  }

  const selects: string[] = [];
  const columns: OutputColumn[] = [];
  const children: ChildPlan[] = [];
  const hidden = new Map<string, string>();
  let exprIndex = 0;
  const groupKeys = new Set<string>();
  const groupExprs: string[] = [];
  const groupBy = query.groupBy === undefined ? [] : Array.isArray(query.groupBy) ? query.groupBy : [query.groupBy];
  for (const group of groupBy as { field?: string; fn?: FunctionExp }[]) {
    if (group.fn) {
      const fn = builder.fn(group.fn, false);
      groupExprs.push(fn.expr);
      groupKeys.add(fn.expr);
    } else if (group.field) {
      const resolved = builder.resolve(group.field);
      groupExprs.push(resolved.expr);
      groupKeys.add(resolved.expr);
    }
  }

  items.forEach((item, position) => {
    const alias = `c${position}`;
    switch (item.type) {
      case "Field":
      case "FieldRelationship": {
        const path = item.type === "Field" ? item.field : (item.rawValue ?? [...item.relationships, item.field].join("."));
        const resolved = builder.resolve(path);
        if (aggregate && !groupKeys.has(resolved.expr)) throw malformed(`Field must be grouped or aggregated: ${resolved.field.name}`);
        selects.push(`${resolved.expr} AS ${alias}`);
        const outputName = (item as { alias?: string }).alias ?? resolved.field.name;
        if (aggregate) {
          columns.push({ alias, path: [outputName], parents: [] });
        } else {
          for (const parent of resolved.parents) {
            if (!hidden.has(parent.idAlias)) {
              hidden.set(parent.idAlias, parent.idExpr);
              selects.push(`${parent.idExpr} AS ${parent.idAlias}`);
            }
          }
          columns.push({
            alias,
            path: [...resolved.parents.map((parent) => parent.name), resolved.field.name],
            parents: resolved.parents.map((parent) => ({ type: parent.type, idAlias: parent.idAlias })),
          });
        }
        break;
      }
      case "FieldFunctionExpression": {
        const fn = builder.fn(item, true);
        if (aggregate && !fn.aggregate && !groupKeys.has(fn.expr)) throw malformed(`Field must be grouped or aggregated: ${item.rawValue ?? item.functionName}`);
        if (!aggregate && !fn.aggregate) throw malformed(`${item.functionName} is only allowed in aggregate queries (with GROUP BY)`);
        selects.push(`${fn.expr} AS ${alias}`);
        columns.push({ alias, path: [item.alias ?? `expr${exprIndex++}`], parents: [] });
        break;
      }
      case "FieldSubquery": {
        if (aggregate) throw malformed("a child subquery cannot be used in an aggregate query");
        const subquery = item.subquery;
        const relationship = index.child(object, subquery.relationshipName);
        const childQuery: Query = { ...subquery, sObject: relationship.child.name } as Query;
        const plan = planQuery(childQuery, translation, { field: relationship.field });
        children.push({ key: subquery.relationshipName, plan, ...(subquery.limit !== undefined ? { limit: Number(subquery.limit) } : {}) });
        break;
      }
      default:
        throw malformed("TYPEOF is not supported by this org");
    }
  });

  let idAlias: string | undefined;
  if (!aggregate) {
    idAlias = `${builder.alias}_self_id`;
    selects.push(`${builder.alias}.${quoteIdent(index.idField(object).name)} AS ${idAlias}`);
  }
  let parentAlias: string | undefined;
  if (parentLink) {
    parentAlias = `${builder.alias}_parent_id`;
    selects.push(`${builder.alias}.${quoteIdent(parentLink.field.name)} AS ${parentAlias}`);
  }
  const where = builder.whereClause(query.where);
  const group = groupExprs.length > 0 ? ` GROUP BY ${groupExprs.join(", ")}` : "";
  const having = query.having ? ` HAVING ${builder.where(query.having as WhereClause, true)}` : "";
  const order = builder.orderBy(query.orderBy, aggregate);
  // A child subquery's LIMIT applies per parent, so the executor applies it after grouping.
  const limit = !parentLink && query.limit !== undefined ? ` LIMIT ${Number(query.limit)}` : "";
  const offset = !parentLink && query.offset !== undefined ? `${limit ? "" : " LIMIT -1"} OFFSET ${Number(query.offset)}` : "";
  const sql = `SELECT ${selects.join(", ")} FROM ${builder.from()}${where}${group}${having}${order}${limit}${offset}`;
  return { kind: aggregate ? "aggregate" : "records", sql, columns, children, objectType: object.name, ...(idAlias ? { idAlias } : {}), ...(parentAlias ? { parentAlias } : {}) };
}
