import type { SchemaField, SchemaObject } from "../tools/index.js";

/** A field as describe_schema shows it. */
export type DescribedField = SchemaField;

/** An object as describe_schema shows it. */
export type DescribedObject = SchemaObject;

/**
 * The schema as text, as `describe_schema` shows it: each field's API name, label, type, the
 * objects a lookup points to with its relationship name, and any note (recycle-bin flag, deprecation).
 */
export function describeObjects(objects: readonly DescribedObject[]): string {
  return objects
    .map((object) => {
      const header = `${object.name} (${object.rowCount} records${object.keyPrefix ? `, Id prefix ${object.keyPrefix}` : ""})`;
      const fields = object.fields.map((field) => {
        const target = field.references.length > 0 ? ` -> ${field.references.join(" | ")}${field.relationshipName ? ` (relationship ${field.relationshipName})` : ""}` : "";
        const note = field.note ? ` [${field.note}]` : "";
        return `  - ${field.name} ("${field.label}"): ${field.type}${target}${note}`;
      });
      return [header, ...fields].join("\n");
    })
    .join("\n");
}
