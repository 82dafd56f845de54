import { createServer, request as httpRequest, type Server } from "node:http";
import { Agent, fetch as undiciFetch } from "undici";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseConfig, selectTasks } from "../../src/assessment/index.js";
import { servePurple, solverStrategy } from "../../src/baselines/index.js";
import { mergeShards } from "../../src/report/index.js";
import { serve } from "../../src/server/app.js";
import { assessmentParams, calibration, quietLogger, sampleData } from "../support/helpers.js";

/**
 * Plays the AgentBeats gateway of the Amber flow: participants sit behind its reverse proxy
 * (`/agent` → the purple), the green gets participant URLs on the gateway's own loopback
 * (unreachable from the green) and reaches them through its proxy slot (PROXY_URL); the
 * assessment is streamed with the gateway's 300 s read timeout, and the results are read the
 * way the gateway reads them (every DataPart's data, every TextPart that parses as JSON).
 */
const data = await sampleData();
let purple: Awaited<ReturnType<typeof servePurple>>;
let proxy: Server;
let proxyUrl: string;
let green: { server: Server; url: string };

/** A minimal reverse proxy: `/agent/...` → the purple, bodies streamed both ways. */
function startProxy(upstream: URL): Promise<Server> {
  const server = createServer((req, res) => {
    if (!req.url?.startsWith("/agent")) {
      res.writeHead(404).end();
      return;
    }
    const path = req.url.slice("/agent".length) || "/";
    const forward = httpRequest({ host: upstream.hostname, port: upstream.port, method: req.method, path, headers: { ...req.headers, host: upstream.host } }, (reply) => {
      res.writeHead(reply.statusCode ?? 502, reply.headers);
      reply.pipe(res);
    });
    forward.on("error", () => res.writeHead(502).end());
    req.pipe(forward);
  });
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(server)));
}

beforeAll(async () => {
  purple = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
  proxy = await startProxy(new URL(purple.url));
  proxyUrl = `http://127.0.0.1:${(proxy.address() as { port: number }).port}`;
  green = await serve({ host: "127.0.0.1", port: 0, data, logger: quietLogger(), calibration, proxyUrl });
});

afterAll(async () => {
  green.server.close();
  proxy.close();
  purple.server.close();
  await data.org.close();
});

const gatewayClient = new Agent({ bodyTimeout: 300_000, headersTimeout: 300_000 });

/** Streams one assessment as the gateway does and returns its final state and result items. */
async function runAsGateway(config: Record<string, unknown>): Promise<{ state: string; results: any[] }> {
  // The gateway's own loopback: nothing listens there from the green's point of view.
  const document = { participants: { agent: "http://127.0.0.1:1/agent" }, config };
  const response = await undiciFetch(green.url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/stream", params: assessmentParams(document) }),
    dispatcher: gatewayClient,
  });
  const events = (await response.text())
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => JSON.parse(line.slice(5)).result);
  let state = "unknown";
  const results: any[] = [];
  for (const event of events) {
    if (event.kind === "status-update") state = event.status.state;
    if (event.kind === "artifact-update") {
      for (const part of event.artifact.parts) {
        if (part.kind === "data") results.push(part.data);
        else if (part.kind === "text") {
          try {
            results.push(JSON.parse(part.text));
          } catch {
            // A text part that is not JSON is dropped, as the gateway does.
          }
        }
      }
    }
  }
  return { state, results };
}

describe("the AgentBeats gateway flow (Amber)", () => {
  it("runs two shards of num_instances 10 through the proxy slot, and their merge equals one unsharded run", async () => {
    const base = { num_instances: 10, drift_level: "medium", rot_level: "medium", seed: 42 };
    const shards = await Promise.all([0, 1].map((shard_index) => runAsGateway({ ...base, shard_index, num_shards: 2 })));
    for (const shard of shards) {
      expect(shard.state).toBe("completed");
      expect(shard.results).toHaveLength(1);
    }
    const [a, b] = shards.map((shard) => shard.results[0]);
    expect(a.run.id).toBe(b.run.id);
    expect([a.run.shard_index, b.run.shard_index]).toEqual([0, 1]);
    const idxs = (results: any) => results.results.map((entry: any) => Number(entry.task_idx));
    expect(idxs(a).filter((idx: number) => idxs(b).includes(idx))).toEqual([]);
    const selected = selectTasks(data.tasks, parseConfig({ task_limit: 10 }).config).tasks.map((task) => task.idx);
    expect([...idxs(a), ...idxs(b)].sort((x, y) => x - y)).toEqual([...selected].sort((x, y) => x - y));
    expect(a.results.every((entry: any) => entry.success)).toBe(true);

    const whole = await runAsGateway(base);
    expect(whole.state).toBe("completed");
    const single = whole.results[0];
    const merged = mergeShards([a, b]);
    expect(merged.summary).toEqual(single.summary);
    expect(merged.dimension_averages).toEqual(single.dimension_averages);
    expect(merged.original.scores).toEqual(single.original.scores);
    expect(merged.aggregates.total_tasks).toBe(10);
    expect(merged.aggregates.score_sum).toBeCloseTo(single.aggregates.score_sum, 6);
    expect(Object.keys(merged.by_category).sort()).toEqual(Object.keys(single.by_category).sort());
  }, 120_000);

  it("rejects shards of different runs, or a run with a shard missing", async () => {
    const one = (await runAsGateway({ task_limit: 2, shard_index: 0, num_shards: 2 })).results[0];
    const other = (await runAsGateway({ task_limit: 3, shard_index: 1, num_shards: 2 })).results[0];
    expect(() => mergeShards([one, other])).toThrow(/different runs/);
    expect(() => mergeShards([one])).toThrow(/has 2 shards; got shard indices 0/);
  }, 60_000);
});
