import OpenAI, { APIError } from "openai";
import type { ChatCompletionMessageParam, ChatCompletionTool } from "openai/resources/chat/completions";
import type { LlmPurpleConfig } from "./config.js";

/** One tool call the model asked for; `arguments` is the raw JSON text the model wrote. */
export interface ModelToolCall {
  readonly id: string;
  readonly name: string;
  readonly arguments: string;
}

/** The conversation, in a provider-neutral shape. */
export type ChatMessage =
  | { readonly role: "system" | "user"; readonly content: string }
  | { readonly role: "assistant"; readonly content: string; readonly toolCalls?: readonly ModelToolCall[] }
  | { readonly role: "tool"; readonly toolCallId: string; readonly content: string };

/** An OpenAI function schema, as the green's `crm_task` data part lists them. */
export interface FunctionTool {
  readonly type: "function";
  readonly function: { readonly name: string; readonly description?: string; readonly parameters?: Record<string, unknown> };
}

export interface ChatRequest {
  readonly messages: readonly ChatMessage[];
  /** Absent in text mode. */
  readonly tools?: readonly FunctionTool[];
}

export interface TokenUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

export interface ChatReply {
  readonly content: string;
  readonly toolCalls: readonly ModelToolCall[];
  /** As the provider reported it; undefined when it did not (the caller estimates). */
  readonly usage: TokenUsage | undefined;
}

/** The seam between the agent and a provider: tests inject a scripted one or a scripted fetch. */
export interface ChatModel {
  readonly model: string;
  complete(request: ChatRequest, signal: AbortSignal): Promise<ChatReply>;
}

/**
 * A chat model behind any OpenAI-compatible endpoint. The SDK retries 429, 5xx, timeouts and
 * connection errors with backoff and honours `retry-after`/`retry-after-ms`; `timeoutMs` bounds
 * each attempt and the caller's signal bounds them all.
 */
export class OpenAiChatModel implements ChatModel {
  readonly model: string;
  private readonly client: OpenAI;
  /** Newer OpenAI models refuse `max_tokens` and older compatible servers do not know its successor: learn which. */
  private tokenLimitParam: "max_tokens" | "max_completion_tokens" = "max_tokens";
  private sendTemperature: boolean;

  constructor(
    private readonly config: Pick<LlmPurpleConfig, "apiKey" | "baseURL" | "model" | "maxTokens" | "temperature" | "timeoutMs" | "maxRetries">,
    fetchImpl?: typeof fetch,
  ) {
    this.model = config.model;
    this.sendTemperature = config.temperature !== undefined;
    this.client = new OpenAI({
      apiKey: config.apiKey,
      ...(config.baseURL ? { baseURL: config.baseURL } : {}),
      timeout: config.timeoutMs,
      maxRetries: config.maxRetries,
      ...(fetchImpl ? { fetch: fetchImpl } : {}),
    });
  }

  async complete(request: ChatRequest, signal: AbortSignal): Promise<ChatReply> {
    for (let attempt = 0; ; attempt++) {
      try {
        return await this.completeOnce(request, signal);
      } catch (error) {
        if (attempt < 2 && this.adaptTo(error)) continue;
        throw error;
      }
    }
  }

  /** Adjusts to a 400 that names a parameter this model refuses; true when the call is worth repeating. */
  private adaptTo(error: unknown): boolean {
    if (!(error instanceof APIError) || error.status !== 400) return false;
    if (this.tokenLimitParam === "max_tokens" && /max_completion_tokens/.test(error.message)) {
      this.tokenLimitParam = "max_completion_tokens";
      return true;
    }
    if (this.sendTemperature && /temperature/i.test(error.message) && /unsupported|not support|only the default/i.test(error.message)) {
      this.sendTemperature = false;
      return true;
    }
    return false;
  }

  private async completeOnce(request: ChatRequest, signal: AbortSignal): Promise<ChatReply> {
    const response = await this.client.chat.completions.create(
      {
        model: this.model,
        messages: request.messages.map(toOpenAi),
        [this.tokenLimitParam]: this.config.maxTokens,
        ...(this.sendTemperature ? { temperature: this.config.temperature } : {}),
        ...(request.tools && request.tools.length > 0 ? { tools: request.tools as ChatCompletionTool[] } : {}),
      },
      { signal },
    );
    const message = response.choices[0]?.message;
    const toolCalls: ModelToolCall[] = [];
    for (const call of message?.tool_calls ?? []) {
      if (call.type === "function") toolCalls.push({ id: call.id, name: call.function.name, arguments: call.function.arguments ?? "" });
    }
    const usage = response.usage ? { inputTokens: response.usage.prompt_tokens ?? 0, outputTokens: response.usage.completion_tokens ?? 0 } : undefined;
    return { content: message?.content ?? "", toolCalls, usage };
  }
}

function toOpenAi(message: ChatMessage): ChatCompletionMessageParam {
  switch (message.role) {
    case "system":
    case "user":
      return { role: message.role, content: message.content };
    case "tool":
      return { role: "tool", tool_call_id: message.toolCallId, content: message.content };
    case "assistant":
      if (!message.toolCalls || message.toolCalls.length === 0) return { role: "assistant", content: message.content };
      return {
        role: "assistant",
        // Some OpenAI-compatible servers reject an empty string beside tool calls; null is the documented form.
        content: message.content || null,
        tool_calls: message.toolCalls.map((call) => ({ id: call.id, type: "function", function: { name: call.name, arguments: call.arguments } })),
      };
  }
}

const OVERFLOW = /context[_ ]length[_ ]exceeded|maximum context length|context window|too many tokens|prompt is too long|input is too long|reduce the length/i;

/** Did the provider refuse the request because the prompt does not fit its context? */
export function isContextOverflow(error: unknown): boolean {
  if (!(error instanceof APIError)) return false;
  if (error.status === 413) return true;
  if (error.status !== 400) return false;
  return error.code === "context_length_exceeded" || OVERFLOW.test(error.message);
}

/** The context size an overflow error states ("maximum context length is 8192 tokens"), when it does. */
export function statedContextLimit(error: unknown): number | undefined {
  if (!(error instanceof Error)) return undefined;
  const match = /maximum context length is (\d+)/i.exec(error.message);
  return match ? Number(match[1]) : undefined;
}

/** A short reason for the logs and the failure record. */
export function describeModelError(error: unknown): string {
  if (error instanceof APIError && error.status !== undefined) return `HTTP ${error.status}: ${error.message}`.slice(0, 500);
  return (error instanceof Error ? `${error.name}: ${error.message}` : String(error)).slice(0, 500);
}
