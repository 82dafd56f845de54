import { mkdtempSync, readFileSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { Client } from "@modelcontextprotocol/sdk/client/index.js";
import { StreamableHTTPClientTransport } from "@modelcontextprotocol/sdk/client/streamableHttp.js";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type AssessmentData, type ChannelEpisode, REFUSAL_PAUSE_MS, SIDE_CALLS_IN_FLIGHT, SideCalls } from "../../src/assessment/index.js";
import { type Strategy, servePurple, solverStrategy } from "../../src/baselines/index.js";
import { MCP_LIMITS, McpHub, NO_EPISODE } from "../../src/mcp/index.js";
import { MCP_SKILL_ID } from "../../src/server/index.js";
import { BUILT_IN_TOOLS, parametersOf } from "../../src/tools/index.js";
import { assessmentParams, quietLogger, rawStream, sampleData, startGreen } from "../support/helpers.js";

/**
 * The green's MCP endpoint (issue 30, docs/protocol.md section 18): a stock SDK client reaches an
 * open episode's org with the token of its first message, and nothing else; the solver over MCP
 * scores as it does in-message.
 */
let data: AssessmentData;
let green: Awaited<ReturnType<typeof startGreen>>;
const purples: { server: { close(): void } }[] = [];

beforeAll(async () => {
  data = await sampleData();
  // With journals, so that the whole texts held for them (the MCP steps' too) are checked against the trajectory.
  green = await startGreen(data, { runsDir: mkdtempSync(join(tmpdir(), "entropic-mcp-runs-")) });
});

afterAll(async () => {
  for (const purple of purples) purple.server.close();
  await green.close();
  await data.org.close();
});

async function purple(strategy: Strategy, options: { mcp?: boolean } = {}): Promise<string> {
  // A card of its own each (the run id digests it): no run continues another's journal.
  const served = await servePurple(`mcp-test-${purples.length}`, strategy, "127.0.0.1", 0, options);
  purples.push(served);
  return served.url;
}

async function run(url: string, config: Record<string, unknown>): Promise<any> {
  const lines = await rawStream(green.url, assessmentParams({ participants: { agent: url }, config }));
  const artifact = lines.map((line) => line.result).find((event) => event.kind === "artifact-update");
  if (!artifact) throw new Error(`no results: ${JSON.stringify(lines.at(-1))}`);
  return artifact.artifact.parts[1].data;
}

/** A stock SDK client on a URL, with no project code between. */
async function stockClient(url: string): Promise<Client> {
  const client = new Client({ name: "stock", version: "1.0.0" });
  await client.connect(new StreamableHTTPClientTransport(new URL(url)));
  return client;
}

const textOf = (result: any) => (result.content as { text?: string }[]).map((part) => part.text ?? "").join("");

describe("the MCP endpoint, with a stock SDK client", () => {
  it("serves an open episode's tools, and refuses an ended episode's token and a made-up one", async () => {
    const seen: { url: string; token: string; tools: string[]; schema: string; rows: number; earlier?: string }[] = [];
    const url = await purple(async (task) => {
      const mcp = task.data.mcp as { url: string; token: string; transport: string };
      expect(mcp.transport).toBe("streamable-http");
      const client = await stockClient(mcp.url);
      const { tools } = await client.listTools();
      const described = await client.callTool({ name: "describe_schema", arguments: { object: "Case" } });
      const queried = await client.callTool({ name: "soql_query", arguments: { query: "SELECT Id, Subject FROM Case LIMIT 2" } });
      await client.close();
      // The episode before this one has ended: its token opens nothing now.
      let earlier: string | undefined;
      if (seen.length > 0)
        earlier = await stockClient(seen[0]!.url).then(
          () => "connected",
          (error: Error) => error.message,
        );
      seen.push({
        url: mcp.url,
        token: mcp.token,
        tools: tools.map((tool) => tool.name),
        schema: textOf(described),
        rows: (queried.structuredContent as { records: unknown[] }).records.length,
        ...(earlier ? { earlier } : {}),
      });
      return "None";
    });
    const results = await run(url, { task_limit: 2, concurrency: 1 });
    expect(seen).toHaveLength(2);
    const [first, second] = seen;
    expect(first!.url).toBe(`${green.url}mcp/${first!.token}`);
    expect(first!.token).not.toBe(second!.token);
    expect(first!.token).toMatch(/^[A-Za-z0-9_-]{32}$/);
    expect(first!.tools).toEqual(["describe_schema", "soql_query", "sosl_search", "sql_query"]);
    expect(first!.schema).toContain("Case");
    expect(first!.rows).toBe(2);
    expect(second!.earlier).toMatch(/-32001.*episode has ended/);
    // Each MCP call is a step of its episode, recorded as such; the answer is the A2A reply.
    for (const entry of results.results) {
      expect(entry.trajectory.steps.map((step: any) => [step.action.split(":")[0], step.channel ?? "message"])).toEqual([
        ["describe_schema", "mcp"],
        ["soql_query", "mcp"],
        ["respond", "message"],
      ]);
      expect(entry.metrics.turns).toBe(3);
      expect(entry.metrics.queries).toBe(1);
    }
    // After the run: the ended token, and one nobody was given, are refused before any tool.
    await expect(stockClient(first!.url)).rejects.toThrow(/episode has ended/);
    await expect(stockClient(`${green.url}mcp/${"A".repeat(32)}`)).rejects.toThrow(/no open episode has this MCP token/);
    await expect(stockClient(`${green.url}mcp`)).rejects.toThrow(/no MCP token/);
  }, 60_000);

  it("counts MCP calls as steps: beyond the budget a call is refused, and the A2A reply still answers", async () => {
    const outcomes: { error: boolean; text: string }[] = [];
    const url = await purple(async (task) => {
      const client = await stockClient((task.data.mcp as { url: string }).url);
      for (let i = 0; i < 3; i++) {
        const result: any = await client.callTool({ name: "soql_query", arguments: { query: "SELECT Id FROM Account LIMIT 1" } });
        outcomes.push({ error: result.isError === true, text: textOf(result) });
      }
      await client.close();
      return "None";
    });
    const results = await run(url, { task_limit: 1, max_steps: 3 });
    expect(outcomes.map((outcome) => outcome.error)).toEqual([false, false, true]);
    expect(outcomes[0]!.text).toMatch(/\(2 replies left\)$/);
    expect(outcomes[1]!.text).toMatch(/\(1 reply left\)$/);
    expect(outcomes[2]!.text).toMatch(/^Refused: the episode's step budget is spent/);
    const [entry] = results.results;
    expect(entry.trajectory.termination).toBe("answered");
    expect(entry.trajectory.steps.map((step: any) => step.channel ?? "message")).toEqual(["mcp", "mcp", "message"]);
    expect(entry.metrics.turns).toBe(3);
  }, 60_000);

  it("is not offered with config mcp: false", async () => {
    let offered: unknown = "unset";
    const url = await purple(async (task) => {
      offered = task.data.mcp;
      return "None";
    });
    await run(url, { task_limit: 1, mcp: false });
    expect(offered).toBeUndefined();
  }, 60_000);
});

describe("the solver over MCP", () => {
  it("in interactive mode: queries over MCP after each thing the user says (the budget starts again), and passes", async () => {
    const results = await run(await purple(solverStrategy, { mcp: true }), { task_limit: 6, mode: "interactive", user_simulator: "scripted", max_steps: 6 });
    expect(results.summary.total_passed).toBe(results.summary.total_tasks);
    // An episode with more MCP calls than max_steps allows at once: the user's replies renewed its budget.
    const steps = results.results.map((entry: any) => entry.trajectory.steps);
    expect(steps.some((list: any[]) => list.filter((step) => step.channel === "mcp").length > 6)).toBe(true);
    for (const list of steps) expect(list.at(-1).channel).toBeUndefined();
  }, 120_000);

  for (const level of ["none", "high"] as const) {
    it(`passes the sample at drift and rot ${level} with the scores and counts it has in-message`, async () => {
      const config = { concurrency: 8, drift_level: level, rot_level: level };
      const inMessage = await run(await purple(solverStrategy), config);
      const overMcp = await run(await purple(solverStrategy, { mcp: true }), config);
      expect(overMcp.summary.total_tasks).toBe(data.tasks.tasks.length);
      expect(overMcp.summary.total_passed).toBe(inMessage.summary.total_passed);
      const byTask = (results: any) =>
        Object.fromEntries(
          results.results.map((entry: any) => [
            entry.task_idx,
            { success: entry.success, total: entry.total_score, dimensions: entry.dimension_scores, turns: entry.metrics.turns, queries: entry.metrics.queries },
          ]),
        );
      expect(byTask(overMcp)).toEqual(byTask(inMessage));
      for (const entry of overMcp.results) {
        const steps = entry.trajectory.steps;
        expect(steps.at(-1).channel).toBeUndefined();
        for (const step of steps.slice(0, -1)) expect(step.channel).toBe("mcp");
      }
    }, 180_000);
  }
});

/** An express app serving one hub, as the green mounts it. */
async function hubServer(hub: McpHub): Promise<{ url: string; close: () => void }> {
  const app = express();
  app.use("/mcp", hub.router());
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const address = server.address() as { port: number };
  return { url: `http://127.0.0.1:${address.port}/`, close: () => server.close() };
}

/** An episode that answers every call with no records and records nothing (the hub's side of the seam). */
const quietEpisode = (calls: string[] = []): ChannelEpisode => ({
  label: "test",
  tools: BUILT_IN_TOOLS,
  call: async (name) => {
    calls.push(name);
    return { kind: "observation", ok: true, message: { text: "Salesforce instance output: []", data: { type: "tool_result", ok: true, records: [] } } };
  },
});

const post = (url: string, body: unknown, headers: Record<string, string> = {}) =>
  fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "application/json, text/event-stream", ...headers },
    body: typeof body === "string" ? body : JSON.stringify(body),
  });

const LIST = { jsonrpc: "2.0", id: 7, method: "tools/list", params: {} };

describe("the MCP endpoint's doors", () => {
  it("opens an episode by the URL's token or a Bearer header, and refuses ended, unknown and missing tokens, other methods and bodies past the bounds", async () => {
    const hub = new McpHub("http://green.example:9009/", quietLogger(), "test");
    const served = await hubServer(hub);
    try {
      const door = hub.open(quietEpisode());
      expect(door.access.url).toBe(`http://green.example:9009/mcp/${door.access.token}`);
      const local = `${served.url}mcp/${door.access.token}`;
      const listed = await (await post(local, LIST)).json();
      expect(listed.result.tools.map((tool: any) => tool.name)).toEqual(["describe_schema", "soql_query", "sosl_search", "sql_query"]);
      // The schemas the first message shows, from the same specs.
      expect(listed.result.tools[1].inputSchema).toEqual(parametersOf(BUILT_IN_TOOLS[1]!));
      expect((await (await post(`${served.url}mcp`, LIST, { authorization: `Bearer ${door.access.token}` })).json()).result.tools).toHaveLength(4);
      const refusals: Record<string, { status: number; body: any }> = {};
      const refused = async (what: string, response: Promise<Response>) => {
        const answer = await response;
        refusals[what] = { status: answer.status, body: await answer.json() };
      };
      await refused("unknown", post(`${served.url}mcp/${"A".repeat(32)}`, LIST));
      await refused("missing", post(`${served.url}mcp`, LIST));
      await refused("get", fetch(local));
      await refused("large", post(local, { ...LIST, params: { padding: "x".repeat(MCP_LIMITS.bodyBytes) } }));
      await refused("deep", post(local, `${"[".repeat(MCP_LIMITS.jsonDepth + 1)}${"]".repeat(MCP_LIMITS.jsonDepth + 1)}`));
      door.close();
      await refused("ended", post(local, LIST));
      expect(refusals.ended!.status).toBe(404);
      expect(refusals.ended!.body.error.code).toBe(NO_EPISODE);
      expect(refusals.ended!.body.id).toBe(7);
      expect(refusals.unknown!.status).toBe(404);
      expect(refusals.missing!.status).toBe(404);
      expect(refusals.get!.status).toBe(405);
      expect(refusals.large!.status).toBe(413);
      expect(refusals.deep!.status).toBe(400);
      expect(hub.openEpisodes).toBe(0);
      // docs/protocol.md section 18 quotes every one of them.
      const doc = section18();
      for (const what of ["ended", "unknown", "missing"] as const) {
        const message = refusals[what]!.body.error.message as string;
        expect(doc, what).toContain(what === "ended" ? message : message.split(":")[0]);
      }
    } finally {
      served.close();
    }
  });

  it("answers an episode's requests a few at a time: one more is refused before any work", async () => {
    const hub = new McpHub("http://127.0.0.1:1/", quietLogger(), "test");
    const served = await hubServer(hub);
    let release: () => void = () => undefined;
    const held = new Promise<void>((resolve) => (release = resolve));
    const calls: string[] = [];
    const door = hub.open({
      ...quietEpisode(calls),
      call: async (name) => {
        calls.push(name);
        await held;
        return { kind: "observation", ok: true, message: { text: "ok", data: {} } };
      },
    });
    try {
      const url = `${served.url}mcp/${door.access.token}`;
      const call = (id: number) => post(url, { jsonrpc: "2.0", id, method: "tools/call", params: { name: "soql_query", arguments: { query: "SELECT Id FROM Case" } } });
      const first = Array.from({ length: MCP_LIMITS.requestsPerEpisode }, (_, i) => call(i));
      await until(() => calls.length === MCP_LIMITS.requestsPerEpisode);
      const extra = await call(99);
      expect(extra.status).toBe(429);
      expect(calls).toHaveLength(MCP_LIMITS.requestsPerEpisode);
      release();
      for (const answer of await Promise.all(first)) expect(answer.status).toBe(200);
      expect((await call(100)).status).toBe(200);
    } finally {
      release();
      served.close();
    }
  });

  it("refuses every door after a shutdown", async () => {
    const hub = new McpHub("http://127.0.0.1:1/", quietLogger(), "test");
    const served = await hubServer(hub);
    try {
      const door = hub.open(quietEpisode());
      hub.close();
      const answer = await post(`${served.url}mcp/${door.access.token}`, LIST);
      expect(answer.status).toBe(404);
      expect((await answer.json()).error.message).toMatch(/episode has ended/);
    } finally {
      served.close();
    }
  });
});

/** Waits for `condition`, looking every 10 ms, at most 500 times (the count is the bound, not a clock). */
async function until(condition: () => boolean): Promise<void> {
  for (let look = 0; !condition(); look++) {
    if (look >= 500) throw new Error("gave up waiting");
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** docs/protocol.md's section 18, its lines joined (the doc wraps its sentences). */
function section18(): string {
  const doc = readFileSync(fileURLToPath(new URL("../../docs/protocol.md", import.meta.url)), "utf8");
  return doc.slice(doc.indexOf("## 18. The tools over MCP")).replace(/\s+/g, " ");
}

describe("docs/protocol.md section 18", () => {
  it("says what the code does: the skill, the budget's refusals, the limits", async () => {
    const doc = section18();
    expect(doc).toContain(`skill \`${MCP_SKILL_ID}\``);
    const refusalAt = async (used: number) => {
      const side = new SideCalls({
        world: { runTool: async () => ({ ok: true, kind: "records", records: [], truncated: false, elapsedMs: 0 }), idStatus: () => "absent" },
        today: "2020-01-01",
        offered: BUILT_IN_TOOLS,
        maxSteps: 10,
        texts: { keep: (text) => text },
        distractorsSeen: new Set(),
        label: "test",
        used: () => used,
        nextTurn: () => used + 1,
        push: () => 0,
      });
      return side.call("soql_query", { query: "SELECT Id FROM Account" }, 0);
    };
    // Two steps left: served; one left: refused, as the doc quotes.
    expect((await refusalAt(8)).kind).toBe("observation");
    const refused = await refusalAt(9);
    expect(refused.kind).toBe("refused");
    expect(doc).toContain(`Refused: ${(refused as { reason: string }).reason}.`);
    expect(doc).toContain(`At most ${SIDE_CALLS_IN_FLIGHT} calls of an episode run at once`);
    expect(doc).toContain(
      `a body over ${MCP_LIMITS.bodyBytes.toLocaleString("en-US")} bytes; nested deeper than ${MCP_LIMITS.jsonDepth} levels or holding more than ${MCP_LIMITS.jsonItems.toLocaleString("en-US")} values`,
    );
    expect(doc).toContain(`${MCP_LIMITS.requestsPerEpisode} requests of one episode being answered at once`);
    expect(doc).toContain(`${MCP_LIMITS.requestsInFlight.toLocaleString("en-US")} requests of all episodes being answered at once`);
    expect(doc).toContain(`answered after ${REFUSAL_PAUSE_MS / 1000} s`);
  });
});
