import type { Server } from "node:http";
import type { Logger } from "pino";
import { createLogger } from "../../util/index.js";
import { serveAgent } from "../server.js";
import type { LlmPurpleConfig } from "./config.js";
import { LlmExecutor } from "./executor.js";
import { type ChatModel, OpenAiChatModel } from "./model.js";

export {
  FAILURE_ANSWER,
  type FailurePolicy,
  LLM_MODES,
  type LlmMode,
  type LlmPurpleConfig,
  LlmPurpleConfigError,
  type LlmPurpleOverrides,
  llmPurpleConfigFromEnv,
} from "./config.js";
export { Episode, type Incoming, type TurnResult } from "./episode.js";
export { LlmExecutor } from "./executor.js";
export { Conversation, trimToTokens } from "./history.js";
export {
  type ChatMessage,
  type ChatModel,
  type ChatReply,
  type ChatRequest,
  type FunctionTool,
  isContextOverflow,
  type ModelToolCall,
  OpenAiChatModel,
  type TokenUsage,
} from "./model.js";
export { SessionStore } from "./sessions.js";

export interface ServeLlmPurpleOptions {
  readonly config: LlmPurpleConfig;
  readonly host: string;
  readonly port: number;
  readonly basePath?: string;
  /** The URL the agent card advertises (AgentBeats passes `--card-url`). */
  readonly cardUrl?: string;
  /** The model to drive; an {@link OpenAiChatModel} on the configured endpoint by default. */
  readonly model?: ChatModel;
  /** The fetch the default model uses (tests script the provider through it). */
  readonly fetch?: typeof fetch;
  readonly logger?: Logger;
}

/**
 * Starts the baseline LLM purple agent: an A2A server (one context per episode) that drives an
 * OpenAI-compatible chat model through the green's tools (docs/llm-purple.md).
 */
export async function serveLlmPurple(options: ServeLlmPurpleOptions): Promise<{ server: Server; url: string; executor: LlmExecutor }> {
  const logger = options.logger ?? createLogger();
  const model = options.model ?? new OpenAiChatModel(options.config, options.fetch);
  const executor = new LlmExecutor(options.config, model, logger);
  const how = { tools: "native tool calling", text: "CRMArena-Pro <execute>/<respond> tags", mcp: "native tool calling with the tools of the green's MCP endpoint" }[
    options.config.mode
  ];
  const description = `A baseline LLM purple agent: ${model.model} through an OpenAI-compatible endpoint, ${how}.`;
  const { server, url } = await serveAgent({
    name: "llm",
    executor,
    host: options.host,
    port: options.port,
    description,
    ...(options.basePath ? { basePath: options.basePath } : {}),
    ...(options.cardUrl ? { cardUrl: options.cardUrl } : {}),
  });
  return { server, url, executor };
}
