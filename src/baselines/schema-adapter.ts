import soql from "soql-parser-js";
import type { Condition, FieldType as SelectItem, FunctionExp, Query, WhereClause } from "soql-parser-js";
import type { FieldInfo, ObjectInfo } from "../org/types.js";
import { fieldLabel } from "../util/names.js";

/**
 * What a careful agent does with a drifted org: it writes queries with the field names it knows,
 * then maps each to the org's current API name through the field labels `describe_schema` shows,
 * filters out recycle-bin records (`IsDeleted = false`), and reads the answers back under the names
 * it knows. Nothing here knows the rename map: only the schema the purple agent was shown.
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

  /** The current field for a known field name, found by its label. */
  field(objectName: string, known: string): FieldInfo | undefined {
    const object = this.object(objectName);
    if (!object) return undefined;
    const label = fieldLabel(known);
    return object.fields.find((field) => field.name === known) ?? object.fields.find((field) => field.label === label);
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
      const current = lookup.name.endsWith("__c") ? `${lookup.name.slice(0, -3)}__r` : lookup.name.slice(0, -2);
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

  /** Adds `IsDeleted = false` in front of a WHERE clause (the existing one in parentheses). */
  private liveOnly(objectName: string, clause: WhereClause | undefined): WhereClause {
    const live = { field: "IsDeleted", operator: "=", value: "FALSE", literalType: "BOOLEAN" } as Condition;
    if (!this.object(objectName)?.fields.some((field) => field.name === "IsDeleted")) return clause ?? ({ left: live } as WhereClause);
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
    query.where = this.liveOnly(objectName, query.where);
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
    return text.replace(/RETURNING\s+(.+)$/i, (_, returning: string) =>
      `RETURNING ${returning.replace(/([A-Za-z0-9_]+)\(([^)]*)\)/g, (_m: string, object: string, fields: string) => {
        const names = fields.split(",").map((field) => this.path(object, field.trim()));
        return `${object}(${names.join(", ")}${this.object(object)?.fields.some((field) => field.name === "IsDeleted") ? " WHERE IsDeleted = false" : ""})`;
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
