/**
 * A minimal purple agent for benchmarks: a raw node:http server speaking A2A 0.3 JSON-RPC
 * `message/send` (no SDK, no sessions, so it costs next to nothing in CPU and its timing is
 * exact). Every reply waits `--delay-ms` after the request arrived, then:
 *
 *  - on turns 1 .. turns-1 it calls sql_query with `--sql`;
 *  - on turn `--turns` it answers ({"name": "respond", ...}).
 *
 * The turn is read from the green agent's message (the observation's `turn`), so the agent keeps
 * no state between requests. `--turns 1` answers at once: each episode is one turn. A `--turns`
 * beyond the assessment's max_steps never answers: every turn is a query until the green stops.
 *
 *   node --import tsx bench/purple.ts --port 9019 [--delay-ms 1000] [--turns 1] [--sql "SELECT ..."]
 */
import { randomUUID } from "node:crypto";
import { createServer, type ServerResponse } from "node:http";
import { parseArgs } from "node:util";

const { values } = parseArgs({
  options: {
    host: { type: "string", default: "127.0.0.1" },
    port: { type: "string", default: "9019" },
    "delay-ms": { type: "string", default: "0" },
    turns: { type: "string", default: "1" },
    sql: { type: "string", default: "SELECT Id FROM Account LIMIT 1" },
    answer: { type: "string", default: "None" },
  },
});
const delayMs = Number(values["delay-ms"]);
const turns = Number(values.turns);
const queryAction = JSON.stringify({ name: "sql_query", arguments: { query: values.sql } });
const answerAction = JSON.stringify({ name: "respond", arguments: { answer: values.answer } });
const url = `http://${values.host}:${values.port}/`;
const card = JSON.stringify({
  name: "Entropic CRMArena bench purple",
  description: `Answers on turn ${turns} after ${delayMs} ms per turn (benchmark purple).`,
  url,
  version: "1.0.0",
  protocolVersion: "0.3.0",
  preferredTransport: "JSONRPC",
  capabilities: { streaming: false },
  defaultInputModes: ["text", "data"],
  defaultOutputModes: ["text"],
  skills: [{ id: "bench", name: "bench", description: "Fixed-latency replies for benchmarks.", tags: ["bench"] }],
});

interface Part {
  kind: string;
  data?: Record<string, unknown>;
}

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

function reply(id: unknown, params: { message?: { contextId?: string; parts?: Part[] } }): string {
  const message = params.message ?? {};
  const data = (message.parts ?? []).find((part) => part.kind === "data")?.data ?? {};
  // The task message carries no turn; each observation or reminder carries the turn it answered.
  const turn = typeof data.turn === "number" ? data.turn + 1 : 1;
  const result = {
    kind: "message",
    role: "agent",
    messageId: randomUUID(),
    contextId: message.contextId ?? randomUUID(),
    parts: [{ kind: "text", text: turn >= turns ? answerAction : queryAction }],
  };
  return JSON.stringify({ jsonrpc: "2.0", id, result });
}

/**
 * What arrived, for the benchmark to read over IPC ({stats: true}): sizes, and when each request
 * arrived and the last reply left (milliseconds since the epoch, to compare with the benchmark's clock).
 */
const stats = { connections: 0, requests: 0, bodyBytes: 0, maxBodyBytes: 0, observationChars: 0, maxObservationChars: 0, observations: 0, arrivals: [] as number[], lastReplyAt: 0 };
const epochMs = () => performance.timeOrigin + performance.now();

function count(bytes: number, params: { message?: { parts?: { kind: string; text?: string; data?: Record<string, unknown> }[] } }): void {
  stats.requests++;
  stats.arrivals.push(epochMs());
  stats.bodyBytes += bytes;
  stats.maxBodyBytes = Math.max(stats.maxBodyBytes, bytes);
  const parts = params.message?.parts ?? [];
  if (parts.some((part) => part.kind === "data" && part.data?.type === "tool_result")) {
    const chars = parts.reduce((sum, part) => sum + (part.kind === "text" ? (part.text?.length ?? 0) : 0), 0);
    stats.observations++;
    stats.observationChars += chars;
    stats.maxObservationChars = Math.max(stats.maxObservationChars, chars);
  }
}

function handle(res: ServerResponse, raw: Buffer): void {
  const arrived = performance.now();
  const body = raw.toString("utf8");
  let request: { id?: unknown; method?: string; params?: Record<string, unknown> };
  try {
    request = JSON.parse(body) as typeof request;
  } catch {
    send(res, 400, JSON.stringify({ jsonrpc: "2.0", id: null, error: { code: -32700, message: "Parse error" } }));
    return;
  }
  if (request.method !== "message/send") {
    send(res, 200, JSON.stringify({ jsonrpc: "2.0", id: request.id ?? null, error: { code: -32601, message: `Method not found: ${request.method}` } }));
    return;
  }
  count(raw.length, (request.params ?? {}) as Parameters<typeof count>[1]);
  const text = reply(request.id, (request.params ?? {}) as Parameters<typeof reply>[1]);
  const wait = Math.max(0, delayMs - (performance.now() - arrived));
  setTimeout(() => {
    send(res, 200, text);
    stats.lastReplyAt = epochMs();
  }, wait);
}

const server = createServer((req, res) => {
  if (req.method === "GET" && (req.url === "/.well-known/agent-card.json" || req.url === "/.well-known/agent.json")) {
    send(res, 200, card);
    return;
  }
  if (req.method !== "POST") {
    send(res, 404, "{}");
    return;
  }
  const chunks: Buffer[] = [];
  req.on("data", (chunk: Buffer) => chunks.push(chunk));
  req.on("end", () => handle(res, Buffer.concat(chunks)));
});
server.on("connection", () => stats.connections++);
// Longer than any pause between two turns of one connection, so the green's pool keeps its connections.
server.keepAliveTimeout = 60_000;
server.listen(Number(values.port), values.host, () => process.stderr.write(`bench purple listening on ${url}\n`));
process.on("message", (message: { stats?: boolean; reset?: boolean }) => {
  if (message?.stats) process.send?.({ stats });
  if (message?.reset) Object.assign(stats, { connections: 0, requests: 0, bodyBytes: 0, maxBodyBytes: 0, observationChars: 0, maxObservationChars: 0, observations: 0, arrivals: [], lastReplyAt: 0 });
});
process.channel?.unref();
process.on("disconnect", () => process.exit(0));
