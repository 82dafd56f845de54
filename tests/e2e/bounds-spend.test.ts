import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AssessmentEvent, assess, checkRequest, parseConfig, runSpecFor } from "../../src/assessment/index.js";
import { alwaysNoneStrategy, servePurple } from "../../src/baselines/index.js";
import { spendCeilingFromEnv } from "../../src/cli/deps-from-env.js";
import { MODEL_CALL_CHARS, ModelSpend, ModelSpendExceeded, OpenAiProvider } from "../../src/llm/index.js";
import type { PurpleClient } from "../../src/purple/index.js";
import { JUDGE_INPUT_BUDGET, LlmJudge } from "../../src/scoring/index.js";
import { LlmUser, USER_INPUT_BUDGET } from "../../src/users/index.js";
import { FakeChatModel, promptChars } from "../support/fake-chat-model.js";
import { assessmentParams, calibration, rawRpc, sampleData, startGreen } from "../support/helpers.js";

const data = await sampleData();
const model = new FakeChatModel(() => ({ content: "Tell me more." }));
beforeAll(() => model.start());
afterAll(async () => {
  await model.stop();
  await data.org.close();
});

/** Characters of each reply: 10 MB, every one a respond that goes to the user. */
const HUGE = 10_000_000;

/** A purple that answers every turn with a 10 MB respond (in process: past the HTTP client's reply cap, to reach the user whole). */
const verbose: PurpleClient = {
  url: "stub://verbose",
  send: async (_message, thread) => ({
    reply: { texts: [JSON.stringify({ name: "respond", arguments: { answer: "z".repeat(HUGE) } })], data: [] },
    contextId: thread.contextId ?? `verbose-${Math.random()}`,
    openTaskId: undefined,
    usage: undefined,
    bytes: HUGE,
  }),
};

const provider = () => new OpenAiProvider({ role: "cheap", apiKey: "test", baseURL: model.url, model: "fake-user", timeoutMs: 20_000, maxRetries: 0, concurrency: 4 });

describe("a run's model spend", () => {
  it("sends the model user at most its budget per call against 10 MB replies, and stops the run at max_model_calls, naming the cap", async () => {
    model.seen.length = 0;
    const events: AssessmentEvent[] = [];
    // An episode of this purple is the user's opening and ten replies: the cap falls inside the second episode.
    const { config } = parseConfig({ task_limit: 4, concurrency: 1, mode: "interactive", max_model_calls: 15, run_id: "bounds-spend-calls" });
    const assessed = await assess(data, verbose, {
      spec: runSpecFor({ participantUrl: verbose.url, config, tasksSource: data.sources.tasks.path }),
      calibration,
      judge: new LlmJudge({ primary: provider(), cheap: provider() }, undefined),
      user: new LlmUser(provider()),
      onEvent: (event) => events.push(event),
    });
    // The calls charged reached the model, and no call past the cap did.
    expect(model.seen).toHaveLength(15);
    for (const request of model.seen) {
      expect(promptChars(request)).toBeLessThanOrEqual(MODEL_CALL_CHARS);
      for (const message of request.messages) expect((message.content ?? "").length).toBeLessThan(Math.max(USER_INPUT_BUDGET, JUDGE_INPUT_BUDGET) + 3_000);
    }
    expect(assessed.journalFailure).toBe("the run's model spend reached its cap, max_model_calls 15 (the run made 15 calls)");
    expect(assessed.journalRemedy).toContain("max_model_calls");
    expect(assessed.results.status).toBe("interrupted");
    // The first episode (its user's eleven calls and its judge's) is recorded; the one the cap cut short is not, and none started after it.
    expect(assessed.log.episodes).toHaveLength(1);
    expect(events.filter((event) => event.kind === "task_started")).toHaveLength(2);
  }, 120_000);

  it("stops at max_model_chars the same way", async () => {
    model.seen.length = 0;
    const { config } = parseConfig({ task_limit: 3, concurrency: 1, mode: "interactive", max_model_chars: 30_000, run_id: "bounds-spend-chars" });
    const assessed = await assess(data, verbose, {
      spec: runSpecFor({ participantUrl: verbose.url, config, tasksSource: data.sources.tasks.path }),
      calibration,
      user: new LlmUser(provider()),
    });
    expect(assessed.journalFailure).toMatch(/^the run's model spend reached its cap, max_model_chars 30000 \(the run sent \d+ characters; the next call held \d+\)$/);
    expect(model.seen.reduce((sum, request) => sum + promptChars(request), 0)).toBeLessThanOrEqual(30_000);
    expect(assessed.log.episodes).toHaveLength(0);
  }, 120_000);

  it("refuses every call once a limit is reached, and a call larger than a call may be without spending the run", () => {
    const stops: ModelSpendExceeded[] = [];
    const spend = new ModelSpend({ calls: 2, chars: 1_000_000 }, (error) => stops.push(error));
    spend.charge([{ role: "user", content: "one" }]);
    expect(() => spend.charge([{ role: "user", content: "x".repeat(MODEL_CALL_CHARS + 1) }])).toThrow(/is refused \(at most 100000 a call\)/);
    spend.charge([{ role: "user", content: "two" }]);
    expect(() => spend.charge([{ role: "user", content: "three" }])).toThrow(ModelSpendExceeded);
    expect(() => spend.charge([{ role: "user", content: "four" }])).toThrow(ModelSpendExceeded);
    expect(stops).toHaveLength(1);
    expect(spend.calls).toBe(2);
  });
});

describe("a served run's model spend", () => {
  it("ends the A2A task failed, naming the cap, with the partial results attached", async () => {
    const saved = { key: process.env.OPENAI_CHEAP_API_KEY, url: process.env.LLM_CHEAP_BASE_URL };
    process.env.OPENAI_CHEAP_API_KEY = "test";
    process.env.LLM_CHEAP_BASE_URL = model.url;
    const green = await startGreen(data);
    const purple = await servePurple("none", alwaysNoneStrategy, "127.0.0.1", 0);
    try {
      const { body } = await rawRpc(
        green.url,
        "message/send",
        assessmentParams({ participants: { agent: purple.url }, config: { task_ids: [0, 1], mode: "interactive", user_simulator: "llm", max_model_calls: 3 } }),
      );
      expect(body.result.status.state).toBe("failed");
      expect(body.result.status.message.parts[0].text).toMatch(
        /^Assessment stopped after 0 of 2 tasks: the run's model spend reached its cap, max_model_calls 3 \(the run made 3 calls\)\. The partial results are attached \(status "interrupted"\); the same request continues it from its journal with a larger max_model_calls or max_model_chars/,
      );
    } finally {
      purple.server.close();
      await green.close();
      if (saved.key === undefined) delete process.env.OPENAI_CHEAP_API_KEY;
      else process.env.OPENAI_CHEAP_API_KEY = saved.key;
      if (saved.url === undefined) delete process.env.LLM_CHEAP_BASE_URL;
      else process.env.LLM_CHEAP_BASE_URL = saved.url;
    }
  }, 120_000);
});

describe("the operator's ceiling on a request's spend caps", () => {
  const dataFor = async () => data;
  const request = (config: Record<string, unknown>, door: "a2a" | "cli" = "a2a") => ({ door, participantUrl: "http://127.0.0.1:1/", config: { task_limit: 2, ...config } });

  it("refuses a cap asked above it over A2A, naming the key and the ceiling, and lowers a cap not asked for", async () => {
    const spendCeiling = { calls: 100, chars: 1_000_000 };
    await expect(checkRequest(request({ max_model_calls: 101 }), { dataFor, spendCeiling })).rejects.toMatchObject({
      field: "config.max_model_calls",
      message: expect.stringMatching(/^max_model_calls 101 is above this green agent's ceiling of 100 \(its operator's ENTROPIC_MAX_MODEL_CALLS\)/),
    });
    await expect(checkRequest(request({ max_model_chars: 2_000_000 }), { dataFor, spendCeiling })).rejects.toMatchObject({ field: "config.max_model_chars" });
    const lowered = await checkRequest(request({}), { dataFor, spendCeiling });
    expect([lowered.config.max_model_calls, lowered.config.max_model_chars]).toEqual([100, 1_000_000]);
    const within = await checkRequest(request({ max_model_calls: 7 }), { dataFor, spendCeiling });
    expect([within.config.max_model_calls, within.config.max_model_chars]).toEqual([7, 1_000_000]);
  });

  it("leaves the config as asked without a ceiling, and on the operator's own command line", async () => {
    expect((await checkRequest(request({}), { dataFor })).config.max_model_calls).toBeUndefined();
    expect((await checkRequest(request({ max_model_calls: 500 }, "cli"), { dataFor, spendCeiling: { calls: 100 } })).config.max_model_calls).toBe(500);
  });

  it("is read from ENTROPIC_MAX_MODEL_CALLS and ENTROPIC_MAX_MODEL_CHARS, a value that is no whole number refused naming the variable", () => {
    expect(spendCeilingFromEnv({ ENTROPIC_MAX_MODEL_CALLS: "300" })).toEqual({ calls: 300, chars: undefined });
    expect(() => spendCeilingFromEnv({ ENTROPIC_MAX_MODEL_CHARS: "1e3.5" })).toThrow(/^ENTROPIC_MAX_MODEL_CHARS must be a whole number of at least 1/);
  });
});
