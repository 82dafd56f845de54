import type { OrgChange } from "./changes.js";
import type { FieldInfo, ObjectInfo, OrgSchema } from "./types.js";

/*
 * What a list of changes does to a schema, apart from the changes' zod schemas (changes.ts): the
 * thread that derives org copies needs these functions, not zod, whose compiled modules cost a
 * warm thread about 12 MB of memory.
 */

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
