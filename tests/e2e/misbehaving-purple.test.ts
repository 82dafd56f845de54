import type { Server } from "node:http";
import type express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Strategy, servePurple } from "../../src/baselines/index.js";
import { assessmentParams, rawPurpleServer, rawRpc, rawStream, resultsOf, sampleData, startGreen } from "../support/helpers.js";

// A purple that goes away is waited for this long (default 30 s) before its episodes fail; set
// back after the file, whose worker may run other files next (vitest.config.ts).
const retrySeconds = process.env.ENTROPIC_PURPLE_RETRY_SECONDS;
process.env.ENTROPIC_PURPLE_RETRY_SECONDS = "1";
afterAll(() => {
  if (retrySeconds === undefined) delete process.env.ENTROPIC_PURPLE_RETRY_SECONDS;
  else process.env.ENTROPIC_PURPLE_RETRY_SECONDS = retrySeconds;
});

let data: Awaited<ReturnType<typeof sampleData>>;
let green: Awaited<ReturnType<typeof startGreen>>;
const servers: Server[] = [];

beforeAll(async () => {
  data = await sampleData();
  green = await startGreen(data, { heartbeatMs: 200 });
});

afterAll(async () => {
  for (const server of servers) server.close();
  await green.close();
  await data.org.close();
});

async function purple(strategy: Strategy, path = ""): Promise<string> {
  const started = await servePurple("test", strategy, "127.0.0.1", 0, path);
  servers.push(started.server);
  return started.url;
}

/** A raw HTTP purple whose JSON-RPC endpoint answers as `reply` says. */
async function rawPurple(reply: (body: any, res: express.Response) => void): Promise<string> {
  const { url, server } = await rawPurpleServer(reply);
  servers.push(server);
  return url;
}

async function assessAgainst(agent: string, config: Record<string, unknown>) {
  const { body } = await rawRpc(green.url, "message/send", assessmentParams({ participants: { agent }, config }));
  expect(body.result.status.state).toBe("completed");
  return resultsOf(body.result);
}

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));

describe("a misbehaving purple agent ends its own episode, never the assessment", () => {
  it("times out", async () => {
    const agent = await purple(() => new Promise<string>(() => undefined));
    const results = await assessAgainst(agent, { task_ids: [0, 1], timeout: 0.5 });
    expect(results.summary.total_tasks).toBe(2);
    for (const entry of results.results) {
      expect(entry).toMatchObject({ crm_reward: 0, total_score: 0, dimension_scores: {}, success: false, termination: "timeout" });
      expect(entry.error).toBe("the purple agent did not answer within 0.5 s");
    }
    expect(results.original.summary.total_tasks).toBe(0);
    expect(results.terminations).toEqual({ timeout: 2 });
  });

  it("answers with something that is not a JSON-RPC response", async () => {
    const agent = await rawPurple((_body, res) => res.type("html").send("<html>oops</html>"));
    const results = await assessAgainst(agent, { task_ids: [0] });
    expect(results.results[0].termination).toBe("protocol_error");
    // Its status, media type and size: nothing of what it said (src/purple/echo.ts).
    expect(results.results[0].error).toMatch(/^the purple agent's reply to message\/send is not JSON \(text\/html, 17 bytes\)$/);
  });

  it("sends a reply larger than the limit", async () => {
    const agent = await rawPurple((body, res) =>
      res.json({ jsonrpc: "2.0", id: body.id, result: { kind: "message", role: "agent", messageId: "m", parts: [{ kind: "text", text: "x".repeat(5_000_000) }] } }),
    );
    const results = await assessAgainst(agent, { task_ids: [0] });
    expect(results.results[0].termination).toBe("protocol_error");
    expect(results.results[0].error).toMatch(/exceeded 4000000 bytes/);
  });

  it("reports a failed task", async () => {
    const agent = await rawPurple((body, res) =>
      res.json({
        jsonrpc: "2.0",
        id: body.id,
        result: {
          kind: "task",
          id: "t1",
          contextId: "c1",
          status: { state: "failed", message: { kind: "message", role: "agent", messageId: "m", parts: [{ kind: "text", text: "model overloaded" }] } },
        },
      }),
    );
    const results = await assessAgainst(agent, { task_ids: [0] });
    expect(results.results[0].termination).toBe("purple_error");
    expect(results.results[0].error).toMatch(/ended in state 'failed': model overloaded/);
  });

  it("goes away after its card was read", async () => {
    let closeIt: () => void = () => undefined;
    const agent = await rawPurple((_body, res) => {
      res.socket?.destroy();
      closeIt();
    });
    closeIt = () => servers[servers.length - 1]!.close();
    const { body } = await rawRpc(green.url, "message/send", assessmentParams({ participants: { agent }, config: { task_ids: [0, 1] } }));
    // Gone: the run stops early, saying why; its episodes are dropped, not burnt (a resend runs them once it is back).
    expect(body.result.status.state).toBe("failed");
    expect(body.result.status.message.parts[0].text).toMatch(
      /^Assessment stopped early after 0 of 2 tasks: the purple agent at .* has been unreachable for \d+\.\d s \(the purple agent (closed the connection without answering|refused the connection)/,
    );
    const results = resultsOf(body.result);
    expect(results.status).toBe("interrupted");
    expect(results.results).toHaveLength(0);
    expect(body.result.artifacts[0].parts[0].text).toMatch(/\nStopped early after 0 of 2 tasks: the purple agent at .* has been unreachable/);
  });

  it("replies with unusable actions until it runs out of turns", async () => {
    const agent = await rawPurple((body, res) =>
      res.json({
        jsonrpc: "2.0",
        id: body.id,
        result: { kind: "message", role: "agent", messageId: "m", contextId: "c", parts: [{ kind: "text", text: '{"name": "drop_everything", "arguments": {}}' }] },
      }),
    );
    const results = await assessAgainst(agent, { task_ids: [0], max_steps: 3 });
    const [entry] = results.results;
    expect(entry.termination).toBe("max_steps");
    expect(entry.metrics).toMatchObject({ turns: 3, invalid_actions: 3 });
    expect(entry.dimension_scores.ERROR_RECOVERY).toBe(0);
    expect(entry.trajectory.steps[0].action).toMatch(/unknown tool "drop_everything"/);
  });

  it("replies without a contextId: the episode goes on, and the results say once that each turn starts a new conversation", async () => {
    let calls = 0;
    const agent = await rawPurple((body, res) => {
      calls++;
      const text = calls % 2 === 1 ? '{"name": "soql_query", "arguments": {"query": "SELECT Id FROM Account LIMIT 1"}}' : '{"name": "respond", "arguments": {"answer": "None"}}';
      res.json({ jsonrpc: "2.0", id: body.id, result: { kind: "message", role: "agent", messageId: `m${calls}`, parts: [{ kind: "text", text }] } });
    });
    const results = await assessAgainst(agent, { task_ids: [0], max_steps: 4 });
    const [entry] = results.results;
    expect(entry.termination).toBe("answered");
    expect(entry.warnings).toHaveLength(1);
    expect(entry.warnings[0]).toMatch(/no A2A contextId, so the next turn cannot continue this conversation/);
  });

  it("sends hostile queries: the org answers with errors and stays unchanged", async () => {
    const before = await data.org.query(`SELECT (SELECT COUNT(*) FROM Account) AS a, (SELECT COUNT(*) FROM "Case") AS c`);
    const observed: string[] = [];
    const agent = await purple(async (_task, tools) => {
      for (const query of [
        "DROP TABLE Account",
        `DELETE FROM "Case"`,
        "ATTACH DATABASE '/tmp/evil.db' AS evil",
        "PRAGMA query_only = OFF",
        "SELECT 1; DELETE FROM Account",
        "WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r",
        "SELECT * FROM Account a, Contact b, Task c",
      ]) {
        try {
          const rows = await tools.sql(query);
          observed.push(`ok ${rows.length}`);
        } catch (error) {
          observed.push((error as Error).message.split(" (query")[0]!);
        }
      }
      return "None";
    });
    const results = await assessAgainst(agent, { task_ids: [29], max_steps: 10 });
    expect(results.results[0].termination).toBe("answered");
    expect(observed.slice(0, 5).every((text) => /^READ_ONLY|^SQL_ERROR/.test(text))).toBe(true);
    expect(observed[5]).toMatch(/^QUERY_TIMEOUT/);
    expect(observed[6]).toBe("ok 1000");
    const after = await data.org.query(`SELECT (SELECT COUNT(*) FROM Account) AS a, (SELECT COUNT(*) FROM "Case") AS c`);
    expect(after.ok && before.ok && after.rows).toEqual(before.ok && before.rows);
  });
});

describe("heartbeats", () => {
  it("keeps the stream alive while the purple agent thinks", async () => {
    const agent = await purple(async () => {
      await sleep(900);
      return "None";
    });
    const lines = await rawStream(green.url, assessmentParams({ participants: { agent }, config: { task_ids: [29] } }));
    const texts = lines
      .map((line) => line.result)
      .filter((event) => event.kind === "status-update")
      .map((event) => event.status.message.parts[0].text as string);
    expect(texts.some((text) => /^Still working: 0\/1 tasks finished/.test(text))).toBe(true);
    expect(lines[lines.length - 1].result.status.state).toBe("completed");
  });
});

describe("cancellation", () => {
  it("tasks/cancel stops starting episodes and ends the task as canceled", async () => {
    const agent = await purple(async () => {
      await sleep(200);
      return "None";
    });
    const params = assessmentParams({ participants: { agent }, config: { task_limit: 8, concurrency: 1 } });
    const started = await rawRpc(green.url, "message/send", { ...params, configuration: { blocking: false } });
    const taskId = started.body.result.id;
    await sleep(500);
    const canceled = await rawRpc(green.url, "tasks/cancel", { id: taskId, metadata: { task_token: started.body.result.metadata.task_token } });
    expect(canceled.body.result.status.state).toBe("canceled");
    expect(canceled.body.result.status.message.parts[0].text).toMatch(/^Assessment canceled after [0-7] of 8 tasks\.$/);
    expect(canceled.body.result.artifacts ?? []).toHaveLength(0);
  });
});
