import type { OrgStore } from "./store.js";
import type { ObjectInfo, SqlRow } from "./types.js";

/** A call the org can answer: the protocol's tool calls, minus `respond`. */
export type OrgRequest = { readonly tool: "describe_schema"; readonly object?: string } | { readonly tool: "sql_query"; readonly query: string };

/** What a tool call produced, before it is rendered for the purple agent. */
export type ToolOutcome =
  | { readonly ok: true; readonly kind: "records"; readonly records: readonly SqlRow[]; readonly truncated: boolean; readonly elapsedMs: number }
  | { readonly ok: true; readonly kind: "schema"; readonly objects: readonly ObjectInfo[]; readonly elapsedMs: number }
  | { readonly ok: false; readonly code: string; readonly message: string; readonly elapsedMs: number };

/** Runs one tool call against the org. Never throws: failures come back as error outcomes. */
export async function runOrgTool(org: OrgStore, request: OrgRequest): Promise<ToolOutcome> {
  if (request.tool === "describe_schema") {
    if (request.object === undefined) return { ok: true, kind: "schema", objects: org.schema.objects, elapsedMs: 0 };
    const object = org.findObject(request.object);
    if (!object) {
      return {
        ok: false,
        code: "INVALID_TYPE",
        message: `sObject type '${request.object}' is not supported. The objects are: ${org.schema.objects.map((o) => o.name).join(", ")}`,
        elapsedMs: 0,
      };
    }
    return { ok: true, kind: "schema", objects: [object], elapsedMs: 0 };
  }
  const outcome = await org.query(request.query);
  if (!outcome.ok) return outcome;
  return { ok: true, kind: "records", records: outcome.rows, truncated: outcome.truncated, elapsedMs: outcome.elapsedMs };
}

/** The schema as text: what `describe_schema` shows the purple agent. */
export function describeObjects(objects: readonly ObjectInfo[]): string {
  return objects
    .map((object) => {
      const header = `${object.name} (${object.rowCount} records${object.keyPrefix ? `, Id prefix ${object.keyPrefix}` : ""})`;
      const fields = object.fields.map((field) => {
        const target = field.references.length > 0 ? ` -> ${field.references.join(" | ")}` : "";
        return `  - ${field.name}: ${field.type}${target}`;
      });
      return [header, ...fields].join("\n");
    })
    .join("\n");
}
