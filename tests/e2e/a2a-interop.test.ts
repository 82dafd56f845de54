import { randomUUID } from "node:crypto";
import type { Server } from "node:http";
import { AGENT_CARD_PATH, type AgentCard, type Message, type Part, Role, type SendMessageRequest, type StreamResponse, type Task, TaskState } from "@a2a-js/sdk";
import { ClientFactory, ClientFactoryOptions, DefaultAgentCardResolver, JsonRpcTransportFactory } from "@a2a-js/sdk/client";
import { duplicateInterfacesForLegacy } from "@a2a-js/sdk/compat/v0_3";
import { AgentEvent, type AgentExecutor, DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import type { AgentCard as AgentCard03, Message as Message03, Task as Task03 } from "a2a-sdk-v03";
import { ClientFactory as ClientFactory03 } from "a2a-sdk-v03/client";
import {
  type AgentExecutor as AgentExecutor03,
  DefaultRequestHandler as DefaultRequestHandler03,
  InMemoryTaskStore as InMemoryTaskStore03,
  type RequestContext as RequestContext03,
} from "a2a-sdk-v03/server";
import { agentCardHandler as agentCardHandler03, jsonRpcHandler as jsonRpcHandler03, UserBuilder as UserBuilder03 } from "a2a-sdk-v03/server/express";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { StrategyResponder, servePurple, solverStrategy } from "../../src/baselines/index.js";
import { TASK_TOKEN_HEADER } from "../../src/server/index.js";
import { assessmentParams, rawRpc, resultsOf, sampleData, startGreen, statusText } from "../support/helpers.js";

/**
 * A2A 1.0 and 0.3, both directions, against the real SDKs: purples written with @a2a-js/sdk 1.x
 * (its defaults, and with its v0.3 compatibility) and 0.3.14 (npm alias a2a-sdk-v03), each
 * answering with the solver's actions (StrategyResponder: the reference solver's replies, carried
 * by the other SDK's server); clients of both SDKs sending assessments to the green; purples whose
 * card and server disagree; cards naming versions the green does not speak. Each test adds its
 * cell to the interoperability matrix printed at the end (docs/protocol.md, "Protocol versions").
 */

const data = await sampleData();
let green: Awaited<ReturnType<typeof startGreen>>;
const servers: Server[] = [];
const matrix: { direction: string; peer: string; setting: string; result: string }[] = [];
const SAMPLE_TASKS = data.tasks.tasks.length;

beforeAll(async () => {
  green = await startGreen(data);
});

afterAll(async () => {
  for (const server of servers) server.close();
  await green.close();
  await data.org.close();
  const rows = matrix.map((cell) => `| ${cell.direction} | ${cell.peer} | ${cell.setting} | ${cell.result} |`);
  console.log(["| direction | peer | setting | result |", "|---|---|---|---|", ...rows].join("\n"));
});

function listen(app: express.Express): Promise<{ server: Server; url: string }> {
  return new Promise((resolve) => {
    const server = app.listen(0, "127.0.0.1", () => {
      servers.push(server);
      resolve({ server, url: `http://127.0.0.1:${(server.address() as { port: number }).port}/` });
    });
  });
}

const v1Text = (text: string): Part => ({ content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" });
const v1Data = (message: Message): Record<string, unknown> => {
  for (const { content } of message.parts) if (content?.$case === "data") return content.value as Record<string, unknown>;
  return {};
};

function v1Card(name: string, interfaces: AgentCard["supportedInterfaces"]): AgentCard {
  return {
    name,
    description: `A purple written with @a2a-js/sdk 1.x (${name}).`,
    supportedInterfaces: interfaces,
    provider: undefined,
    version: "1.0.0",
    capabilities: { streaming: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/plain"],
    skills: [{ id: "crm", name: "crm", description: "Solves CRM tasks.", tags: ["crm"], examples: [], inputModes: [], outputModes: [], securityRequirements: [] }],
    signatures: [],
  };
}

/**
 * A purple as the @a2a-js/sdk 1.x README writes one: DefaultRequestHandler, agentCardHandler and
 * jsonRpcHandler, the card with one JSON-RPC interface of A2A 1.0; with `compat`, the v0.3
 * compatibility on both handlers and a 0.3 interface in the card. It answers with the solver's
 * action, as a Message, or as a completed Task whose artifact holds it (`replyWith: "task"`).
 */
async function v1Purple(
  options: { compat?: boolean; replyWith?: "message" | "task"; card?: (url: string) => unknown } = {},
): Promise<{ url: string; methods: string[]; versions: (string | undefined)[] }> {
  const responder = new StrategyResponder(solverStrategy);
  const methods: string[] = [];
  const versions: (string | undefined)[] = [];
  const executor: AgentExecutor = {
    async execute(context, bus) {
      const text = await responder.reply(context.contextId, v1Data(context.userMessage));
      if (options.replyWith === "task") {
        const status = (state: TaskState) => ({ state, message: undefined, timestamp: new Date().toISOString() });
        const task: Task = { id: context.taskId, contextId: context.contextId, status: status(TaskState.TASK_STATE_WORKING), artifacts: [], history: [], metadata: undefined };
        bus.publish(AgentEvent.task(task));
        const artifact = { artifactId: randomUUID(), name: "action", description: "", parts: [v1Text(text)], metadata: undefined, extensions: [] };
        bus.publish(AgentEvent.artifactUpdate({ taskId: context.taskId, contextId: context.contextId, artifact, append: false, lastChunk: true, metadata: undefined }));
        bus.publish(AgentEvent.statusUpdate({ taskId: context.taskId, contextId: context.contextId, status: status(TaskState.TASK_STATE_COMPLETED), metadata: undefined }));
        return;
      }
      const reply: Message = {
        messageId: randomUUID(),
        contextId: context.contextId,
        taskId: "",
        role: Role.ROLE_AGENT,
        parts: [v1Text(text)],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      };
      bus.publish(AgentEvent.message(reply));
    },
    async cancelTask() {},
  };
  const app = express();
  app.use(express.json());
  app.post("/", (req, _res, next) => {
    methods.push(req.body?.method);
    versions.push(req.header("A2A-Version"));
    next();
  });
  const { url } = await listen(app);
  const interfaces = [{ url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" }];
  const card = v1Card(options.compat ? "a2a-js 1.x with v0.3 compat" : "a2a-js 1.x defaults", options.compat ? duplicateInterfacesForLegacy(interfaces, ["JSONRPC"]) : interfaces);
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  const legacyCompat = options.compat ? { legacyCompat: { enabled: true } } : {};
  if (options.card) {
    const written = options.card(url);
    app.get(`/${AGENT_CARD_PATH}`, (_req, res) => res.json(written));
  } else app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler, ...legacyCompat }));
  app.use("/", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, ...legacyCompat }));
  return { url, methods, versions };
}

/** A purple as @a2a-js/sdk 0.3.14's README writes one (its card in 0.3's shape unless `card` says otherwise), answering with the solver's action. */
async function v03Purple(card?: (url: string) => unknown): Promise<{ url: string; methods: string[] }> {
  const responder = new StrategyResponder(solverStrategy);
  const methods: string[] = [];
  const executor: AgentExecutor03 = {
    async execute(context: RequestContext03, bus) {
      const part = context.userMessage.parts.find((candidate) => candidate.kind === "data");
      const text = await responder.reply(context.contextId, part?.kind === "data" ? part.data : {});
      const reply: Message03 = { kind: "message", role: "agent", messageId: randomUUID(), contextId: context.contextId, parts: [{ kind: "text", text }] };
      bus.publish(reply);
      bus.finished();
    },
    async cancelTask() {},
  };
  const app = express();
  app.use(express.json());
  app.post("/", (req, _res, next) => {
    methods.push(req.body?.method);
    next();
  });
  const { url } = await listen(app);
  const card03: AgentCard03 = {
    name: "a2a-js 0.3.14",
    description: "A purple written with @a2a-js/sdk 0.3.14.",
    url,
    version: "1.0.0",
    protocolVersion: "0.3.0",
    preferredTransport: "JSONRPC",
    capabilities: { streaming: false },
    defaultInputModes: ["text", "data"],
    defaultOutputModes: ["text"],
    skills: [{ id: "crm", name: "crm", description: "Solves CRM tasks.", tags: ["crm"] }],
  };
  const handler = new DefaultRequestHandler03(card03, new InMemoryTaskStore03(), executor);
  if (card) {
    const written = card(url);
    app.get(`/${AGENT_CARD_PATH}`, (_req, res) => res.json(written));
  } else app.use(`/${AGENT_CARD_PATH}`, agentCardHandler03({ agentCardProvider: handler }));
  app.use("/", jsonRpcHandler03({ requestHandler: handler, userBuilder: UserBuilder03.noAuthentication }));
  return { url, methods };
}

/** An assessment of the whole sample sent to the green by blocking message/send; its final Task. */
async function assessAll(agent: string, config: Record<string, unknown> = {}): Promise<any> {
  const { body } = await rawRpc(green.url, "message/send", assessmentParams({ participants: { agent }, config }));
  return body.result;
}

/** Every episode passed, each spoken in `version`. */
function expectSamplePassed(task: any, version: string) {
  expect(task.status.state, statusText(task)).toBe("completed");
  const results = resultsOf(task);
  expect(results.summary.total_tasks).toBe(SAMPLE_TASKS);
  expect(results.summary.total_passed).toBe(SAMPLE_TASKS);
  expect(new Set(results.results.map((entry: any) => entry.trajectory.a2a_version))).toEqual(new Set([version]));
  return `${results.summary.total_passed}/${results.summary.total_tasks} sample tasks passed, every episode in A2A ${version}`;
}

describe("green → purple", () => {
  it("a default @a2a-js/sdk 1.x purple (one A2A 1.0 interface, no compat) passes the sample, spoken to in A2A 1.0", async () => {
    const purple = await v1Purple();
    const task = await assessAll(purple.url);
    const result = expectSamplePassed(task, "1.0");
    expect(statusText(task)).toBe(`Assessment complete: ${SAMPLE_TASKS}/${SAMPLE_TASKS} passed.`);
    expect(new Set(purple.methods)).toEqual(new Set(["SendMessage"]));
    expect(new Set(purple.versions)).toEqual(new Set(["1.0"]));
    matrix.push({ direction: "green → purple", peer: "@a2a-js/sdk 1.3.0", setting: "defaults (card: one JSONRPC 1.0 interface), Message replies", result });
  });

  it("a 1.x purple replying with Tasks (status, then an artifact holding the action) passes the sample", async () => {
    const purple = await v1Purple({ replyWith: "task" });
    const result = expectSamplePassed(await assessAll(purple.url), "1.0");
    matrix.push({ direction: "green → purple", peer: "@a2a-js/sdk 1.3.0", setting: "defaults, Task replies (artifact)", result });
  });

  it("a 1.x purple with the v0.3 compatibility on (card lists 1.0 and 0.3) is spoken to in 1.0, its preferred version", async () => {
    const purple = await v1Purple({ compat: true });
    const result = expectSamplePassed(await assessAll(purple.url), "1.0");
    expect(new Set(purple.methods)).toEqual(new Set(["SendMessage"]));
    matrix.push({ direction: "green → purple", peer: "@a2a-js/sdk 1.3.0", setting: "legacyCompat + duplicateInterfacesForLegacy (card lists 1.0 and 0.3)", result });
  });

  it("a @a2a-js/sdk 0.3.14 purple passes the sample, spoken to in A2A 0.3 (message/send, no A2A-Version header)", async () => {
    const purple = await v03Purple();
    const result = expectSamplePassed(await assessAll(purple.url), "0.3");
    expect(new Set(purple.methods)).toEqual(new Set(["message/send"]));
    matrix.push({ direction: "green → purple", peer: "@a2a-js/sdk 0.3.14", setting: "defaults (0.3 card)", result });
  });

  it("the reference purple (this project, serving both) is spoken to in 1.0", async () => {
    const purple = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
    servers.push(purple.server);
    const result = expectSamplePassed(await assessAll(purple.url), "1.0");
    matrix.push({ direction: "green → purple", peer: "reference purple (@a2a-js/sdk 1.3.0, both versions)", setting: "defaults of src/baselines", result });
  });

  it("a card that names no version: 0.3 is tried, and a purple that refuses it is spoken to in 1.0", async () => {
    const purple = await v1Purple({ card: () => ({ name: "versionless", version: "1" }) });
    const task = await assessAll(purple.url);
    const result = expectSamplePassed(task, "1.0");
    expect(purple.methods[0]).toBe("message/send");
    expect(purple.methods.filter((method) => method === "message/send").length).toBeLessThanOrEqual(4);
    matrix.push({ direction: "green → purple", peer: "@a2a-js/sdk 1.3.0", setting: 'defaults, card {"name", "version"} only', result: `0.3 refused (-32009), then ${result}` });
  });

  it("a 1.x purple (no compat) whose card still says 0.3 ends the assessment at its first answer, naming the versions and the fix", async () => {
    const purple = await v1Purple({
      card: (url) => ({ name: "stale card", version: "1", url, protocolVersion: "0.3.0", preferredTransport: "JSONRPC", capabilities: {}, skills: [] }),
    });
    const task = await assessAll(purple.url);
    expect(task.status.state).toBe("failed");
    const text = statusText(task);
    expect(text).toMatch(
      /^Assessment stopped before any episode was scored: the purple agent answered the first message\/send \(A2A 0\.3: no A2A-Version header\) with JSON-RPC error -32009: The requested A2A protocol version '0\.3' is not supported/,
    );
    expect(text).toMatch(/protocolVersion": "1\.0"/);
    expect(text).toMatch(/legacyCompat/);
    expect(task.artifacts ?? []).toHaveLength(0);
    // The episodes started at once (concurrency 4) each sent one request; no others were started.
    expect(purple.methods.length).toBeLessThanOrEqual(4);
    matrix.push({
      direction: "green → purple",
      peer: "@a2a-js/sdk 1.3.0",
      setting: "defaults, hand-written 0.3 card",
      result: "assessment `failed` at the first answer (-32009), message names 0.3/1.0 and the fix",
    });
  });

  it("a 0.3.14 purple whose card says 1.0 ends the assessment at its first answer (-32601)", async () => {
    const purple = await v03Purple((url) => ({ name: "wrong card", version: "1", supportedInterfaces: [{ url, protocolBinding: "JSONRPC", protocolVersion: "1.0" }], skills: [] }));
    const task = await assessAll(purple.url);
    expect(task.status.state).toBe("failed");
    expect(statusText(task)).toMatch(
      /the first SendMessage \(A2A-Version: 1\.0\) with JSON-RPC error -32601: .*its card lists a JSONRPC interface of A2A 1\.0, but the server does not answer A2A 1\.0/,
    );
    expect(new Set(purple.methods)).toEqual(new Set(["SendMessage"]));
    matrix.push({
      direction: "green → purple",
      peer: "@a2a-js/sdk 0.3.14",
      setting: "card claiming a 1.0 interface",
      result: "assessment `failed` at the first answer (-32601), message names the fix",
    });
  });

  it("a purple that refuses both versions on a card that names none ends the assessment, naming both refusals", async () => {
    const methods: string[] = [];
    const app = express();
    app.use(express.json());
    app.get(`/${AGENT_CARD_PATH}`, (_req, res) => res.json({ name: "tasks/send only", version: "1" }));
    app.post("/", (req, res) => {
      methods.push(req.body.method);
      res.json({ jsonrpc: "2.0", id: req.body.id, error: { code: -32601, message: `Method not found: ${req.body.method}` } });
    });
    const { url } = await listen(app);
    const task = await assessAll(url);
    expect(task.status.state).toBe("failed");
    expect(statusText(task)).toMatch(
      /the purple agent refused A2A 0\.3 \(JSON-RPC error -32601: Method not found: message\/send\) and A2A 1\.0 \(JSON-RPC error -32601: Method not found: SendMessage\) on its first answers/,
    );
    expect(methods.length).toBeLessThanOrEqual(8);
    matrix.push({
      direction: "green → purple",
      peer: "hand-written purple",
      setting: "versionless card, -32601 to every method",
      result: "0.3 then 1.0 tried; assessment `failed`, both refusals named",
    });
  });

  it("a purple whose card offers only a version the green does not speak is refused before any work, naming it", async () => {
    const purple = await v1Purple({ card: (url) => ({ name: "future", version: "1", supportedInterfaces: [{ url, protocolBinding: "JSONRPC", protocolVersion: "2.0" }] }) });
    const task = await assessAll(purple.url);
    expect(task.status.state).toBe("rejected");
    expect(statusText(task)).toMatch(
      /^Request rejected: participants\.agent: the purple agent's card offers A2A JSONRPC 2\.0; this green agent speaks A2A 1\.0 and 0\.3 over JSONRPC only\. Fix on the purple's side: /,
    );
    expect(purple.methods).toEqual([]);
    const grpc = await v1Purple({ card: (url) => ({ name: "grpc only", version: "1", supportedInterfaces: [{ url, protocolBinding: "GRPC", protocolVersion: "1.0" }] }) });
    const refused = await assessAll(grpc.url);
    expect(refused.status.state).toBe("rejected");
    expect(statusText(refused)).toMatch(/offers A2A GRPC 1\.0; this green agent speaks A2A 1\.0 and 0\.3 over JSONRPC only/);
    matrix.push({
      direction: "green → purple",
      peer: "hand-written card",
      setting: "JSONRPC 2.0 only; GRPC 1.0 only",
      result: "request `rejected` before any work, naming the versions offered",
    });
  });
});

/** The assessment request as a 1.x client sends it. */
function v1Request(document: unknown, configuration?: Partial<NonNullable<SendMessageRequest["configuration"]>>): SendMessageRequest {
  return {
    tenant: "",
    message: {
      messageId: randomUUID(),
      contextId: "",
      taskId: "",
      role: Role.ROLE_USER,
      parts: [v1Text(JSON.stringify(document))],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    },
    configuration: configuration ? { acceptedOutputModes: [], taskPushNotificationConfig: undefined, returnImmediately: false, ...configuration } : undefined,
    metadata: undefined,
  };
}

/** The results of a 1.x Task: the data part of its results artifact. */
function v1Results(task: Task): any {
  const artifact = task.artifacts.find((candidate) => candidate.name === "CRMArena Assessment Results");
  const part = artifact?.parts.find((candidate) => candidate.content?.$case === "data");
  return part?.content?.$case === "data" ? part.content.value : undefined;
}

describe("client → green", () => {
  let solver: Awaited<ReturnType<typeof servePurple>>;
  beforeAll(async () => {
    solver = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
    servers.push(solver.server);
  });
  const request = () => ({ participants: { agent: solver.url }, config: { task_ids: [0, 18, 32] } });

  it("a default @a2a-js/sdk 1.x client (new ClientFactory()) runs an assessment by blocking send and reads the results artifact", async () => {
    const client = await new ClientFactory().createFromUrl(green.url);
    expect(client.protocolVersion).toBe("1.0");
    const task = (await client.sendMessage(v1Request(request()))) as Task;
    expect(task.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    const results = v1Results(task);
    expect(results.summary).toMatchObject({ total_tasks: 3, total_passed: 3 });
    // The creator reads its task again with the token the task's metadata handed it (docs/protocol.md, "Limits").
    const again = await client.getTask({ tenant: "", id: task.id }, { serviceParameters: { [TASK_TOKEN_HEADER]: task.metadata?.task_token } });
    expect(again.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(v1Results(again).summary.total_passed).toBe(3);
    matrix.push({
      direction: "client → green",
      peer: "@a2a-js/sdk 1.3.0",
      setting: "new ClientFactory() (defaults): SendMessage, GetTask",
      result: "completed, results artifact read (3/3 passed)",
    });
  });

  it("a default 1.x client runs an assessment by stream: one Task, progress, the artifact, then completed", async () => {
    const client = await new ClientFactory().createFromUrl(green.url);
    const events: StreamResponse[] = [];
    for await (const event of client.sendMessageStream(v1Request(request()))) events.push(event);
    expect(events[0]?.payload?.$case).toBe("task");
    const updates = events.flatMap((event) => (event.payload?.$case === "statusUpdate" ? [event.payload.value] : []));
    expect(updates.at(-1)?.status?.state).toBe(TaskState.TASK_STATE_COMPLETED);
    expect(updates.some((update) => update.status?.message?.parts[0]?.content?.$case === "text" && /A2A 1\.0/.test(update.status.message.parts[0].content.value))).toBe(true);
    const artifacts = events.flatMap((event) => (event.payload?.$case === "artifactUpdate" ? [event.payload.value] : []));
    expect(artifacts).toHaveLength(1);
    const part = artifacts[0]!.artifact!.parts.find((candidate) => candidate.content?.$case === "data");
    expect(part?.content?.$case === "data" && part.content.value.summary.total_passed).toBe(3);
    matrix.push({
      direction: "client → green",
      peer: "@a2a-js/sdk 1.3.0",
      setting: "new ClientFactory() (defaults): SendStreamingMessage",
      result: `${events.length} events: Task, statusUpdates, one artifactUpdate, completed`,
    });
  });

  it("a default 1.x client cancels an assessment it started with returnImmediately", async () => {
    const slow = await servePurple("slow", async () => new Promise<string>((resolve) => setTimeout(() => resolve("None"), 300)), "127.0.0.1", 0);
    servers.push(slow.server);
    const client = await new ClientFactory().createFromUrl(green.url);
    const started = (await client.sendMessage(v1Request({ participants: { agent: slow.url }, config: { task_limit: 6, concurrency: 1 } }, { returnImmediately: true }))) as Task;
    await new Promise((resolve) => setTimeout(resolve, 400));
    const canceled = await client.cancelTask({ tenant: "", id: started.id, metadata: undefined }, { serviceParameters: { [TASK_TOKEN_HEADER]: started.metadata?.task_token } });
    expect(canceled.status?.state).toBe(TaskState.TASK_STATE_CANCELED);
    matrix.push({ direction: "client → green", peer: "@a2a-js/sdk 1.3.0", setting: "defaults: SendMessage returnImmediately, CancelTask", result: "canceled" });
  });

  it("a 1.x client with the v0.3 compatibility on picks the card's 1.0 interface", async () => {
    const legacyCompat = { enabled: true };
    const factory = new ClientFactory(
      ClientFactoryOptions.createFrom(ClientFactoryOptions.default, {
        cardResolver: new DefaultAgentCardResolver({ legacyCompat }),
        transports: [new JsonRpcTransportFactory({ legacyCompat })],
      }),
    );
    const client = await factory.createFromUrl(green.url);
    expect(client.protocolVersion).toBe("1.0");
    const task = (await client.sendMessage(v1Request(request()))) as Task;
    expect(v1Results(task).summary.total_passed).toBe(3);
    matrix.push({
      direction: "client → green",
      peer: "@a2a-js/sdk 1.3.0",
      setting: "legacyCompat on resolver and transport factory",
      result: "1.0 chosen; completed, results read",
    });
  });

  it("a @a2a-js/sdk 0.3.14 client runs an assessment by blocking send and by stream, and reads the results artifact", async () => {
    const client = await new ClientFactory03().createFromUrl(green.url);
    const message = (): Message03 => ({ kind: "message", role: "user", messageId: randomUUID(), parts: [{ kind: "text", text: JSON.stringify(request()) }] });
    const task = (await client.sendMessage({ message: message() })) as Task03;
    expect(task.kind).toBe("task");
    expect(task.status.state).toBe("completed");
    expect(resultsOf(task).summary.total_passed).toBe(3);
    const again = await client.getTask({ id: task.id, metadata: { task_token: task.metadata?.task_token } });
    expect(resultsOf(again).summary.total_passed).toBe(3);
    const events: any[] = [];
    for await (const event of client.sendMessageStream({ message: message() })) events.push(event);
    expect(events[0].kind).toBe("task");
    expect(events.at(-1)).toMatchObject({ kind: "status-update", final: true, status: { state: "completed" } });
    const artifact = events.find((event) => event.kind === "artifact-update");
    expect(artifact.artifact.parts.map((part: any) => part.kind)).toEqual(["text", "data"]);
    expect(artifact.artifact.parts[1].data.summary.total_passed).toBe(3);
    matrix.push({
      direction: "client → green",
      peer: "@a2a-js/sdk 0.3.14",
      setting: "new ClientFactory() (defaults): message/send, tasks/get, message/stream",
      result: `completed, results artifact read; stream of ${events.length} events ending final: true`,
    });
  });

  it("a 0.3.14 client cancels an assessment it started with blocking: false", async () => {
    const slow = await servePurple("slow", async () => new Promise<string>((resolve) => setTimeout(() => resolve("None"), 300)), "127.0.0.1", 0);
    servers.push(slow.server);
    const client = await new ClientFactory03().createFromUrl(green.url);
    const document = { participants: { agent: slow.url }, config: { task_limit: 6, concurrency: 1 } };
    const started = (await client.sendMessage({
      message: { kind: "message", role: "user", messageId: randomUUID(), parts: [{ kind: "text", text: JSON.stringify(document) }] },
      configuration: { blocking: false },
    })) as Task03;
    await new Promise((resolve) => setTimeout(resolve, 400));
    const canceled = await client.cancelTask({ id: started.id, metadata: { task_token: started.metadata?.task_token } });
    expect(canceled.status.state).toBe("canceled");
    matrix.push({ direction: "client → green", peer: "@a2a-js/sdk 0.3.14", setting: "message/send blocking: false, tasks/cancel", result: "canceled" });
  });
});

describe("the green's JSON-RPC endpoint, by hand", () => {
  const call = async (method: string, params: unknown, headers: Record<string, string> = {}) => {
    const response = await fetch(green.url, {
      method: "POST",
      headers: { "content-type": "application/json", ...headers },
      body: JSON.stringify({ jsonrpc: "2.0", id: 1, method, params }),
    });
    return response.json();
  };
  const v1Params = (document: unknown) => ({ message: { messageId: randomUUID(), role: "ROLE_USER", parts: [{ text: JSON.stringify(document) }] } });

  it("answers SendMessage in 1.0's shapes with the header, and without it (the method names the version)", async () => {
    for (const headers of [{ "A2A-Version": "1.0" }, {}] as Record<string, string>[]) {
      const body = await call("SendMessage", v1Params({ participants: { agent: "ftp://x/" } }), headers);
      expect(body.result.task.status.state).toBe("TASK_STATE_REJECTED");
      expect(body.result.task.status.message.parts[0].text).toMatch(/must be an http:\/\/ or https:\/\/ URL/);
      expect(body.result.task).not.toHaveProperty("kind");
    }
  });

  it("accepts an A2A-Version header with a patch number, and names the fix when the header contradicts the method", async () => {
    const patched = await call("message/send", assessmentParams({ participants: { agent: "ftp://x/" } }), { "A2A-Version": "0.3.0" });
    expect(patched.result.status.state).toBe("rejected");
    const contradicted = await call("message/send", assessmentParams({ participants: { agent: "ftp://x/" } }), { "A2A-Version": "1.0" });
    expect(contradicted.error.code).toBe(-32601);
    expect(contradicted.error.message).toMatch(/message\/send is an A2A 0\.3 method, but the A2A-Version header says 1\.0/);
    const unknown = await call("SendMessage", v1Params({}), { "A2A-Version": "2.0" });
    expect(unknown.error.code).toBe(-32009);
    expect(unknown.error.message).toMatch(/'2\.0' is not supported\. Supported versions: 1\.0, 0\.3/);
  });

  it("treats a 0.3 message/send whose configuration omits blocking as blocking, as 0.3 servers do", async () => {
    const purple = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
    servers.push(purple.server);
    const params = assessmentParams({ participants: { agent: purple.url }, config: { task_ids: [0] } });
    const body = await call("message/send", { ...params, configuration: { acceptedOutputModes: ["text", "data"] } });
    expect(body.result.status.state).toBe("completed");
    expect(resultsOf(body.result).summary.total_tasks).toBe(1);
  });

  it("names the field of a malformed 1.0 call", async () => {
    const cases: [unknown, RegExp][] = [
      [
        { message: { messageId: "m", role: "user", parts: [{ text: "{}" }] } },
        /params\.message\.role must be "ROLE_USER" or "ROLE_AGENT" \(A2A 1\.0's names; "user" and "agent" are 0\.3's\)/,
      ],
      [
        { message: { messageId: "m", role: "ROLE_USER", parts: [{ mediaType: "text/plain" }] } },
        /params\.message\.parts\.0 each part must hold exactly one of text, data, url or raw \(got none\)/,
      ],
      [{ message: { messageId: "m", role: "ROLE_USER", parts: [{ text: "a", data: {} }] } }, /got text and data/],
      [{ message: { messageId: "m", role: "ROLE_USER", parts: [] } }, /params\.message\.parts must hold at least one part/],
      [{ message: { role: "ROLE_USER", parts: [{ text: "{}" }] } }, /params\.message\.messageId must be a string/],
    ];
    for (const [params, expected] of cases) {
      const body = await call("SendMessage", params, { "A2A-Version": "1.0" });
      expect(body.error?.code, JSON.stringify(body)).toBe(-32602);
      expect(body.error.message).toMatch(expected);
    }
    const get = await call("GetTask", {}, { "A2A-Version": "1.0" });
    expect(get.error.message).toMatch(/params\.id must be a task id string/);
  });
});
