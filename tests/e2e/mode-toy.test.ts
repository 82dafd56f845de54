import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servePurple, solverStrategy } from "../../src/baselines/index.js";
import { registerMode } from "../../src/users/index.js";
import { ANSWER_FORMAT_MODE, FORMAT_LINE, FormatUser } from "../fixtures/extensions/format-user.js";
import { assessmentParams, rawRpc, resultsOf, sampleData, startGreen, statusText } from "../support/helpers.js";

/**
 * A mode is a seam: a user module (tests/fixtures/extensions/format-user.ts) and one registration
 * line run end to end over A2A, with nothing else changed.
 */
describe("a toy mode", () => {
  let data: Awaited<ReturnType<typeof sampleData>>;
  let green: Awaited<ReturnType<typeof startGreen>>;
  let purple: Awaited<ReturnType<typeof servePurple>>;
  let unregister: () => void;
  const prompts: string[] = [];

  beforeAll(async () => {
    unregister = registerMode(ANSWER_FORMAT_MODE);
    data = await sampleData();
    green = await startGreen(data);
    purple = await servePurple(
      "solver",
      (task, tools) => {
        prompts.push(task.prompt);
        return solverStrategy(task, tools);
      },
      "127.0.0.1",
      0,
    );
  });
  afterAll(async () => {
    unregister();
    purple.server.close();
    await green.close();
    await data.org.close();
  });

  it("runs over A2A: its user opens each episode with the request and its line, and the first answer ends it", async () => {
    const { body } = await rawRpc(
      green.url,
      "message/send",
      assessmentParams({ participants: { agent: purple.url }, config: { mode: ANSWER_FORMAT_MODE.name, task_ids: [0, 1, 2] } }),
    );
    expect(statusText(body.result)).toMatch(/^Assessment complete: \d\/3 passed\.$/);
    const results = resultsOf(body.result);
    expect(results.config.mode).toBe(ANSWER_FORMAT_MODE.name);
    expect(results.terminations).toEqual({ answered: 3 });
    // The user's figures, as any mode with a user has: it opened and heard one answer per episode.
    expect(results.interactive).toEqual({
      user_simulators: [new FormatUser().label],
      episodes: 3,
      user_turns: 6,
      user_turns_per_episode: 2,
      user_failures: 0,
      user_failure_rate: 0,
    });
    expect(prompts).toHaveLength(3);
    for (const prompt of prompts) expect(prompt).toContain(FORMAT_LINE);
  });

  it("is refused by name once it is no longer registered, the message listing the modes there are", async () => {
    const remove = registerMode({ name: "fleeting", description: "registered for a moment" });
    remove();
    const { body } = await rawRpc(green.url, "message/send", assessmentParams({ participants: { agent: purple.url }, config: { mode: "fleeting" } }));
    expect(statusText(body.result)).toBe(`Request rejected: config.mode: mode must be one of single_turn, interactive, ${ANSWER_FORMAT_MODE.name} (got "fleeting")`);
  });
});
