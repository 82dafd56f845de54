import { firstIssue, NamedRegistry } from "../util/index.js";
import { BUILT_IN_TOOLS } from "./builtin.js";
import { type ToolDefinition, toolDefinition } from "./json-schema.js";
import type { Capability, QueryContext, ToolOutcome, ToolPort } from "./port.js";
import type { OrgToolSpec, ToolSpec } from "./spec.js";

const registry = new NamedRegistry<ToolSpec>("tool", BUILT_IN_TOOLS);

/** Adds a tool (after the built-in ones); the returned function removes it again. */
export const registerTool = (spec: ToolSpec): (() => void) => registry.register(spec);

/** Every registered tool, in the order the purple is shown them. */
export function registeredTools(): readonly ToolSpec[] {
  return registry.all();
}

export function findTool(name: string): ToolSpec | undefined {
  return registry.named(name);
}

/** The tools a backend with these capabilities can run, plus the answer tool. */
export function offeredTools(capabilities: ReadonlySet<Capability>): readonly ToolSpec[] {
  return registry.all().filter((spec) => spec.final || spec.requires.every((capability) => capabilities.has(capability)));
}

/** The tools of these names, in registry order; a name no tool has is an error. */
export function toolsNamed(names: readonly string[]): readonly ToolSpec[] {
  const unknown = names.filter((name) => !findTool(name));
  if (unknown.length > 0) throw new Error(`unknown tools ${unknown.join(", ")}; the tools are ${registry.names().join(", ")}`);
  return registry.all().filter((spec) => names.includes(spec.name));
}

export function toolDefinitions(tools: readonly ToolSpec[]): ToolDefinition[] {
  return tools.map(toolDefinition);
}

/** A call of a tool the org answers: the tool's name and its arguments beside it (`{tool: "soql_query", query}`). */
export type ToolRequest = { readonly tool: string } & Readonly<Record<string, unknown>>;

/**
 * Runs one call against a port: the tool looked up by name, its arguments checked by its zod,
 * its capabilities checked against the port. Never throws for a bad call: an unknown tool, bad
 * arguments or a tool this backend cannot run come back as error outcomes.
 */
export async function runTool(port: ToolPort, request: ToolRequest, context: QueryContext): Promise<ToolOutcome> {
  const { tool, ...args } = request;
  const spec = findTool(tool);
  if (!spec || spec.final) {
    const known = registry
      .all()
      .filter((candidate): candidate is OrgToolSpec => !candidate.final)
      .map((candidate) => candidate.name);
    return { ok: false, code: "INVALID_TOOL", message: `unknown tool ${JSON.stringify(tool)}; the org's tools are ${known.join(", ")}`, elapsedMs: 0 };
  }
  const missing = spec.requires.filter((capability) => !port.capabilities.has(capability));
  if (missing.length > 0) return { ok: false, code: "INVALID_TOOL", message: `${tool} is not available on this org (it has no ${missing.join(", ")})`, elapsedMs: 0 };
  const parsed = spec.arguments.safeParse(Object.fromEntries(Object.entries(args).filter(([, value]) => value !== undefined)));
  if (!parsed.success) {
    const issue = firstIssue(parsed.error);
    return { ok: false, code: "INVALID_ARGUMENTS", message: `bad argument '${issue.path || "arguments"}' for ${tool}: ${issue.message}`, elapsedMs: 0 };
  }
  return spec.run(parsed.data, port, context);
}
