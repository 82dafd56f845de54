/**
 * A minimal purple agent for benchmarks: a raw node:http server speaking A2A JSON-RPC, 1.0's
 * `SendMessage` and 0.3's `message/send` (no SDK, no sessions, so it costs next to nothing in CPU
 * and its timing is exact; it is also the smallest example of a purple that speaks both versions).
 * `--a2a` chooses what its card offers: `both` (the default: a 1.0 card listing a JSON-RPC interface
 * of each version, so the green speaks 1.0), `1.0` or `0.3` (a 0.3 card). Every reply waits
 * `--delay-ms` after the request arrived, then:
 *
 *  - on turns 1 .. turns-1 it calls sql_query with `--sql`;
 *  - on turn `--turns` it answers ({"name": "respond", ...}).
 *
 * The turn is read from the green agent's message (the observation's `turn`), so the agent keeps
 * no state between requests. `--turns 1` answers at once: each episode is one turn. A `--turns`
 * beyond the assessment's max_steps never answers: every turn is a query until the green stops.
 *
 *   node --import tsx bench/purple.ts --port 9019 [--delay-ms 1000] [--turns 1] [--sql "SELECT ..."] [--a2a both|1.0|0.3]
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
    a2a: { type: "string", default: "both" },
  },
});
if (!["both", "1.0", "0.3"].includes(values.a2a!)) throw new Error(`--a2a: expected both, 1.0 or 0.3 (got '${values.a2a}')`);
const delayMs = Number(values["delay-ms"]);
const turns = Number(values.turns);
const queryAction = JSON.stringify({ name: "sql_query", arguments: { query: values.sql } });
const answerAction = JSON.stringify({ name: "respond", arguments: { answer: values.answer } });
const url = `http://${values.host}:${values.port}/`;
const description = `Answers on turn ${turns} after ${delayMs} ms per turn (benchmark purple).`;
const skills = [{ id: "bench", name: "bench", description: "Fixed-latency replies for benchmarks.", tags: ["bench"] }];
const interfaces = (values.a2a === "both" ? ["1.0", "0.3"] : [values.a2a]).map((protocolVersion) => ({ url, protocolBinding: "JSONRPC", protocolVersion }));
/** A 0.3 card (url, protocolVersion), or a 1.0 one (supportedInterfaces): what the green chooses the version from. */
const card = JSON.stringify(
  values.a2a === "0.3"
    ? { name: "Entropic CRMArena bench purple", description, url, version: "1.0.0", protocolVersion: "0.3.0", preferredTransport: "JSONRPC", capabilities: { streaming: false }, defaultInputModes: ["text", "data"], defaultOutputModes: ["text"], skills }
    : { name: "Entropic CRMArena bench purple", description, supportedInterfaces: interfaces, version: "1.0.0", capabilities: { streaming: false }, defaultInputModes: ["text/plain", "application/json"], defaultOutputModes: ["text/plain"], skills },
);

/** A part of either version: 0.3 names its kind (`{"kind": "data", "data": ...}`), 1.0 holds one field (`{"data": ...}`). */
interface Part {
  kind?: string;
  text?: string;
  data?: Record<string, unknown>;
}

const dataOf = (parts: Part[] | undefined) => (parts ?? []).find((part) => part.data !== undefined)?.data;

function send(res: ServerResponse, status: number, body: string): void {
  res.writeHead(status, { "content-type": "application/json", "content-length": Buffer.byteLength(body) });
  res.end(body);
}

/** The reply Message, in the shapes of the version the request was written in. */
function reply(id: unknown, version: "0.3" | "1.0", params: { message?: { contextId?: string; parts?: Part[] } }): string {
  const message = params.message ?? {};
  const data = dataOf(message.parts) ?? {};
  // The task message carries no turn; each observation or reminder carries the turn it answered.
  const turn = typeof data.turn === "number" ? data.turn + 1 : 1;
  const text = turn >= turns ? answerAction : queryAction;
  const contextId = message.contextId ?? randomUUID();
  const result =
    version === "1.0"
      ? { message: { messageId: randomUUID(), contextId, role: "ROLE_AGENT", parts: [{ text }] } }
      : { kind: "message", role: "agent", messageId: randomUUID(), contextId, parts: [{ kind: "text", text }] };
  return JSON.stringify({ jsonrpc: "2.0", id, result });
}

/**
 * What arrived, for the benchmark to read over IPC ({stats: true}): sizes, and when each request
 * arrived and the last reply left (milliseconds since the epoch, to compare with the benchmark's clock).
 */
const stats = { connections: 0, requests: 0, bodyBytes: 0, maxBodyBytes: 0, observationChars: 0, maxObservationChars: 0, observations: 0, arrivals: [] as number[], lastReplyAt: 0 };
const epochMs = () => performance.timeOrigin + performance.now();

function count(bytes: number, params: { message?: { parts?: Part[] } }): void {
  stats.requests++;
  stats.arrivals.push(epochMs());
  stats.bodyBytes += bytes;
  stats.maxBodyBytes = Math.max(stats.maxBodyBytes, bytes);
  const parts = params.message?.parts ?? [];
  if (dataOf(parts)?.type === "tool_result") {
    const chars = parts.reduce((sum, part) => sum + (part.text?.length ?? 0), 0);
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
  // The method says the version (an A2A 1.0 client also sends A2A-Version: 1.0); only those the card offers are answered.
  const version = request.method === "SendMessage" ? "1.0" : request.method === "message/send" ? "0.3" : undefined;
  if (!version || (values.a2a !== "both" && values.a2a !== version)) {
    send(res, 200, JSON.stringify({ jsonrpc: "2.0", id: request.id ?? null, error: { code: -32601, message: `Method not found: ${request.method}` } }));
    return;
  }
  count(raw.length, (request.params ?? {}) as Parameters<typeof count>[1]);
  const text = reply(request.id, version, (request.params ?? {}) as Parameters<typeof reply>[2]);
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
