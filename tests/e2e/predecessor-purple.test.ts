import type { Server } from "node:http";
import { afterAll, describe, expect, it } from "vitest";
import { servePurple, solverStrategy } from "../../src/baselines/index.js";
import { assessmentParams, rawPurpleServer, rawRpc, resultsOf, sampleData, startGreen } from "../support/helpers.js";

const data = await sampleData();
const servers: Server[] = [];
afterAll(async () => {
  for (const server of servers) server.close();
  await data.org.close();
});

/**
 * A purple written to the predecessor's README: it `json.loads` the first message's text and reads
 * `task_id`, `task_category`, `prompt`, `required_context`, `config.org_type`, `config.max_steps`
 * and `entropy.drift_level` from it (a JSONDecodeError or KeyError otherwise), then works the task.
 * Here the work is the reference solver's, reached by forwarding the request: what is tested is
 * the first message such a purple reads.
 */
async function predecessorStylePurple(solverUrl: string): Promise<{ url: string; parsed: Record<string, unknown>[]; failures: string[] }> {
  const parsed: Record<string, unknown>[] = [];
  const failures: string[] = [];
  const seenContexts = new Set<string>();
  const { url, server } = await rawPurpleServer(async (body, res) => {
    const message = body.params.message;
    if (!message.contextId || !seenContexts.has(message.contextId)) {
      try {
        const task = JSON.parse(message.parts.find((part: { kind: string }) => part.kind === "text").text) as Record<string, any>;
        for (const key of ["task_id", "task_category", "prompt", "required_context"]) if (typeof task[key] !== "string") throw new Error(`KeyError('${key}')`);
        if (task.config.org_type !== "b2b" || typeof task.config.max_steps !== "number") throw new Error("KeyError('config')");
        if (typeof task.entropy.drift_level !== "string" || !Array.isArray(task.entropy.drift_mappings)) throw new Error("KeyError('entropy')");
        parsed.push(task);
      } catch (error) {
        failures.push((error as Error).message);
        res.status(500).json({ jsonrpc: "2.0", id: body.id, error: { code: -32603, message: (error as Error).message } });
        return;
      }
    }
    const answer = await fetch(solverUrl, { method: "POST", headers: { "content-type": "application/json" }, body: JSON.stringify(body) });
    const reply = (await answer.json()) as { result?: { contextId?: string } };
    if (reply.result?.contextId) seenContexts.add(reply.result.contextId);
    res.json(reply);
  });
  servers.push(server);
  return { url, parsed, failures };
}

/** The solver, the predecessor-style purple routing to it, and a green. */
async function world() {
  const solver = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
  servers.push(solver.server);
  const green = await startGreen(data);
  servers.push(green.server);
  return { green, purple: await predecessorStylePurple(solver.url) };
}

describe("a purple written for the predecessor's leaderboard", () => {
  it("passes the sample with first_message json, the solver's answers routed through it", async () => {
    const { green, purple } = await world();
    const { body } = await rawRpc(
      green.url,
      "message/send",
      assessmentParams({ participants: { agent: purple.url }, config: { first_message: "json", drift_level: "medium", concurrency: 4 } }),
    );
    expect(body.result.status.state).toBe("completed");
    const results = resultsOf(body.result);
    expect(purple.failures).toEqual([]);
    expect(purple.parsed).toHaveLength(data.tasks.tasks.length);
    expect(purple.parsed[0]).toMatchObject({
      type: "crm_task",
      config: { org_type: "b2b", max_steps: 10 },
      entropy: { drift_level: "medium", rot_level: "none", drift_mappings: [] },
    });
    expect(results.summary.total_passed).toBe(data.tasks.tasks.length);
  }, 120_000);

  it("fails every episode with the default first message, as a JSON-parsing purple does", async () => {
    const { green, purple } = await world();
    const { body } = await rawRpc(green.url, "message/send", assessmentParams({ participants: { agent: purple.url }, config: { task_limit: 3 } }));
    expect(resultsOf(body.result).summary.total_passed).toBe(0);
    expect(purple.failures[0]).toMatch(/JSON/);
  }, 60_000);
});
