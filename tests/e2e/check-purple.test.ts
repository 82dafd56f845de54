import { randomUUID } from "node:crypto";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { AGENT_CARD_PATH, type AgentCard, Role } from "@a2a-js/sdk";
import { duplicateInterfacesForLegacy } from "@a2a-js/sdk/compat/v0_3";
import { AgentEvent, type AgentExecutor, DefaultRequestHandler, InMemoryTaskStore } from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import express from "express";
import { afterAll, describe, expect, it } from "vitest";
import { StrategyResponder, servePurple, solverStrategy } from "../../src/baselines/index.js";
import { checkPurple, type PurpleCheck } from "../../src/cli/check-purple.js";
import { gatewayCardProblems, SDK_FIXES } from "../../src/purple/index.js";

/**
 * `entropic-crmarena check-purple` against real servers on 127.0.0.1 (issue 32): purples on the
 * A2A 1.x SDKs' defaults work against the green directly but not behind the AgentBeats gateway,
 * whose a2a-sdk 0.3 card reader refuses a card without a top-level `url`; with a 0.3-readable card
 * they pass. The command must say which flows work, run one sample task, and name each fix.
 */

const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) server.close();
});

function listening(server: Server): Promise<string> {
  servers.push(server);
  return new Promise((resolve) => server.listen(0, "127.0.0.1", () => resolve(`http://127.0.0.1:${(server.address() as { port: number }).port}/`)));
}

async function check(url: string): Promise<PurpleCheck & { output: string }> {
  const lines: string[] = [];
  const result = await checkPurple(url, { task: 0, timeoutSeconds: 20 }, (line) => lines.push(line));
  return { ...result, output: lines.join("\n") };
}

/** A purple as the @a2a-js/sdk 1.x README writes one, answering with the solver's actions; `compat`: its v0.3 compatibility on and a 0.3 interface in the card. */
async function a2aJsPurple(compat: boolean): Promise<string> {
  const responder = new StrategyResponder(solverStrategy);
  const executor: AgentExecutor = {
    async execute(context, bus) {
      const data = context.userMessage.parts.map((part) => part.content).find((content) => content?.$case === "data")?.value as Record<string, unknown> | undefined;
      const text = await responder.reply(context.contextId, data ?? {});
      const part = { content: { $case: "text" as const, value: text }, metadata: undefined, filename: "", mediaType: "text/plain" };
      bus.publish(
        AgentEvent.message({
          messageId: randomUUID(),
          contextId: context.contextId,
          taskId: "",
          role: Role.ROLE_AGENT,
          parts: [part],
          metadata: undefined,
          extensions: [],
          referenceTaskIds: [],
        }),
      );
    },
    async cancelTask() {},
  };
  const app = express();
  const server = createServer(app);
  const url = await listening(server);
  const interfaces = [{ url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" }];
  const card: AgentCard = {
    name: compat ? "a2a-js 1.x with v0.3 compat" : "a2a-js 1.x defaults",
    description: "A CRM purple on @a2a-js/sdk 1.3.0.",
    supportedInterfaces: compat ? duplicateInterfacesForLegacy(interfaces, ["JSONRPC"]) : interfaces,
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
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), executor);
  const legacyCompat = compat ? { legacyCompat: { enabled: true } } : {};
  app.use(express.json());
  app.use(`/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler, ...legacyCompat }));
  app.use("/", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, ...legacyCompat }));
  return url;
}

/**
 * An a2a-python purple, emulated (no Python here): the card a2a-python 1.1.0 serves
 * (`create_agent_card_routes`: `agent_card_to_dict`, the protobuf card as MessageToDict writes it,
 * camelCase and without empty fields, merged with its 0.3 form when an interface of 0.3 is
 * listed) for an AgentCard with one AgentInterface(protocol_binding="JSONRPC",
 * protocol_version="1.0"), and its JSON-RPC dispatcher: 1.0 methods, and without
 * `enable_v0_3_compat` -32601 for 0.3's. With `compat`, the card lists a 0.3 interface too
 * and the dispatcher answers message/send and tasks/get. Replies carry the solver's actions.
 */
async function a2aPythonPurple(compat: boolean): Promise<string> {
  const responder = new StrategyResponder(solverStrategy);
  let url = "";
  const card = () => ({
    name: "a2a-python 1.1.0 purple",
    description: "A CRM purple on a2a-sdk 1.1.0.",
    supportedInterfaces: [{ url, protocolBinding: "JSONRPC", protocolVersion: "1.0" }, ...(compat ? [{ url, protocolBinding: "JSONRPC", protocolVersion: "0.3" }] : [])],
    version: "1.0.0",
    capabilities: {},
    defaultInputModes: ["text"],
    defaultOutputModes: ["text"],
    skills: [{ id: "crm", name: "CRM", description: "Solves CRM tasks.", tags: ["crm"] }],
    // agent_card_to_dict merges the 0.3 form (to_compat_agent_card) only when a 0.3 interface is listed.
    ...(compat ? { url, preferredTransport: "JSONRPC", protocolVersion: "0.3" } : {}),
  });
  const answer = async (request: IncomingMessage, response: ServerResponse) => {
    const json = (body: unknown) => response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(body));
    if (request.method === "GET") return request.url === `/${AGENT_CARD_PATH}` ? json(card()) : response.writeHead(404).end();
    let raw = "";
    for await (const chunk of request) raw += chunk;
    const call = JSON.parse(raw) as { id: number; method: string; params: { id?: string; message?: { contextId?: string; parts?: Record<string, unknown>[] } } };
    const error = (code: number, message: string) => json({ jsonrpc: "2.0", id: call.id, error: { code, message } });
    const v1 = ["SendMessage", "GetTask"].includes(call.method);
    const v03 = compat && ["message/send", "tasks/get"].includes(call.method);
    if (!v1 && !v03) return error(-32601, "Method not found");
    if (call.method === "GetTask" || call.method === "tasks/get") return error(-32001, "Task not found");
    const parts = call.params.message?.parts ?? [];
    const data = (v1 ? parts.find((part) => part.data !== undefined)?.data : parts.find((part) => part.kind === "data")?.data) as Record<string, unknown> | undefined;
    const contextId = call.params.message?.contextId || randomUUID();
    const text = await responder.reply(contextId, data ?? {});
    const message = { messageId: randomUUID(), contextId };
    return json({
      jsonrpc: "2.0",
      id: call.id,
      result: v1 ? { message: { ...message, role: "ROLE_AGENT", parts: [{ text }] } } : { ...message, kind: "message", role: "agent", parts: [{ kind: "text", text }] },
    });
  };
  url = await listening(createServer((request, response) => void answer(request, response)));
  return url;
}

describe("check-purple", () => {
  it("an @a2a-js/sdk 1.x purple on its defaults: works directly in A2A 1.0, the gateway refuses its card (no url), fixed by legacyCompat + duplicateInterfacesForLegacy", async () => {
    const result = await check(await a2aJsPurple(false));
    expect(result.exitCode, result.output).toBe(1);
    expect(result.verdict.direct10.works).toBe(true);
    expect(result.verdict.direct03.works).toBe(false);
    expect(result.verdict.gateway.works).toBe(false);
    expect(result.verdict.gateway.why).toContain("url: Field required");
    expect(result.verdict.gateway.why).toContain("Only 1/2 agents became ready");
    expect(result.verdict.fixes).toContain(SDK_FIXES.a2aJs);
    expect(result.output).toMatch(/legacyCompat: \{enabled: true\}.*duplicateInterfacesForLegacy/);
    // The task itself runs: the green speaks A2A 1.0 to it directly.
    expect(result.episode?.trajectory.a2aVersion).toBe("1.0");
    expect(result.passed).toBe(true);
    expect(result.output).toContain("Not ready: the AgentBeats gateway flow would fail.");
  });

  it("the same purple with a 0.3-readable card (legacyCompat + duplicateInterfacesForLegacy) passes every flow", async () => {
    const result = await check(await a2aJsPurple(true));
    expect(result.exitCode, result.output).toBe(0);
    expect([result.verdict.direct10.works, result.verdict.direct03.works, result.verdict.gateway.works]).toEqual([true, true, true]);
    expect(result.verdict.fixes).toEqual([]);
    expect(result.passed).toBe(true);
    expect(result.output).toContain("Ready: the AgentBeats gateway reads the card and the sample task ran (passed).");
  });

  it("the reference solver purple passes, the sample task answered and shown turn by turn", async () => {
    const { url } = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
    const result = await check(url);
    expect(result.exitCode, result.output).toBe(0);
    expect(result.verdict.gateway.works).toBe(true);
    expect(result.episode?.trajectory.termination).toBe("answered");
    expect(result.output).toMatch(/turn 1: .*\n/);
    expect(result.output).toContain("answer: PASSED");
    expect(result.output).toContain("none needed");
  });

  it("an a2a-python 1.1.0 purple on its defaults (emulated card): the gateway refuses it, the fix names enable_v0_3_compat and a 0.3 AgentInterface", async () => {
    const result = await check(await a2aPythonPurple(false));
    expect(result.exitCode, result.output).toBe(1);
    expect(result.verdict.direct10.works).toBe(true);
    expect(result.verdict.gateway.works).toBe(false);
    expect(result.verdict.fixes).toContain(SDK_FIXES.a2aPython);
    expect(result.verdict.fixes.some((line) => line.startsWith("card field url: Field required"))).toBe(true);
    expect(result.passed).toBe(true);
  });

  it("an a2a-python 1.1.0 purple with enable_v0_3_compat and a 0.3 interface (emulated) passes", async () => {
    const result = await check(await a2aPythonPurple(true));
    expect(result.exitCode, result.output).toBe(0);
    expect([result.verdict.direct10.works, result.verdict.direct03.works, result.verdict.gateway.works]).toEqual([true, true, true]);
  });

  it("a dead URL: nothing listens, said plainly, no task sent, exit 1", async () => {
    const url = await listening(createServer());
    const port = new URL(url).port;
    await new Promise((resolve) => servers.pop()!.close(resolve));
    const result = await check(url);
    expect(result.exitCode).toBe(1);
    expect(result.output).toContain(`nothing listens on 127.0.0.1:${port}`);
    expect(result.taskFailure).toMatch(/^not sent: the green cannot read the card/);
    expect(result.verdict.fixes[0]).toContain(`serve the card at ${url}.well-known/agent-card.json`);
  });

  it("a purple that answers HTML to everything: the card is no JSON, said in words, exit 1", async () => {
    const url = await listening(createServer((_request, response) => response.writeHead(200, { "content-type": "text/html" }).end("<html>hello</html>")));
    const result = await check(url);
    expect(result.exitCode).toBe(1);
    expect(result.output).toContain("not JSON (text/html");
    expect(result.verdict.gateway.works).toBe(false);
    expect(result.episode).toBeUndefined();
  });

  it("a purple with a good card whose replies are garbage: the task could not be run, the reply named, exit 1", async () => {
    let url = "";
    const card = () => ({
      name: "garbage",
      description: "d",
      url,
      version: "1",
      protocolVersion: "0.3.0",
      capabilities: {},
      defaultInputModes: ["text"],
      defaultOutputModes: ["text"],
      skills: [],
    });
    url = await listening(
      createServer((request, response) =>
        request.method === "GET"
          ? response.writeHead(200, { "content-type": "application/json" }).end(JSON.stringify(card()))
          : response.writeHead(200, { "content-type": "text/plain" }).end("ok!!"),
      ),
    );
    const result = await check(url);
    expect(result.exitCode).toBe(1);
    expect(result.verdict.gateway.works).toBe(false);
    expect(result.verdict.gateway.why).toContain("the green cannot speak to the purple");
    expect(result.taskFailure).toContain("is not JSON (text/plain, 4 bytes)");
    expect(result.output).toContain("the sample task did not run to an answer");
  });
});

describe("the gateway's card model (a2a-sdk 0.3's AgentCard)", () => {
  const card03 = {
    name: "n",
    description: "d",
    url: "http://127.0.0.1:9019/",
    version: "1.0.0",
    capabilities: {},
    defaultInputModes: ["text"],
    defaultOutputModes: ["text"],
    skills: [{ id: "s", name: "s", description: "d", tags: [] }],
  };

  it("accepts a 0.3 card without protocolVersion (the model defaults it) and with snake_case names", () => {
    expect(gatewayCardProblems(card03)).toEqual([]);
    const { defaultInputModes, ...rest } = card03;
    expect(gatewayCardProblems({ ...rest, default_input_modes: defaultInputModes })).toEqual([]);
  });

  it("names each missing or mistyped field as pydantic does", () => {
    const { url: _url, ...noUrl } = card03;
    expect(gatewayCardProblems({ ...noUrl, skills: [{ id: "s", name: "s", description: "d" }], capabilities: { streaming: "maybe" } })).toEqual([
      "url: Field required",
      "capabilities.streaming: Input should be a valid boolean",
      "skills.0.tags: Field required",
    ]);
    expect(gatewayCardProblems({ ...card03, securitySchemes: { key: { apiKeySecurityScheme: { name: "k" } } } })[0]).toMatch(/^securitySchemes\.key\.type: /);
  });
});
