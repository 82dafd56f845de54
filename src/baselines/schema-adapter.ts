import type { Condition, FunctionExp, Query, FieldType as SelectItem, WhereClause } from "soql-parser-js";
import soql from "soql-parser-js";
import type { FieldInfo, ObjectInfo } from "../org/index.js";
import { fieldLabel } from "../util/index.js";

/**
 * What a careful agent does with a drifted, rotting org: it writes queries with the field names
 * it knows, then maps each to the org's current API name through what `describe_schema` shows
 * (labels, relationship names, deprecation notes), keeps to current records (not deleted, the
 * published version of an article, active products), and reads the answers back under the names
 * it knows. Nothing here knows the entropy plan: only the schema the purple agent was shown.
 */
export class SchemaAdapter {
  private readonly objects: Map<string, ObjectInfo>;
  /** Current key → known key, collected from the queries adapted so far. */
  private readonly reverse = new Map<string, string>();

  constructor(objects: readonly ObjectInfo[]) {
    this.objects = new Map(objects.map((object) => [object.name.toLowerCase(), object]));
  }

  private object(name: string): ObjectInfo | undefined {
    return this.objects.get(name.toLowerCase());
  }

  /** The current field for a known field name: itself, its replacement when deprecated, or the field with its label. */
  field(objectName: string, known: string): FieldInfo | undefined {
    const object = this.object(objectName);
    if (!object) return undefined;
    const byName = (name: string) => object.fields.find((field) => field.name === name);
    const same = byName(known);
    if (same?.replacedBy) return byName(same.replacedBy) ?? same;
    if (same) return same;
    const label = fieldLabel(known);
    return object.fields.find((field) => field.label === label && !field.replacedBy);
  }

  private fieldName(objectName: string, known: string): string {
    const name = this.field(objectName, known)?.name ?? known;
    if (name !== known) this.reverse.set(name, known);
    return name;
  }

  /** A relationship path (`Account.ShippingState`) in current names, and the object it ends on. */
  private path(objectName: string, path: string): string {
    const parts = path.split(".");
    let object = objectName;
    const out: string[] = [];
    for (const relationship of parts.slice(0, -1)) {
      const custom = relationship.endsWith("__r");
      const knownLookup = custom ? `${relationship.slice(0, -3)}__c` : `${relationship}Id`;
      const lookup = this.field(object, knownLookup);
      if (!lookup) {
        out.push(relationship);
        continue;
      }
      const current = lookup.relationshipName ?? (lookup.name.endsWith("__c") ? `${lookup.name.slice(0, -3)}__r` : lookup.name.slice(0, -2));
      if (current !== relationship) this.reverse.set(current, relationship);
      out.push(current);
      object = lookup.references[0] ?? object;
    }
    out.push(this.fieldName(object, parts[parts.length - 1]!));
    return out.join(".");
  }

  private fn(objectName: string, call: FunctionExp): void {
    call.parameters = (call.parameters ?? []).map((parameter) => {
      if (typeof parameter === "string") return this.path(objectName, parameter);
      this.fn(objectName, parameter as FunctionExp);
      return parameter;
    }) as typeof call.parameters;
    call.rawValue = `${call.functionName}(${(call.parameters ?? []).map((parameter) => (typeof parameter === "string" ? parameter : (parameter as FunctionExp).rawValue)).join(", ")})`;
  }

  private where(objectName: string, clause: WhereClause | undefined): void {
    let node = clause as { left?: (Condition & { field?: string; fn?: FunctionExp; valueQuery?: Query }) | null; right?: WhereClause } | undefined;
    while (node) {
      const condition = node.left;
      if (condition?.field) condition.field = this.path(objectName, condition.field);
      if (condition?.fn) this.fn(objectName, condition.fn);
      if (condition?.valueQuery) this.query(condition.valueQuery);
      node = node.right as typeof node;
    }
  }

  /** The conditions that keep a query to current records of an object, for the fields it has. */
  private currentConditions(objectName: string): Condition[] {
    // Found by name or label, as any other field: drift may have renamed IsActive.
    const current = (known: string) => this.field(objectName, known)?.name;
    const conditions: Condition[] = [];
    const deleted = current("IsDeleted");
    if (deleted) conditions.push({ field: deleted, operator: "=", value: "FALSE", literalType: "BOOLEAN" } as Condition);
    const status = current("PublishStatus");
    if (status) conditions.push({ field: status, operator: "=", value: "'Online'", literalType: "STRING" } as Condition);
    const active = current("IsActive");
    if (active) conditions.push({ field: active, operator: "=", value: "TRUE", literalType: "BOOLEAN" } as Condition);
    return conditions;
  }

  /** Puts the current-record conditions in front of a WHERE clause (the existing one in parentheses). */
  private liveOnly(objectName: string, clause: WhereClause | undefined): WhereClause | undefined {
    let result = clause;
    for (const live of this.currentConditions(objectName)) result = this.prepend(live, result);
    return result;
  }

  private prepend(live: Condition, clause: WhereClause | undefined): WhereClause {
    if (!clause) return { left: live } as WhereClause;
    const conditions: (Condition & { openParen?: number; closeParen?: number })[] = [];
    let node = clause as { left?: Condition | null; right?: WhereClause } | undefined;
    while (node) {
      if (node.left) conditions.push(node.left);
      node = node.right as typeof node;
    }
    conditions[0]!.openParen = (conditions[0]!.openParen ?? 0) + 1;
    conditions[conditions.length - 1]!.closeParen = (conditions[conditions.length - 1]!.closeParen ?? 0) + 1;
    return { left: live, operator: "AND", right: clause } as WhereClause;
  }

  private query(query: Query, objectName = query.sObject ?? ""): void {
    for (const item of query.fields ?? []) this.select(objectName, item);
    this.where(objectName, query.where);
    const where = this.liveOnly(objectName, query.where);
    if (where) query.where = where;
    for (const group of [query.groupBy ?? []].flat() as { field?: string; fn?: FunctionExp }[]) {
      if (group.field) group.field = this.path(objectName, group.field);
      if (group.fn) this.fn(objectName, group.fn);
    }
    for (const order of [query.orderBy ?? []].flat() as { field?: string; fn?: FunctionExp }[]) {
      if (order.field) order.field = this.path(objectName, order.field);
      if (order.fn) this.fn(objectName, order.fn);
    }
    if (query.having) this.where(objectName, query.having as WhereClause);
  }

  private select(objectName: string, item: SelectItem): void {
    if (item.type === "Field") item.field = this.fieldName(objectName, item.field);
    else if (item.type === "FieldRelationship") {
      const path = this.path(objectName, [...item.relationships, item.field].join(".")).split(".");
      item.relationships = path.slice(0, -1);
      item.field = path[path.length - 1]!;
      item.rawValue = path.join(".");
    } else if (item.type === "FieldFunctionExpression") this.fn(objectName, item);
    else if (item.type === "FieldSubquery") {
      const child = item.subquery.relationshipName.replace(/ies$/, "y").replace(/s$/, "");
      this.query(item.subquery as Query, child);
    }
  }

  /** A SOQL query in the org's current names, live records only. */
  soql(text: string): string {
    const query = soql.parseQuery(text);
    this.query(query);
    return soql.composeQuery(query);
  }

  /** A SOSL search with each RETURNING object's fields in current names and live records only. */
  sosl(text: string): string {
    return text.replace(
      /RETURNING\s+(.+)$/i,
      (_, returning: string) =>
        `RETURNING ${returning.replace(/([A-Za-z0-9_]+)\(([^)]*)\)/g, (_m: string, object: string, fields: string) => {
          const names = fields.split(",").map((field) => this.path(object, field.trim()));
          const current = this.currentConditions(object).map((condition) => {
            const { field, value } = condition as Condition & { field: string; value: string };
            return `${field} = ${value}`;
          });
          return `${object}(${names.join(", ")}${current.length > 0 ? ` WHERE ${current.join(" AND ")}` : ""})`;
        })}`,
    );
  }

  /** Records back under the names the queries were written with. */
  known<T>(value: T): T {
    if (Array.isArray(value)) return value.map((item) => this.known(item)) as T;
    if (value === null || typeof value !== "object") return value;
    return Object.fromEntries(Object.entries(value as Record<string, unknown>).map(([key, item]) => [this.reverse.get(key) ?? key, this.known(item)])) as T;
  }
}
