import { BUILT_IN_TOOLS, type ToolDefinition, type ToolSpec, toolDefinitions } from "../tools/index.js";

export type { ToolDefinition } from "../tools/index.js";

/** The definitions of every built-in tool: what a purple is sent on an org that has them all (the embedded SQLite org). */
export const TOOL_DEFINITIONS: readonly ToolDefinition[] = toolDefinitions(BUILT_IN_TOOLS);

/** A set of tools as the purple is sent it: the definitions (shared, never written to) and their JSON text. */
export interface ToolSet {
  readonly definitions: readonly ToolDefinition[];
  readonly json: string;
}

/**
 * Tool sets made once each: every task message of a run sends the same definitions, twice (in
 * the text and in the data part), and the registry changes only when a tool is registered, so a
 * set is known by its specs themselves.
 */
const TOOL_SETS = new Map<string, { readonly specs: readonly ToolSpec[]; readonly set: ToolSet }>();

/** The definitions a run sends, from the tools its backend offers, with their JSON text. */
export function toolSetOf(tools: readonly ToolSpec[]): ToolSet {
  const key = tools.map((spec) => spec.name).join("\n");
  const known = TOOL_SETS.get(key);
  if (known && known.specs.length === tools.length && known.specs.every((spec, i) => spec === tools[i])) return known.set;
  const json = JSON.stringify(toolDefinitions(tools));
  // Plain objects read back from the text, not frozen ones: a frozen object anywhere in a message
  // takes JSON.stringify off its fast path, and a first message was serialised three times slower.
  const set: ToolSet = { definitions: JSON.parse(json) as readonly ToolDefinition[], json };
  TOOL_SETS.set(key, { specs: [...tools], set });
  return set;
}

/** The definitions a run sends, from the tools its backend offers. */
export function definitionsOf(tools: readonly ToolSpec[]): readonly ToolDefinition[] {
  return toolSetOf(tools).definitions;
}
