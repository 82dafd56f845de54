import { z } from "zod";
import type { ToolSpec } from "./spec.js";

/** An OpenAI function-calling tool definition, as sent to the purple agent. */
export interface ToolDefinition {
  readonly type: "function";
  readonly function: { readonly name: string; readonly description: string; readonly parameters: Record<string, unknown> };
}

/** Keywords of the generated schema that the purple is not shown: the checks stay in the zod and name the field when they fail. */
const UNSHOWN = new Set(["$schema", "additionalProperties", "minLength"]);

function shown(schema: Record<string, unknown>): Record<string, unknown> {
  const { type, ...rest } = schema;
  return Object.fromEntries(Object.entries({ ...(type !== undefined ? { type } : {}), ...rest }).filter(([key]) => !UNSHOWN.has(key)));
}

/**
 * The JSON schema a tool's parameters are sent as, generated from its zod: the object's
 * properties (type first, then the description), and `required` always present, as OpenAI's
 * function schemas are usually written.
 */
export function parametersOf(spec: ToolSpec): Record<string, unknown> {
  let parameters = GENERATED.get(spec);
  if (parameters === undefined) {
    parameters = deepFreeze(generateParameters(spec));
    GENERATED.set(spec, parameters);
  }
  return parameters;
}

/**
 * A spec's schema is generated once: zod's conversion cost 0.39 ms a task when every episode's
 * first message regenerated it. Frozen, since every run shares the one value.
 */
const GENERATED = new WeakMap<ToolSpec, Record<string, unknown>>();

function deepFreeze<T>(value: T): T {
  if (value !== null && typeof value === "object" && !Object.isFrozen(value)) {
    Object.freeze(value);
    for (const inner of Object.values(value)) deepFreeze(inner);
  }
  return value;
}

function generateParameters(spec: ToolSpec): Record<string, unknown> {
  const generated = z.toJSONSchema(spec.parameters ?? spec.arguments, { io: "input", unrepresentable: "any" }) as Record<string, unknown>;
  const properties = Object.fromEntries(
    Object.entries((generated.properties as Record<string, Record<string, unknown>> | undefined) ?? {}).map(([name, property]) => [name, shown(property)]),
  );
  return { type: "object", properties, required: generated.required ?? [] };
}

export function toolDefinition(spec: ToolSpec): ToolDefinition {
  return { type: "function", function: { name: spec.name, description: spec.description, parameters: parametersOf(spec) } };
}
