import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import { PACKAGE_VERSION } from "../../version.js";
import type { FunctionTool } from "./model.js";

/** What one MCP tool call gave back: the text the model reads, the replies left when the green says, and whether it was refused. */
export interface McpCallResult {
  readonly text: string;
  readonly remaining: number | undefined;
  readonly isError: boolean;
}

/**
 * The green's MCP endpoint of one episode, through the SDK's client: its tools as the model's
 * function tools (as the endpoint lists them: nothing written here), and each call's result.
 */
export class McpToolbox {
  private constructor(
    private readonly client: Client,
    readonly tools: readonly FunctionTool[],
  ) {}

  static async connect(url: string): Promise<McpToolbox> {
    const client = new Client({ name: "entropic-crmarena-llm-purple", version: PACKAGE_VERSION });
    await client.connect(new StreamableHTTPClientTransport(new URL(url)));
    try {
      const { tools } = await client.listTools();
      return new McpToolbox(
        client,
        tools.map((tool) => ({ type: "function", function: { name: tool.name, ...(tool.description ? { description: tool.description } : {}), parameters: tool.inputSchema } })),
      );
    } catch (error) {
      await client.close();
      throw error;
    }
  }

  async call(name: string, args: Record<string, unknown>, signal: AbortSignal): Promise<McpCallResult> {
    const result = await this.client.callTool({ name, arguments: args }, undefined, { signal });
    const text = ((result.content ?? []) as { type: string; text?: string }[]).map((part) => part.text ?? "").join("\n");
    const left = (result.structuredContent as { remaining_steps?: unknown } | undefined)?.remaining_steps;
    return { text, remaining: typeof left === "number" ? left : undefined, isError: result.isError === true };
  }

  close(): Promise<void> {
    return this.client.close();
  }
}
