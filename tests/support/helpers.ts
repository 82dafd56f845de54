import type { Server } from "node:http";
import { createServer } from "node:net";
import { fileURLToPath } from "node:url";
import express from "express";
import { Agent, fetch } from "undici";
import type { AssessmentData } from "../../src/assessment/index.js";
import { loadCalibration } from "../../src/data/calibration.js";
import { type OpenOrgOptions, type OrgBackend, type OrgRow, openBackend, SqliteOrgStore } from "../../src/org/index.js";
import { a2aPurpleClients, retryWindowFromEnv } from "../../src/purple/index.js";
import { serve } from "../../src/server/app.js";
import type { TaskRecord } from "../../src/tasks/index.js";
import { loadTaskFile } from "../../src/tasks/load.js";
import { userSimulatorFor } from "../../src/users/index.js";
import { createLogger } from "../../src/util/logger.js";

export const SAMPLE_ORG = fileURLToPath(new URL("../../data/sample/org", import.meta.url));
export const SAMPLE_TASKS = fileURLToPath(new URL("../../data/sample/tasks.json", import.meta.url));
/** The real CRMArena-Pro tasks, read from ../shared (never copied into the project). */
export const REAL_TASKS = fileURLToPath(new URL("../../../shared/data/crmarenapro/b2b_tasks.json", import.meta.url));

export const quietLogger = () => createLogger("silent");

/** An org through the backend factory, as the SQLite store it is (for tests of the SOQL and SOSL engines' SQL). */
export async function openSqliteOrg(location: string, options: OpenOrgOptions = {}): Promise<SqliteOrgStore> {
  const org = await openBackend(location, options);
  if (!(org instanceof SqliteOrgStore)) throw new Error(`${location} did not open as a SQLite org`);
  return org;
}

/** Every object's rows of an org read up front, as a synchronous lookup (what entropy's planners take). */
export async function rowsOf(org: OrgBackend): Promise<(object: string) => readonly OrgRow[]> {
  const rows = new Map(await Promise.all(org.schema.objects.map(async (object) => [object.name, await org.rows(object.name)] as const)));
  return (object) => rows.get(object) ?? [];
}

export async function sampleData(tasksPath = SAMPLE_TASKS): Promise<AssessmentData & { org: SqliteOrgStore }> {
  const kind = tasksPath === SAMPLE_TASKS ? "sample" : "custom";
  return {
    tasks: loadTaskFile(tasksPath),
    org: await openSqliteOrg(SAMPLE_ORG, { workers: 2 }),
    dataset: kind,
    sources: { tasks: { path: tasksPath, kind }, org: { path: SAMPLE_ORG, kind: "sample" } },
  };
}

/** The calibration shipped in data/calibration.json. */
export const calibration = loadCalibration();

export async function startGreen(
  data: AssessmentData,
  options: { heartbeatMs?: number; runsDir?: string; tasksFile?: string } = {},
): Promise<{ url: string; server: Server; close: () => Promise<void>; shutdown: (graceMs: number) => Promise<void> }> {
  // As `serve` on the command line: the purple's retry window from ENTROPIC_PURPLE_RETRY_SECONDS, read per assessment (tests set it).
  const createPurple = a2aPurpleClients(() => ({ retryWindowMs: retryWindowFromEnv(process.env) }));
  // Likewise interactive mode's user, with a model when the test has set the LLM_* variables.
  const createUser = (choice: Parameters<typeof userSimulatorFor>[0]) => userSimulatorFor(choice, process.env);
  const { server, url, shutdown } = await serve({ host: "127.0.0.1", port: 0, data, logger: quietLogger(), calibration, createPurple, createUser, ...options });
  return { server, url, close: () => new Promise((resolve) => server.close(() => resolve())), shutdown };
}

let rpcId = 0;

/**
 * Test calls open a connection each (no keep-alive). A kept-alive socket that sits idle while a
 * slow test runs can be closed by the server just as the next call reuses it: on two busy cores
 * that race gave `fetch failed … ECONNRESET` now and then. Real clients retry or reconnect; a test
 * must not depend on the timing.
 */
const fresh = new Agent({ pipelining: 0 });

/** A raw JSON-RPC call, as the Python AgentBeats client sends it. */
export async function rawRpc(url: string, method: string, params: unknown): Promise<{ status: number; body: any }> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json" },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method, params }),
    dispatcher: fresh,
  });
  return { status: response.status, body: (await response.json()) as any };
}

/** A raw `message/stream` call: every SSE `data:` line, parsed. */
export async function rawStream(url: string, params: unknown): Promise<any[]> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: ++rpcId, method: "message/stream", params }),
    dispatcher: fresh,
  });
  const text = await response.text();
  return text
    .split("\n")
    .filter((line) => line.startsWith("data:"))
    .map((line) => JSON.parse(line.slice(5).trim()));
}

/** The `params` of a `message/send` carrying an assessment request in a text part. */
export function assessmentParams(document: unknown, asText = true) {
  return {
    message: {
      kind: "message",
      role: "user",
      messageId: `m-${++rpcId}`,
      parts: [asText ? { kind: "text", text: typeof document === "string" ? document : JSON.stringify(document) } : { kind: "data", data: document }],
    },
    configuration: { blocking: true },
  };
}

/** The last status text of a Task returned by a blocking `message/send`. */
export function statusText(task: any): string {
  return (task?.status?.message?.parts ?? []).map((part: any) => part.text ?? "").join("");
}

/** The results DataPart of a completed Task. */
export function resultsOf(task: any): any {
  const artifact = (task.artifacts ?? []).find((candidate: any) => candidate.name === "CRMArena Assessment Results");
  return artifact?.parts.find((part: any) => part.kind === "data")?.data;
}

/**
 * A purple at the HTTP level: a valid agent card, and `reply(body, res)` answers each JSON-RPC
 * POST however the test wants (well-formed, malformed, slow, never). Closed by the caller.
 */
export async function rawPurpleServer(reply: (body: any, res: express.Response) => void, bodyLimit = "10mb"): Promise<{ url: string; server: Server }> {
  const app = express();
  app.use(express.json({ limit: bodyLimit }));
  let url = "";
  app.get("/.well-known/agent-card.json", (_req, res) => {
    res.json({
      name: "raw",
      description: "A purple scripted at the HTTP level by a test.",
      url,
      version: "1",
      protocolVersion: "0.3.0",
      capabilities: {},
      defaultInputModes: ["text"],
      defaultOutputModes: ["text"],
      skills: [{ id: "x", name: "x", description: "x", tags: [] }],
    });
  });
  app.post("/", (req, res) => reply(req.body, res));
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
  return { url, server };
}

/** A TCP port free on loopback now, for a child process that must be told its port up front. */
export function freePort(): Promise<number> {
  return new Promise((resolve) => {
    const server = createServer();
    server.listen(0, "127.0.0.1", () => {
      const { port } = server.address() as { port: number };
      server.close(() => resolve(port));
    });
  });
}

/**
 * Per category, how many tasks have a None answer. A twin set keeps each category's count of its
 * source (which twins are None is placed by the seed: src/twins/build.ts, placeNones).
 */
export function noneCountsByCategory(tasks: readonly TaskRecord[], categories?: readonly string[]): Record<string, number> {
  const counts: Record<string, number> = {};
  for (const task of tasks) {
    if (categories && !categories.includes(task.task)) continue;
    const none = task.answer.length === 0 || task.answer.every((value) => value === null || value === "None");
    counts[task.task] = (counts[task.task] ?? 0) + (none ? 1 : 0);
  }
  return counts;
}
