import type OpenAI from "openai";
import type { ProviderConfig, ProviderRole } from "./config.js";

/** Calls and tokens spent on one provider. */
export interface ProviderUsage {
  calls: number;
  failures: number;
  inputTokens: number;
  outputTokens: number;
}

export interface ChatMessage {
  readonly role: "system" | "user" | "assistant";
  readonly content: string;
}

/** A chat model behind an OpenAI-compatible endpoint. */
export interface LlmProvider {
  readonly role: ProviderRole;
  readonly model: string;
  readonly usage: ProviderUsage;
  complete(messages: readonly ChatMessage[]): Promise<string>;
}

/** At most `limit` calls in flight; the rest wait their turn. */
class Semaphore {
  private active = 0;
  private readonly waiting: (() => void)[] = [];

  constructor(private readonly limit: number) {}

  async run<T>(task: () => Promise<T>): Promise<T> {
    if (this.active >= this.limit) await new Promise<void>((resolve) => this.waiting.push(resolve));
    this.active++;
    try {
      return await task();
    } finally {
      this.active--;
      this.waiting.shift()?.();
    }
  }
}

/**
 * A provider through the `openai` SDK: temperature 0, a timeout, and the SDK's retries with
 * exponential backoff and jitter on 429, 5xx, timeouts and connection errors (honouring
 * `retry-after`), under a per-provider concurrency limit. The SDK is loaded at the first call:
 * its 236 modules were about 3 MB of heap and 100 ms of start-up CPU in every server, most of
 * which never call a model.
 */
export class OpenAiProvider implements LlmProvider {
  readonly role: ProviderRole;
  readonly model: string;
  readonly usage: ProviderUsage = { calls: 0, failures: 0, inputTokens: 0, outputTokens: 0 };
  private client: Promise<OpenAI> | undefined;
  private readonly gate: Semaphore;
  private readonly clientOptions: ConstructorParameters<typeof OpenAI>[0];

  constructor(config: ProviderConfig) {
    if (!config.apiKey) throw new Error(`the ${config.role} LLM provider has no API key`);
    this.role = config.role;
    this.model = config.model;
    this.clientOptions = { apiKey: config.apiKey, ...(config.baseURL ? { baseURL: config.baseURL } : {}), timeout: config.timeoutMs, maxRetries: config.maxRetries };
    this.gate = new Semaphore(config.concurrency);
  }

  complete(messages: readonly ChatMessage[]): Promise<string> {
    return this.gate.run(async () => {
      this.usage.calls++;
      try {
        this.client ??= import("openai").then(({ default: SDK }) => new SDK(this.clientOptions));
        const response = await (await this.client).chat.completions.create({
          model: this.model,
          temperature: 0,
          max_tokens: 500,
          messages: messages.map((message) => ({ ...message })),
        });
        this.usage.inputTokens += response.usage?.prompt_tokens ?? 0;
        this.usage.outputTokens += response.usage?.completion_tokens ?? 0;
        return response.choices[0]?.message?.content ?? "";
      } catch (error) {
        this.usage.failures++;
        throw error;
      }
    });
  }
}
