export { MCP_INSTRUCTIONS, mcpTools } from "./episode-server.js";
export { MCP_LIMITS, McpHub, NO_EPISODE } from "./hub.js";
