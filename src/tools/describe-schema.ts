import { z } from "zod";
import { defineTool } from "./spec.js";

export const describeSchema = defineTool({
  name: "describe_schema",
  final: false,
  description: "Describe the org's objects: fields, types, relationships (references) and row counts. Give `object` for one object, omit it for all.",
  arguments: z.object({ object: z.string().min(1).optional().describe("Object name, e.g. Case. Omit to list every object.") }).strict(),
  requires: [],
  queryText: () => undefined,
  trim: (args) => args,
  show: (args) => `describe_schema${args.object ? `: ${args.object}` : ""}`,
  reminder: { slot: "schema", rank: 2, args: {} },
  async run(args, port) {
    if (args.object === undefined) return { ok: true, kind: "schema", objects: port.schema.objects, elapsedMs: 0 };
    const wanted = args.object.trim().toLowerCase();
    const object = port.schema.objects.find((candidate) => candidate.name.toLowerCase() === wanted);
    if (!object) {
      return {
        ok: false,
        code: "INVALID_TYPE",
        message: `sObject type '${args.object}' is not supported. The objects are: ${port.schema.objects.map((o) => o.name).join(", ")}`,
        elapsedMs: 0,
      };
    }
    return { ok: true, kind: "schema", objects: [object], elapsedMs: 0 };
  },
});
