import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { describeSchema, soqlQuery, soslSearch, sqlQuery } from "../tools/index.js";
import { PACKAGE_VERSION } from "../version.js";
import type { Observation, PurpleAction } from "./session.js";

/** What a strategy can do in the org. Queries throw with the org's error message when they fail. */
export interface Tools {
  describe(object?: string): Promise<Observation>;
  soql(query: string): Promise<Record<string, unknown>[]>;
  sosl(search: string): Promise<Record<string, unknown>[]>;
  sql(query: string): Promise<Record<string, unknown>[]>;
  /** Any tool the green offers, by name (its observation's data part, whether it failed or not). */
  call(tool: string, args: Record<string, unknown>): Promise<Observation>;
}

/** A strategy's tools over any way of acting: each call an action, each answer the observation's data part. */
export function toolsOver(act: (action: PurpleAction) => Promise<Observation>, label: string): Tools {
  const records = async (action: PurpleAction, text: string) => {
    const observation = await act(action);
    if (observation.ok !== true) {
      const error = observation.error as { code?: string; message?: string } | undefined;
      throw new Error(`${error?.code ?? "ERROR"}: ${error?.message ?? "query failed"} (query: ${text}, ${label})`);
    }
    return (observation.records as Record<string, unknown>[]) ?? [];
  };
  const call = (tool: string, args: Record<string, unknown>): PurpleAction => ({ kind: "tool", tool, args });
  return {
    describe: (object) => act(call(describeSchema.name, object ? { object } : {})),
    soql: (query) => records(call(soqlQuery.name, { query }), query),
    sosl: (search) => records(call(soslSearch.name, { search }), search),
    sql: (query) => records(call(sqlQuery.name, { query }), query),
    call: (tool, args) => act(call(tool, args)),
  };
}

/** Where an episode's first message says its tools are served over MCP (crm_task.mcp), if it does. */
export function mcpUrlOf(data: Record<string, unknown>): string | undefined {
  const mcp = data.mcp as { url?: unknown } | undefined;
  return typeof mcp?.url === "string" ? mcp.url : undefined;
}

/**
 * A strategy's tools over the green's MCP endpoint, through the SDK's client: each call a
 * `tools/call`, its observation the result's structured content (the data part an in-message call
 * is answered with). A refusal (no structured content) reads as a failed observation with its text.
 */
export async function mcpTools(url: string): Promise<{ tools: Tools; close(): Promise<void> }> {
  const client = new Client({ name: "entropic-crmarena-reference-purple", version: PACKAGE_VERSION });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  const act = async (action: PurpleAction): Promise<Observation> => {
    if (action.kind !== "tool") throw new Error("the answer is no MCP call: it goes in the A2A reply");
    const result = await client.callTool({ name: action.tool, arguments: { ...action.args } });
    if (result.structuredContent) return result.structuredContent as Observation;
    const text = (result.content as { type: string; text?: string }[]).map((part) => part.text ?? "").join("\n");
    return { type: "tool_result", ok: false, error: { code: "REFUSED", message: text } };
  };
  return { tools: toolsOver(act, "over MCP"), close: () => client.close() };
}
