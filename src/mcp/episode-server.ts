import type { IncomingMessage, ServerResponse } from "node:http";
import type { CallToolResult, Tool } from "@modelcontextprotocol/sdk/types.js";
import type { ChannelEpisode } from "../assessment/index.js";
import { parametersOf, type ToolSpec } from "../tools/index.js";

/** What the server tells a client at `initialize`: how calls count, and where the answer goes. */
export const MCP_INSTRUCTIONS =
  "The read-only CRM org of one Entropic CRMArena episode. Each tool call counts as one of the episode's replies (max_steps), as a tool call in an A2A reply does; every result ends with the replies left. The final answer is not a tool here: give it in your A2A reply to the episode's message.";

/**
 * An episode's tools as MCP tools: the registry's names, descriptions and JSON schemas, the very
 * schemas the first message shows (`parametersOf`), for the tools the episode's org offers.
 */
export function mcpTools(tools: readonly ToolSpec[]): Tool[] {
  return tools.filter((spec) => !spec.final).map((spec) => ({ name: spec.name, description: spec.description, inputSchema: parametersOf(spec) as Tool["inputSchema"] }));
}

/**
 * The SDK's server, transport and request schemas, loaded at the first MCP request: with what it
 * brings (ajv, jose, zod-to-json-schema, hono: about 250 modules) it was about 4 MB of heap and
 * 100 ms of start-up CPU in every server, most of whose runs never see an MCP client.
 */
function mcpSdk(): ReturnType<typeof loadMcpSdk> {
  sdk ??= loadMcpSdk();
  return sdk;
}
let sdk: ReturnType<typeof loadMcpSdk> | undefined;

function loadMcpSdk() {
  return Promise.all([
    import("@modelcontextprotocol/sdk/server/index.js"),
    import("@modelcontextprotocol/sdk/server/streamableHttp.js"),
    import("@modelcontextprotocol/sdk/types.js"),
  ]).then(([server, transport, types]) => ({
    Server: server.Server,
    StreamableHTTPServerTransport: transport.StreamableHTTPServerTransport,
    CallToolRequestSchema: types.CallToolRequestSchema,
    ListToolsRequestSchema: types.ListToolsRequestSchema,
  }));
}

/**
 * Answers one HTTP request of an episode's MCP client with the SDK: a server and a stateless
 * transport made for the request (the token, not a session, says which episode it is), JSON
 * replies rather than SSE streams, closed when the reply is written.
 */
export async function serveEpisodeRequest(episode: ChannelEpisode, req: IncomingMessage, res: ServerResponse, options: { version: string; bytes: number }): Promise<void> {
  const { Server, StreamableHTTPServerTransport, CallToolRequestSchema, ListToolsRequestSchema } = await mcpSdk();
  const server = new Server({ name: "entropic-crmarena", version: options.version }, { capabilities: { tools: {} }, instructions: MCP_INSTRUCTIONS });
  server.setRequestHandler(ListToolsRequestSchema, () => ({ tools: mcpTools(episode.tools) }));
  server.setRequestHandler(CallToolRequestSchema, async (request): Promise<CallToolResult> => {
    const answer = await episode.call(request.params.name, request.params.arguments ?? {}, options.bytes);
    // A refusal is a tool error the model reads (its framework goes on and the purple can still answer), not a protocol error.
    if (answer.kind === "refused") return { content: [{ type: "text", text: `Refused: ${answer.reason}.` }], isError: true };
    return { content: [{ type: "text", text: answer.message.text }], structuredContent: answer.message.data, isError: !answer.ok };
  });
  const transport = new StreamableHTTPServerTransport({ sessionIdGenerator: undefined, enableJsonResponse: true });
  res.on("close", () => {
    void transport.close();
    void server.close();
  });
  await server.connect(transport);
  await transport.handleRequest(req, res, (req as IncomingMessage & { body?: unknown }).body);
}
