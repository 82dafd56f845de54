import type { Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AssessmentData } from "../../src/assessment/index.js";
import { type LlmPurpleConfig, llmPurpleConfigFromEnv, serveLlmPurple } from "../../src/baselines/llm/index.js";
import { FakeChatModel, type WireRequest } from "../support/fake-chat-model.js";
import { assessmentParams, quietLogger, rawRpc, resultsOf, sampleData, startGreen } from "../support/helpers.js";
import { crmScript, malformedFirst, ramblingFirst, SCRIPTED_TASK_IDS, taskIdOf } from "../support/scripted-crm-model.js";

let data: AssessmentData;
let green: Awaited<ReturnType<typeof startGreen>>;
const fakes: FakeChatModel[] = [];
const servers: Server[] = [];

beforeAll(async () => {
  data = await sampleData();
  green = await startGreen(data);
});

afterAll(async () => {
  for (const server of servers) server.close();
  for (const fake of fakes) await fake.stop();
  await green.close();
  await data.org.close();
});

/** A scripted model and an LLM purple driving it, both on loopback. */
async function llmPurple(script: (request: WireRequest) => ReturnType<typeof crmScript>, mode: "tools" | "text" | "mcp", overrides: Partial<LlmPurpleConfig> = {}) {
  const fake = await new FakeChatModel(script).start();
  fakes.push(fake);
  const env = {
    PURPLE_LLM_API_KEY: "test-key",
    PURPLE_LLM_BASE_URL: fake.url,
    PURPLE_LLM_MODEL: "scripted-model",
    PURPLE_LLM_MAX_TOKENS: "500",
    PURPLE_LLM_CONTEXT_TOKENS: "100000",
    PURPLE_LLM_MAX_RETRIES: "2",
  };
  const config = { ...llmPurpleConfigFromEnv(env, { mode }), ...overrides };
  const purple = await serveLlmPurple({ config, host: "127.0.0.1", port: 0, logger: quietLogger() });
  servers.push(purple.server);
  return { fake, url: purple.url, executor: purple.executor };
}

/** The scripted model plans by the sample's own task numbers and record Ids, so these runs keep them (no sandbox refresh). */
async function assessAgainst(agent: string, taskIds: readonly number[], config: Record<string, unknown> = {}) {
  const { body } = await rawRpc(
    green.url,
    "message/send",
    assessmentParams({ participants: { agent }, config: { task_ids: taskIds, concurrency: 4, remap_ids: false, ...config } }),
  );
  expect(body.result.status.state).toBe("completed");
  return resultsOf(body.result);
}

const failuresOf = (results: any) =>
  results.results
    .filter((entry: any) => !entry.success)
    .map(
      (entry: any) =>
        `${entry.task_idx} ${entry.task_category}: ${entry.agent_answer} vs ${entry.expected_answer} (${entry.termination}; ${entry.trajectory.steps.map((step: any) => step.action).join(" | ")})`,
    );
const allSteps = (results: any) => results.results.flatMap((entry: any) => entry.trajectory.steps);

/** OpenAI's rule for a valid history: every tool call is answered, by a tool message, before anything else follows. */
function expectConsistentToolHistory(request: WireRequest): void {
  const messages = request.messages;
  messages.forEach((message, i) => {
    if (message.role !== "assistant" || !message.tool_calls?.length) return;
    const answered: string[] = [];
    for (let j = i + 1; j < messages.length && messages[j]!.role === "tool"; j++) answered.push(messages[j]!.tool_call_id!);
    expect(answered.sort()).toEqual(message.tool_calls.map((call) => call.id).sort());
  });
}

/** Every reply reported usage, and the reports add up to exactly what the provider billed. */
function expectUsageAccounted(results: any, fake: FakeChatModel): void {
  const steps = allSteps(results);
  for (const step of steps) expect(step.reported_usage).toBeDefined();
  expect(steps.reduce((sum: number, step: any) => sum + step.reported_usage.input_tokens, 0)).toBe(fake.usage.prompt);
  expect(steps.reduce((sum: number, step: any) => sum + step.reported_usage.output_tokens, 0)).toBe(fake.usage.completion);
}

describe("the LLM purple, native tool calling", () => {
  it("solves sample tasks of six categories through the green's tools and reports its usage on every reply", async () => {
    const { fake, url, executor } = await llmPurple(crmScript, "tools");
    const results = await assessAgainst(url, SCRIPTED_TASK_IDS);
    expect(failuresOf(results)).toEqual([]);
    expect(new Set(results.results.map((entry: any) => entry.task_category)).size).toBe(6);
    expect(results.terminations).toEqual({ answered: SCRIPTED_TASK_IDS.length });
    expectUsageAccounted(results, fake);
    for (const request of fake.seen) {
      expectConsistentToolHistory(request);
      expect(request.model).toBe("scripted-model");
      expect(request.tools?.map((tool) => tool.function.name).sort()).toEqual(["describe_schema", "respond", "soql_query", "sosl_search", "sql_query"]);
    }
    const byTask = new Map(results.results.map((entry: any) => [Number(entry.task_idx), entry]));
    // Two tool calls in one model reply: two green turns, the second with no model call behind it.
    const parallel = (byTask.get(4) as any).trajectory.steps;
    expect(parallel.map((step: any) => step.action.split(":")[0])).toEqual(["soql_query", "soql_query", "respond"]);
    expect(parallel[1].reported_usage).toEqual({ input_tokens: 0, output_tokens: 0 });
    expect((byTask.get(16) as any).trajectory.steps[0].action).toBe("describe_schema: User");
    expect((byTask.get(14) as any).trajectory.steps[0].action).toMatch(/^sosl_search: FIND/);
    expect((byTask.get(32) as any).trajectory.steps).toHaveLength(1);
    expect(allSteps(results).some((step: any) => step.action.startsWith("invalid"))).toBe(false);
    expect(executor.activeEpisodes).toBe(0);
  });
});

describe("the LLM purple, tools from the green's MCP endpoint", () => {
  it("solves the same tasks with the tools the endpoint lists, each call a step over MCP, the answer its A2A reply", async () => {
    const { fake, url, executor } = await llmPurple(crmScript, "mcp");
    const results = await assessAgainst(url, SCRIPTED_TASK_IDS);
    expect(failuresOf(results)).toEqual([]);
    expect(results.terminations).toEqual({ answered: SCRIPTED_TASK_IDS.length });
    for (const request of fake.seen) {
      expectConsistentToolHistory(request);
      // The org's tools as listed over MCP, and the purple's own answer tool.
      expect(request.tools?.map((tool) => tool.function.name).sort()).toEqual(["describe_schema", "respond", "soql_query", "sosl_search", "sql_query"]);
    }
    for (const entry of results.results) {
      const steps = entry.trajectory.steps;
      expect(steps.at(-1).action).toMatch(/^respond: /);
      expect(steps.at(-1).channel).toBeUndefined();
      for (const step of steps.slice(0, -1)) expect(step.channel).toBe("mcp");
    }
    // The whole episode is one A2A turn: its reply reports what every model call of the episode cost.
    const replies = allSteps(results).filter((step: any) => step.channel === undefined);
    expect(replies.reduce((sum: number, step: any) => sum + step.reported_usage.input_tokens, 0)).toBe(fake.usage.prompt);
    const parallel = results.results.find((entry: any) => Number(entry.task_idx) === 4).trajectory.steps;
    expect(parallel.map((step: any) => step.action.split(":")[0])).toEqual(["soql_query", "soql_query", "respond"]);
    expect(executor.activeEpisodes).toBe(0);
  });

  it("acts with the in-message tools when the green offers no MCP", async () => {
    const { url } = await llmPurple(crmScript, "mcp");
    const results = await assessAgainst(url, SCRIPTED_TASK_IDS.slice(0, 2), { mcp: false });
    expect(failuresOf(results)).toEqual([]);
    for (const step of allSteps(results)) expect(step.channel).toBeUndefined();
  });
});

describe("the LLM purple's agent card", () => {
  it("advertises the card URL AgentBeats passes, and says which model and mode it runs", async () => {
    const config = llmPurpleConfigFromEnv({ PURPLE_LLM_API_KEY: "k", PURPLE_LLM_BASE_URL: "http://127.0.0.1:9/v1", PURPLE_LLM_MODEL: "m1" }, { mode: "text" });
    const purple = await serveLlmPurple({ config, host: "127.0.0.1", port: 0, cardUrl: "http://agent:9009", logger: quietLogger() });
    servers.push(purple.server);
    const card = await (await fetch(new URL(".well-known/agent-card.json", purple.url))).json();
    expect(card.url).toBe("http://agent:9009");
    expect(card.description).toMatch(/m1 .*<execute>\/<respond> tags/);
  });
});

describe("the LLM purple, CRMArena-Pro text protocol", () => {
  it("solves the same tasks with <execute>/<respond>, reminding a model that forgets the tags without spending a green turn", async () => {
    const { fake, url } = await llmPurple(ramblingFirst(crmScript), "text");
    const results = await assessAgainst(url, SCRIPTED_TASK_IDS);
    expect(failuresOf(results)).toEqual([]);
    expectUsageAccounted(results, fake);
    for (const entry of results.results) {
      // The schema is fetched for the prompt (CRMArena-Pro put it there), then only tags follow.
      expect(entry.trajectory.steps[0].action).toBe("describe_schema");
      for (const step of entry.trajectory.steps.slice(1)) expect(step.action).toMatch(/^(soql_query|sosl_search|respond):/);
    }
    for (const request of fake.seen) {
      expect(request.tools).toBeUndefined();
      expect(request.messages[0]!.content).toContain("Account (");
    }
    // Every task's first model reply had no tag: each got a local reminder.
    const reminded = new Set(
      fake.seen.filter((request) => request.messages.some((message) => message.role === "user" && /had no action/.test(message.content ?? ""))).map(taskIdOf),
    );
    expect(reminded.size).toBe(SCRIPTED_TASK_IDS.length);
  });
});

describe("the LLM purple with a misbehaving model or provider", () => {
  it("answers malformed tool calls (arguments that are not JSON, an unknown tool) locally and goes on", async () => {
    const { fake, url } = await llmPurple(malformedFirst(crmScript), "tools");
    const results = await assessAgainst(url, [16, 22]);
    expect(failuresOf(results)).toEqual([]);
    expect(allSteps(results).some((step: any) => step.action.startsWith("invalid"))).toBe(false);
    const toolTexts = fake.seen.flatMap((request) => request.messages.filter((message) => message.role === "tool").map((message) => message.content ?? ""));
    expect(toolTexts.some((content) => /soql_query are not valid JSON/.test(content))).toBe(true);
    expect(toolTexts.some((content) => /unknown tool "drop_table"/.test(content))).toBe(true);
    for (const request of fake.seen) expectConsistentToolHistory(request);
    expectUsageAccounted(results, fake);
  });

  it("retries after 429s (the provider's client waits as retry-after says), then succeeds", async () => {
    const { fake, url } = await llmPurple(crmScript, "tools");
    fake.failures = [
      { status: 429, headers: { "retry-after-ms": "20" }, body: { error: { message: "rate limited", type: "rate_limit_error" } } },
      { status: 429, headers: { "retry-after": "1" }, body: { error: { message: "rate limited", type: "rate_limit_error" } } },
    ];
    const results = await assessAgainst(url, [22]);
    expect(failuresOf(results)).toEqual([]);
    // Both refused requests were sent again: two turns, four requests.
    expect(fake.seen).toHaveLength(4);
    expectUsageAccounted(results, fake);
  });

  it("compacts the history and retries when the provider says the context overflows", async () => {
    // A first query whose result is larger than the provider's (scripted) context.
    const script = (request: WireRequest) => {
      const first = request.messages.find((message) => message.role === "assistant");
      if (!first) return { toolCalls: [{ name: "soql_query", arguments: { query: "SELECT Id, Subject, Description FROM Case" } }] };
      // Then the usual plan, as if the large query had not happened.
      const large = new Set((first.tool_calls ?? []).map((call) => call.id));
      return crmScript({ ...request, messages: request.messages.filter((message) => message !== first && !(message.role === "tool" && large.has(message.tool_call_id ?? ""))) });
    };
    const { fake, url } = await llmPurple(script, "tools");
    fake.maxPromptChars = 16_000;
    const results = await assessAgainst(url, [22]);
    expect(failuresOf(results)).toEqual([]);
    expect(fake.overflows).toBeGreaterThan(0);
    const compacted = fake.seen.filter((request) =>
      request.messages.some((message) => message.role === "tool" && /characters (of this older result )?cut/.test(message.content ?? "")),
    );
    expect(compacted.length).toBeGreaterThan(0);
    expect(results.results[0].trajectory.steps.map((step: any) => step.action.split(":")[0])).toEqual(["soql_query", "soql_query", "respond"]);
  });

  it("ends every episode with a recorded reason when the provider always fails or stalls", async () => {
    const failing = await llmPurple(crmScript, "tools", { maxRetries: 1, onFailure: "answer" });
    failing.fake.alwaysFail = { status: 503, headers: { "retry-after-ms": "5" } };
    const answered = await assessAgainst(failing.url, [16, 22]);
    for (const entry of answered.results) {
      expect(entry).toMatchObject({ termination: "answered", agent_answer: "None", success: false });
      expect(entry.trajectory.steps[0].reported_usage).toEqual({ input_tokens: 0, output_tokens: 0 });
    }
    expect(failing.fake.seen).toHaveLength(4);

    const strict = await llmPurple(crmScript, "tools", { maxRetries: 0, onFailure: "fail" });
    strict.fake.alwaysFail = { status: 500 };
    const failed = await assessAgainst(strict.url, [16]);
    expect(failed.results[0].termination).toBe("purple_error");
    expect(failed.results[0].error).toMatch(/model provider failed: HTTP 500/);

    const stalled = await llmPurple(crmScript, "text", { timeoutMs: 150, maxRetries: 1, onFailure: "answer" });
    stalled.fake.stallMs = 5_000;
    const timedOut = await assessAgainst(stalled.url, [22]);
    // Text mode's first turn needs no model (describe_schema); the second one fails: its request
    // timed out (a stall of 5 s against a limit of 0.15 s), or the model's plan would follow.
    expect(timedOut.results[0].trajectory.steps.map((step: any) => step.action)).toEqual(["describe_schema", "respond: None"]);
    expect(timedOut.results[0].termination).toBe("answered");
  });
});
