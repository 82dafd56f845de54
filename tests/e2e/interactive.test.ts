import { createServer, type Server } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { assess, parseConfig, runSpecFor } from "../../src/assessment/index.js";
import { type Strategy, servePurple, solverStrategy } from "../../src/baselines/index.js";
import { OpenAiProvider } from "../../src/llm/index.js";
import { A2APurpleClient } from "../../src/purple/index.js";
import { mergeShards } from "../../src/report/index.js";
import { LlmUser, requestPieces, ScriptedUser, STOP_MARKER, type UserSimulator, userInstructions, userSimulatorFor } from "../../src/users/index.js";
import { calibration, sampleData } from "../support/helpers.js";

/**
 * Interactive mode: a simulated user holds the request and lets it out over turns; the purple's
 * respond goes to the user until it stops. The model user is driven by a scripted fake
 * OpenAI-compatible server on loopback; the scripted user needs none.
 */

const data = await sampleData();
const closers: (() => void)[] = [];
afterAll(async () => {
  for (const close of closers) close();
  await data.org.close();
});

/** A chat model that says the given lines in order (status 500 once they run out, or for `null`), and keeps what it was sent. */
async function scriptedModel(lines: (string | null)[]): Promise<{ url: string; seen: { role: string; content: string }[][] }> {
  const seen: { role: string; content: string }[][] = [];
  const server: Server = createServer(async (req, res) => {
    let body = "";
    for await (const chunk of req) body += chunk;
    const request = JSON.parse(body) as { messages: { role: string; content: string }[] };
    seen.push(request.messages);
    const line = lines.shift();
    if (line === undefined || line === null) {
      res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: "scripted failure", type: "server_error" } }));
      return;
    }
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id: "x",
        object: "chat.completion",
        created: 0,
        model: "fake-user",
        choices: [{ index: 0, message: { role: "assistant", content: line }, finish_reason: "stop" }],
        usage: { prompt_tokens: 11, completion_tokens: 3, total_tokens: 14 },
      }),
    );
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  closers.push(() => server.close());
  return { url: `http://127.0.0.1:${(server.address() as { port: number }).port}/v1`, seen };
}

const modelUser = (url: string) =>
  new LlmUser(new OpenAiProvider({ role: "cheap", apiKey: "test-key", baseURL: url, model: "fake-user", timeoutMs: 5000, maxRetries: 0, concurrency: 2 }));

async function run(strategy: Strategy, config: Record<string, unknown>, user?: UserSimulator) {
  const { server, url } = await servePurple("interactive", strategy, "127.0.0.1", 0);
  closers.push(() => server.close());
  const parsed = parseConfig({ seed: 7, concurrency: 4, mode: "interactive", ...config }).config;
  const { results, log } = await assess(data, new A2APurpleClient(url), {
    spec: runSpecFor({ participantUrl: "http://purple.test/", config: parsed, tasksSource: data.sources.tasks.path }),
    calibration,
    ...(user ? { user } : {}),
  });
  return { results, log };
}

describe("interactive mode with a model as the user", () => {
  const task = data.tasks.tasks.find((candidate) => candidate.task === "handle_time")!;

  it("the user reveals two criteria over three turns; the purple asks once, answers after the second, and the user stops", async () => {
    const model = await scriptedModel(["I need the agent with the best handle time.", "Only the period of the task, please.", `Thanks, that is what I needed. ${STOP_MARKER}`]);
    // The purple asks back on the user's first message and answers with the solver once it heard the second.
    const asking: Strategy = async (info, tools) => (info.prompt.includes("\n") ? solverStrategy({ ...info, prompt: task.query }, tools) : "Which period do you mean?");
    const { results, log } = await run(asking, { task_ids: [task.idx] }, modelUser(model.url));
    const trajectory = log.episodes[0]!.trajectory;
    expect(trajectory.termination).toBe("answered");
    expect(trajectory.user).toMatchObject({ label: "llm:fake-user", opening: { text: "I need the agent with the best handle time.", stop: false }, replies: 2 });
    const responds = trajectory.steps.filter((step) => step.user);
    expect(responds.map((step) => step.user!.stop)).toEqual([false, true]);
    expect(responds[0]!.user!.text).toBe("Only the period of the task, please.");
    expect(responds[1]!.user!.text).toBe("Thanks, that is what I needed.");
    // Every user turn is logged with its prompt and tokens.
    expect(responds[1]!.user!.prompt).toContain("The assistant says:");
    expect(responds[1]!.user!.usage).toEqual({ inputTokens: 11, outputTokens: 3 });
    // The model was told the request, persona and rules; the purple never saw the request whole in its first message.
    expect(model.seen[0]![0]!.content).toContain(task.query.split(".")[0]!);
    expect(trajectory.steps[0]!.replyText).toContain("Which period");
    expect(results.interactive).toEqual({ user_simulators: ["llm:fake-user"], episodes: 1, user_turns: 3, user_turns_per_episode: 3, user_failures: 0, user_failure_rate: 0 });
    expect(results.summary.total_passed).toBe(1);
  });

  it("a user model that fails ends the episode as the simulator's fault, with its own termination and rate", async () => {
    const model = await scriptedModel(["I need the agent with the best handle time.", null]);
    const { results, log } = await run(solverStrategy, { task_ids: [task.idx] }, modelUser(model.url));
    const trajectory = log.episodes[0]!.trajectory;
    expect(trajectory.termination).toBe("user_error");
    expect(trajectory.error).toMatch(/simulated user's model fake-user failed/);
    expect(results.terminations).toEqual({ user_error: 1 });
    expect(results.interactive).toMatchObject({ user_failures: 1, user_failure_rate: 1 });
  });

  it("asked for a model user with no key, the request fails naming the variable", () => {
    expect(() => userSimulatorFor({ user_simulator: "llm" }, {})).toThrow(/OPENAI_CHEAP_API_KEY or OPENAI_API_KEY/);
    expect(userSimulatorFor({}, {}).kind).toBe("scripted");
    expect(userSimulatorFor({ user_model: "small-user" }, { OPENAI_API_KEY: "k" }).label).toBe("llm:small-user");
  });

  it("tells the model its rules in our words: one criterion at a time, nothing invented, the stop marker", () => {
    const text = userInstructions({ persona: "You are terse.", query: "Find the case. It is urgent." });
    expect(text).toContain("Find the case. It is urgent.");
    expect(text).toContain("You are terse.");
    expect(text).toContain(STOP_MARKER);
    expect(text).toMatch(/Never invent/);
  });
});

describe("interactive mode with the scripted user (offline)", () => {
  it("splits a request into its sentences, the ask first", () => {
    expect(requestPieces("Which agent was fastest? Look at the last 3 months. Return only the Id.")).toEqual([
      "Which agent was fastest?",
      "Look at the last 3 months.",
      "Return only the Id.",
    ]);
  });

  it("reveals one sentence per respond and stops once the whole request is known", async () => {
    const conversation = new ScriptedUser().start({ persona: "", query: "First part. Second part." });
    expect(await conversation.open()).toEqual({ text: "First part.", stop: false });
    expect(await conversation.reply("What else?")).toEqual({ text: "Second part.", stop: false });
    expect((await conversation.reply("The answer")).stop).toBe(true);
  });

  it("runs the sample end to end: the solver, re-solving on the request so far, passes every task, and the results label the user", async () => {
    const { results, log } = await run(solverStrategy, {});
    expect(results.summary.total_passed).toBe(results.summary.total_tasks);
    expect(results.interactive!.user_simulators).toEqual([new ScriptedUser().label]);
    expect(results.interactive!.user_failures).toBe(0);
    // Requests of several sentences took several user turns.
    expect(log.episodes.some((episode) => (episode.trajectory.user?.replies ?? 0) > 1)).toBe(true);
    expect(results.config).toMatchObject({ mode: "interactive" });
  });

  it("shards of an interactive run merge to the unsharded interactive block", async () => {
    const whole = await run(solverStrategy, { task_limit: 10 });
    const shards = await Promise.all([0, 1].map((shard_index) => run(solverStrategy, { task_limit: 10, num_shards: 2, shard_index }).then((shard) => shard.results)));
    const merged = mergeShards(shards as unknown as Record<string, unknown>[]);
    expect(merged.interactive).toEqual(whole.results.interactive);
    expect(merged.interactive!.episodes).toBe(10);
  });

  it("an episode that runs out of replies before the user stops has no answer, as CRMArena-Pro scores it", async () => {
    const querying: Strategy = async (_info, tools) => {
      for (;;) await tools.soql("SELECT Id FROM Account LIMIT 1");
    };
    const { log } = await run(querying, { task_limit: 1, max_steps: 3 });
    const trajectory = log.episodes[0]!.trajectory;
    expect(trajectory.termination).toBe("max_steps");
    expect(trajectory.steps).toHaveLength(3);
    expect(trajectory.answer).toBeUndefined();
  });

  it("rejects an unknown mode naming the field", () => {
    expect(() => parseConfig({ mode: "chatty" })).toThrow(/mode must be one of single_turn, interactive/);
  });
});
