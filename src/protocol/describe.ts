import type { SchemaObject } from "../tools/index.js";

/**
 * The schema as text, as `describe_schema` shows it: each field's API name, label, type, the
 * objects a lookup points to with its relationship name, and any note (recycle-bin flag, deprecation).
 */
export function describeObjects(objects: readonly SchemaObject[]): string {
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
