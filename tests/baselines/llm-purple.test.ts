import { describe, expect, it } from "vitest";
import {
  type ChatModel,
  type ChatReply,
  type ChatRequest,
  Conversation,
  Episode,
  type LlmPurpleConfig,
  llmPurpleConfigFromEnv,
  OpenAiChatModel,
  SessionStore,
  trimToTokens,
} from "../../src/baselines/llm/index.js";
import { TOOL_DEFINITIONS } from "../../src/protocol/index.js";
import { countTokens } from "../../src/util/tokens.js";
import { quietLogger } from "../support/helpers.js";

const BASE_ENV = { PURPLE_LLM_API_KEY: "k" };

describe("LLM purple configuration", () => {
  it("falls back to the judge's variables, and command-line overrides win", () => {
    const config = llmPurpleConfigFromEnv({ OPENAI_API_KEY: "judge-key", LLM_PRIMARY_BASE_URL: "http://127.0.0.1:1/v1", LLM_PRIMARY_MODEL: "judge-model" });
    expect(config).toMatchObject({ apiKey: "judge-key", baseURL: "http://127.0.0.1:1/v1", model: "judge-model", mode: "tools", temperature: 0, onFailure: "fail" });
    const own = llmPurpleConfigFromEnv(
      { ...BASE_ENV, OPENAI_API_KEY: "judge-key", PURPLE_LLM_MODEL: "mine", PURPLE_LLM_MODE: "text", PURPLE_LLM_TEMPERATURE: "omit" },
      { model: "flag-model" },
    );
    expect(own).toMatchObject({ apiKey: "k", model: "flag-model", mode: "text", temperature: undefined });
  });

  it("names the variable that is missing or wrong", () => {
    expect(() => llmPurpleConfigFromEnv({})).toThrow(/PURPLE_LLM_API_KEY is not set \(nor OPENAI_API_KEY/);
    expect(() => llmPurpleConfigFromEnv({ ...BASE_ENV, PURPLE_LLM_MODE: "chat" })).toThrow(/PURPLE_LLM_MODE must be one of tools, text/);
    expect(() => llmPurpleConfigFromEnv({ ...BASE_ENV, PURPLE_LLM_BASE_URL: "not a url" })).toThrow(/PURPLE_LLM_BASE_URL must be an http\(s\) URL/);
    expect(() => llmPurpleConfigFromEnv({ ...BASE_ENV, PURPLE_LLM_BASE_URL: "node:internal/modules" })).toThrow(/PURPLE_LLM_BASE_URL must be an http\(s\) URL/);
    expect(() => llmPurpleConfigFromEnv({ ...BASE_ENV, PURPLE_LLM_MAX_TOKENS: "1.5" })).toThrow(/PURPLE_LLM_MAX_TOKENS must be a whole number/);
    expect(() => llmPurpleConfigFromEnv({ ...BASE_ENV, PURPLE_LLM_CONTEXT_TOKENS: "3000", PURPLE_LLM_MAX_TOKENS: "2000" })).toThrow(
      /PURPLE_LLM_CONTEXT_TOKENS \(3000\) must be at least twice/,
    );
  });
});

describe("history compaction", () => {
  const observation = (size: number) => `Salesforce instance output: [${"{'Id': '500Wt00000DDZ0VIAX', 'Status': 'Closed'}, ".repeat(size)}]\n\n(7 replies left)`;

  it("cuts a 1 MB observation to its budget quickly, saying how much went and keeping the footer", () => {
    const huge = observation(20_000);
    expect(huge.length).toBeGreaterThan(1_000_000);
    // npm run bench times this cut.
    const trimmed = trimToTokens(huge, 2_000);
    expect(countTokens(trimmed)).toBeLessThanOrEqual(2_000);
    expect(trimmed).toMatch(/characters cut because/);
    expect(trimmed.endsWith("(7 replies left)")).toBe(true);
    expect(trimToTokens("short", 2_000)).toBe("short");
  });

  it("cuts older observations first, then the latest only when nothing else is left", () => {
    const conversation = new Conversation();
    conversation.add({ role: "system", content: "system prompt" });
    conversation.add({ role: "user", content: "the task" });
    for (let i = 0; i < 3; i++) {
      conversation.add({ role: "assistant", content: "", toolCalls: [{ id: `c${i}`, name: "soql_query", arguments: '{"query":"SELECT Id FROM Case"}' }] });
      conversation.add({ role: "tool", toolCallId: `c${i}`, content: observation(300) }, true);
    }
    const before = conversation.tokens();
    const { cut, fits } = conversation.fit(Math.floor(before * 0.6));
    expect(fits).toBe(true);
    const tools = conversation.messages().filter((message) => message.role === "tool");
    expect(tools[0]!.content).toMatch(/older result cut/);
    expect(tools[2]!.content).toBe(observation(300));
    expect(cut).toBeGreaterThan(0);
    // Nothing older left to cut: the latest goes too, still with a marker.
    expect(conversation.fit(300).cut).toBeGreaterThan(0);
    expect(conversation.messages().at(-1)!.content).toMatch(/cut/);
  });
});

describe("per-context sessions", () => {
  it("drop idle contexts after the TTL and cap their number", async () => {
    let now = 0;
    const store = new SessionStore<string>(1_000, 2, () => now);
    store.getOrCreate("a", () => "A");
    now = 500;
    store.getOrCreate("b", () => "B");
    now = 1_200;
    store.getOrCreate("c", () => "C");
    expect(store.has("a")).toBe(false);
    expect(store.size).toBe(2);
    store.getOrCreate("d", () => "D");
    expect(store.has("b")).toBe(false);
    // Work on one context runs in order.
    const order: number[] = [];
    await Promise.all([
      store.run("c", async () => {
        await new Promise((r) => setTimeout(r, 20));
        order.push(1);
      }),
      store.run("c", async () => order.push(2)),
    ]);
    expect(order).toEqual([1, 2]);
  });
});

/** An in-process model that replies from a list (the seam the agent takes a provider through). */
class ListModel implements ChatModel {
  readonly model = "list";
  readonly requests: ChatRequest[] = [];
  constructor(private readonly replies: ChatReply[]) {}
  async complete(request: ChatRequest): Promise<ChatReply> {
    this.requests.push(request);
    const reply = this.replies.shift();
    if (!reply) throw new Error("no scripted reply left");
    return reply;
  }
}

const usage = { inputTokens: 10, outputTokens: 2 };
const config = (overrides: Partial<LlmPurpleConfig> = {}): LlmPurpleConfig => ({ ...llmPurpleConfigFromEnv(BASE_ENV), ...overrides });
const first = (maxSteps: number) => ({
  text: "",
  data: [{ type: "crm_task", task_id: "7", task_category: "handle_time", prompt: "Which agent?", tools: TOOL_DEFINITIONS, max_steps: maxSteps }],
});
const result = (remaining: number) => ({
  text: `Salesforce instance output: []\n\n(${remaining} replies left)`,
  data: [{ type: "tool_result", ok: true, records: [], remaining_steps: remaining }],
});
const signal = () => AbortSignal.timeout(5_000);
const call = (id: string, query: string) => ({ id, name: "soql_query", arguments: JSON.stringify({ query }) });

describe("an episode", () => {
  it("drops queued calls when only the last reply is left and asks for the answer", async () => {
    const model = new ListModel([
      { content: "", toolCalls: [call("a", "SELECT Id FROM Case"), call("b", "SELECT Id FROM Lead"), call("c", "SELECT Id FROM User")], usage },
      { content: "005Wt00000Rm2zHIAR", toolCalls: [], usage },
    ]);
    const episode = new Episode(config(), model, quietLogger());
    expect((await episode.step(first(3), signal())) as unknown).toMatchObject({ kind: "action", final: false, usage: { inputTokens: 10, outputTokens: 2 } });
    const second = await episode.step(result(2), signal());
    expect(second).toMatchObject({ kind: "action", final: false, usage: { inputTokens: 0, outputTokens: 0 } });
    const last = await episode.step(result(1), signal());
    expect(last).toMatchObject({ kind: "action", final: true, text: JSON.stringify({ name: "respond", arguments: { answer: "005Wt00000Rm2zHIAR" } }) });
    const messages = model.requests[1]!.messages;
    expect(messages.filter((message) => message.role === "tool").map((message) => message.content)).toEqual([
      expect.stringContaining("Salesforce instance output"),
      expect.stringContaining("Salesforce instance output"),
      "Not run: no replies are left for queries. Give the final answer now.",
    ]);
    expect(messages.at(-1)!.content).toMatch(/last reply/);
    expect(episode.finished).toBe(true);
  });

  it("does not loop when the model keeps querying on its last reply", async () => {
    const model = new ListModel(Array.from({ length: 10 }, (_, i) => ({ content: "", toolCalls: [call(`q${i}`, "SELECT Id FROM Case")], usage })));
    const episode = new Episode(config({ formatRetries: 2 }), model, quietLogger());
    const reply = await episode.step(first(1), signal());
    expect(reply).toMatchObject({ kind: "action", final: false, text: JSON.stringify({ name: "soql_query", arguments: { query: "SELECT Id FROM Case" } }) });
    expect(model.requests).toHaveLength(3);
    expect(reply.usage).toEqual({ inputTokens: 30, outputTokens: 6 });
  });

  it("estimates usage when the provider reports none", async () => {
    const model = new ListModel([{ content: "None", toolCalls: [], usage: undefined }]);
    const reply = await new Episode(config(), model, quietLogger()).step(first(5), signal());
    expect(reply.usage.inputTokens).toBeGreaterThan(100);
    expect(reply.usage.outputTokens).toBe(1);
  });
});

describe("the OpenAI-compatible model", () => {
  it("goes through an injected fetch, and switches to max_completion_tokens and no temperature when the model refuses them", async () => {
    const bodies: Record<string, unknown>[] = [];
    const scripted: typeof fetch = async (_input, init) => {
      const body = JSON.parse(String(init?.body)) as Record<string, unknown>;
      bodies.push(body);
      const refuse = (message: string) =>
        new Response(JSON.stringify({ error: { message, type: "invalid_request_error" } }), { status: 400, headers: { "content-type": "application/json" } });
      if ("max_tokens" in body) return refuse("Unsupported parameter: 'max_tokens' is not supported with this model. Use 'max_completion_tokens' instead.");
      if ("temperature" in body) return refuse("Unsupported value: 'temperature' does not support 0 with this model. Only the default (1) value is supported.");
      const completion = {
        id: "x",
        object: "chat.completion",
        created: 0,
        model: "m",
        choices: [
          {
            index: 0,
            message: {
              role: "assistant",
              content: null,
              tool_calls: [{ id: "t1", type: "function", function: { name: "soql_query", arguments: '{"query":"SELECT Id FROM Case"}' } }],
            },
            finish_reason: "tool_calls",
          },
        ],
        usage: { prompt_tokens: 12, completion_tokens: 3, total_tokens: 15 },
      };
      return new Response(JSON.stringify(completion), { status: 200, headers: { "content-type": "application/json" } });
    };
    const model = new OpenAiChatModel({ ...config(), baseURL: "http://127.0.0.1:9/v1", maxRetries: 0 }, scripted);
    const reply = await model.complete({ messages: [{ role: "user", content: "hi" }], tools: TOOL_DEFINITIONS }, signal());
    expect(reply).toEqual({
      content: "",
      toolCalls: [{ id: "t1", name: "soql_query", arguments: '{"query":"SELECT Id FROM Case"}' }],
      usage: { inputTokens: 12, outputTokens: 3 },
    });
    expect(bodies).toHaveLength(3);
    expect(bodies[2]).toMatchObject({ max_completion_tokens: 2000 });
    expect(bodies[2]).not.toHaveProperty("temperature");
    // Learnt once for every later call.
    await model.complete({ messages: [{ role: "user", content: "again" }] }, signal());
    expect(bodies).toHaveLength(4);
  });
});
