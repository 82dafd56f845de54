import { BUILT_IN_TOOLS, type ToolDefinition, type ToolSpec, toolDefinitions } from "../tools/index.js";

export type { ToolDefinition } from "../tools/index.js";

/** The definitions of every built-in tool: what a purple is sent on an org that has them all (the embedded SQLite org). */
export const TOOL_DEFINITIONS: readonly ToolDefinition[] = toolDefinitions(BUILT_IN_TOOLS);

/** The definitions a run sends, from the tools its backend offers. */
export function definitionsOf(tools: readonly ToolSpec[]): ToolDefinition[] {
  return toolDefinitions(tools);
}
