import { z } from "zod";
import type { FieldInfo, ObjectInfo, OrgSchema } from "./types.js";

/**
 * What a backend can be asked to change in its own copy of the org: the vocabulary in which an
 * entropy plan speaks (entropy decides what changes; the backend applies it; the base org is
 * never written). Every change is plain data, so a plan is serialisable and logged.
 */
const SqlValueSchema = z.union([z.string(), z.number(), z.null()]);
const FieldTypeSchema = z.enum(["id", "reference", "string", "date", "datetime", "int", "double", "boolean"]);

/** A field a change adds, with what describe_schema says of it. */
export const FieldSpecSchema = z.object({
  name: z.string().min(1),
  label: z.string().min(1),
  type: FieldTypeSchema,
  references: z.array(z.string()).default([]),
  note: z.string().optional(),
});
export type FieldSpec = z.infer<typeof FieldSpecSchema>;

export const OrgChangeSchema = z.discriminatedUnion("op", [
  /** A new field on every record of an object, set to `value`. */
  z.object({ op: z.literal("add_field"), object: z.string(), field: FieldSpecSchema, value: SqlValueSchema }),
  /** A field under a new API name; its label, type and values stay. */
  z.object({ op: z.literal("rename_field"), object: z.string(), from: z.string(), to: z.string() }),
  /** A new field holding a copy of another's values, with its label and type. */
  z.object({ op: z.literal("copy_field"), object: z.string(), from: z.string(), to: z.string() }),
  /** A note describe_schema shows beside a field; `replacedBy` marks it deprecated in favour of another. */
  z.object({ op: z.literal("annotate_field"), object: z.string(), field: z.string(), note: z.string(), replacedBy: z.string().optional() }),
  /** One value written into a field of the records with these Ids. */
  z.object({ op: z.literal("set_values"), object: z.string(), field: z.string(), ids: z.array(z.string()), value: SqlValueSchema }),
  /** New records (every field by name; missing ones are null). */
  z.object({ op: z.literal("insert_records"), object: z.string(), records: z.array(z.record(z.string(), SqlValueSchema)) }),
]);
export type OrgChange = z.infer<typeof OrgChangeSchema>;

/** Salesforce's relationship name of a lookup: `AccountId` → `Account`, `Contract__c` → `Contract__r`. */
export function relationshipNameOf(fieldName: string): string {
  if (fieldName.endsWith("__c")) return `${fieldName.slice(0, -3)}__r`;
  return fieldName.endsWith("Id") ? fieldName.slice(0, -2) : fieldName;
}

function requireField(object: Pick<ObjectInfo, "name" | "fields">, name: string): FieldInfo {
  const field = object.fields.find((candidate) => candidate.name === name);
  if (!field) throw new Error(`a change names field ${object.name}.${name}, which the org does not have`);
  return field;
}

/**
 * The schema after a list of changes, without touching data: what a planner sees of the changes
 * planned before its own, and what a backend's describe must agree with. Pure.
 */
export function schemaAfter(schema: OrgSchema, changes: readonly OrgChange[]): OrgSchema {
  type Draft = { name: string; keyPrefix: string | null; rowCount: number; fields: FieldInfo[] };
  const objects = new Map<string, Draft>(schema.objects.map((object) => [object.name, { ...object, fields: [...object.fields] }]));
  for (const change of changes) {
    const object = objects.get(change.object);
    if (!object) throw new Error(`a change names object ${change.object}, which the org does not have`);
    const fields = object.fields;
    switch (change.op) {
      case "add_field": {
        const { name, label, type, references, note } = change.field;
        fields.push({
          name,
          label,
          type,
          references,
          nullable: change.value === null,
          ...(type === "reference" ? { relationshipName: relationshipNameOf(name) } : {}),
          ...(note ? { note } : {}),
        });
        break;
      }
      case "rename_field": {
        const index = fields.indexOf(requireField(object, change.from));
        const field = fields[index]!;
        fields[index] = { ...field, name: change.to, ...(field.type === "reference" ? { relationshipName: relationshipNameOf(change.to) } : {}) };
        break;
      }
      case "copy_field": {
        const { note: _note, replacedBy: _replaced, ...source } = requireField(object, change.from);
        fields.push({ ...source, name: change.to, ...(source.type === "reference" ? { relationshipName: relationshipNameOf(change.to) } : {}) });
        break;
      }
      case "annotate_field": {
        const index = fields.indexOf(requireField(object, change.field));
        fields[index] = { ...fields[index]!, note: change.note, ...(change.replacedBy ? { replacedBy: change.replacedBy } : {}) };
        break;
      }
      case "set_values":
        requireField(object, change.field);
        break;
      case "insert_records":
        // Describe counts live records: recycle-bin rows would give the rot level away.
        object.rowCount += change.records.filter((record) => record.IsDeleted !== 1).length;
        break;
    }
  }
  return { objects: schema.objects.map((object) => objects.get(object.name)!) };
}
