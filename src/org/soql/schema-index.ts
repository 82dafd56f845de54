import type { FieldInfo, ObjectInfo, OrgSchema } from "../types.js";
import { invalidType, noSuchColumn, unknownRelationship } from "./errors.js";

/** A parent relationship: the lookup field, its target, and the relationship's canonical name. */
export interface ParentRelationship {
  readonly name: string;
  readonly field: FieldInfo;
  readonly target: ObjectInfo;
}

/** A child relationship (`Cases` on Account): the child object and its lookup field to the parent. */
export interface ChildRelationship {
  readonly name: string;
  readonly child: ObjectInfo;
  readonly field: FieldInfo;
}

/** The compound Name field of objects with FirstName and LastName (computed, not stored). */
export const COMPOUND_NAME: FieldInfo = { name: "Name", label: "Full Name", type: "string", references: [], nullable: true };

/** The first- and last-name fields of a person object, found by label (drift renames the API names). */
export function nameParts(object: ObjectInfo): [FieldInfo, FieldInfo] | undefined {
  const first = object.fields.find((field) => field.label === "First Name");
  const last = object.fields.find((field) => field.label === "Last Name");
  return first && last ? [first, last] : undefined;
}

/** Plural of an object name as Salesforce names child relationships (Case → Cases, Opportunity → Opportunities). */
function plural(name: string): string {
  if (/[^aeiou]y$/i.test(name)) return `${name.slice(0, -1)}ies`;
  if (/(s|x|ch|sh)$/i.test(name)) return `${name}es`;
  return `${name}s`;
}

/** Case-insensitive lookups of objects, fields and relationships, as SOQL resolves names. */
export class SchemaIndex {
  private readonly objects: Map<string, ObjectInfo>;

  constructor(readonly schema: OrgSchema) {
    this.objects = new Map(schema.objects.map((object) => [object.name.toLowerCase(), object]));
  }

  object(name: string): ObjectInfo {
    const object = this.objects.get(name.toLowerCase());
    if (!object) throw invalidType(name);
    return object;
  }

  /** The object's record Id field: `Id`, unless drift renamed it. */
  idField(object: ObjectInfo): FieldInfo {
    return object.fields.find((field) => field.type === "id") ?? this.field(object, "Id");
  }

  field(object: ObjectInfo, name: string): FieldInfo {
    const field = object.fields.find((candidate) => candidate.name.toLowerCase() === name.toLowerCase());
    if (field) return field;
    // People have a compound Name in Salesforce even where the table stores only its parts.
    if (name.toLowerCase() === "name" && nameParts(object)) return COMPOUND_NAME;
    throw noSuchColumn(name, object.name);
  }

  /** Salesforce's recycle-bin flag `IsDeleted`, where the object has it as a boolean. */
  deletedFlag(object: ObjectInfo): FieldInfo | undefined {
    return object.fields.find((field) => field.name.toLowerCase() === "isdeleted" && field.type === "boolean");
  }

  /** `Account` → AccountId, `Owner` → OwnerId, `OrderItemId__r` → OrderItemId__c. */
  parent(object: ObjectInfo, relationship: string): ParentRelationship {
    const lower = relationship.toLowerCase();
    // As on Salesforce: a custom lookup (X__c) is reached only as X__r, a standard one (XId) as X.
    const candidates = lower.endsWith("__r") ? [`${lower.slice(0, -3)}__c`] : [`${lower}id`];
    for (const candidate of candidates) {
      const field = object.fields.find((f) => f.name.toLowerCase() === candidate && f.type === "reference");
      if (field && field.references.length > 0) {
        const name = field.name.endsWith("__c") ? `${field.name.slice(0, -3)}__r` : field.name.slice(0, -2);
        return { name, field, target: this.object(field.references[0]!) };
      }
    }
    throw unknownRelationship(relationship, object.name);
  }

  /** `Cases` on Account → Case.AccountId; custom children answer to `<Plural>__r` too. */
  child(parent: ObjectInfo, relationship: string): ChildRelationship {
    const lower = relationship.toLowerCase();
    for (const child of this.schema.objects) {
      const base = child.name.replace(/__c$/, "");
      const names = [plural(base), `${plural(base)}__r`].map((name) => name.toLowerCase());
      if (!names.includes(lower)) continue;
      const links = child.fields.filter((field) => field.type === "reference" && field.references.includes(parent.name));
      const field = links.find((candidate) => candidate.name.toLowerCase().startsWith(parent.name.toLowerCase())) ?? links[0];
      if (field) return { name: relationship, child, field };
    }
    throw unknownRelationship(relationship, parent.name);
  }
}
