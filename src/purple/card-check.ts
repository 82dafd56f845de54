import { randomUUID } from "node:crypto";
import { STATUS_CODES } from "node:http";
import { A2A_VERSION_HEADER, AGENT_CARD_PATH } from "@a2a-js/sdk";
import { z } from "zod";
import { issuesIn } from "../util/index.js";
import { fetchAgentCard, type PurpleCard, withTrailingSlash } from "./card.js";
import { shownBody } from "./echo.js";
import { describeError } from "./errors.js";
import { exchange } from "./http.js";
import { type A2AVersion, chooseProtocol, isVersionMismatchCode } from "./protocol-version.js";

/**
 * What a purple's card and endpoint say about the flows it can be assessed in (docs/protocol.md,
 * "What AgentBeats needs today"): read once as the AgentBeats gateway's A2A 0.3 card reader reads
 * it, once as an A2A 1.0 client (the green) reads it, and the participant URL asked whether it
 * answers each version's JSON-RPC methods. Each problem comes with its fix, in a line.
 */

/** The reader the AgentBeats gateway (v0.3) checks a participant's card with before an assessment starts. */
export const GATEWAY_CARD_READER = "a2a-sdk 0.3.22 (a2a-python)";

/**
 * a2a-python 0.3's `AgentCard` model (src/a2a/types.py at v0.3.22, generated from the 0.3 JSON
 * schema), field by field: what the gateway's `A2ACardResolver.get_agent_card` validates the card
 * against (`AgentCard.model_validate`). Required: name, description, url, version, capabilities,
 * defaultInputModes, defaultOutputModes, skills (each skill: id, name, description, tags). The
 * rest may be absent or null; `protocolVersion` defaults to "0.3.0" and `preferredTransport` to
 * "JSONRPC". Unknown keys (a 1.0 card's supportedInterfaces) are ignored; snake_case names are
 * accepted as well (`validate_by_name`), as pydantic does.
 */
const text = z.string({ error: (issue) => (issue.input === undefined ? "Field required" : "Input should be a valid string") });
const texts = z.array(z.string({ error: "Input should be a valid string" }), { error: (issue) => (issue.input === undefined ? "Field required" : "Input should be a valid list") });
const maybe = <T extends z.ZodType>(schema: T) => schema.nullish();
/** Pydantic's lax bool: true/false, 0/1 and the words it reads as either. */
const PYDANTIC_BOOLEANS = new Set([true, false, 0, 1, "0", "1", "true", "false", "yes", "no", "on", "off", "t", "f", "y", "n"]);
const bool = z.unknown().refine((value) => PYDANTIC_BOOLEANS.has(typeof value === "string" ? value.toLowerCase() : (value as never)), { error: "Input should be a valid boolean" });
const model = <T extends z.ZodRawShape>(shape: T) =>
  z.preprocess(
    camelCaseKeys,
    z.looseObject(shape, { error: (issue) => (issue.input === undefined ? "Field required" : "Input should be a valid dictionary or instance of the model") }),
  );
const requirements = z.array(z.record(z.string(), texts), { error: "Input should be a valid list" });
/** 0.3's SecurityScheme is a union on `type`; a 1.0 card wraps each scheme in a key (apiKeySecurityScheme, ...) instead. */
const SECURITY_TYPES = ["apiKey", "http", "oauth2", "openIdConnect", "mutualTLS"];
const securityScheme = z.looseObject({ type: z.enum(SECURITY_TYPES, { error: `Input tag does not match any of the expected tags: ${SECURITY_TYPES.join(", ")}` }) });

export const Gateway03CardSchema = model({
  name: text,
  description: text,
  url: text,
  version: text,
  protocolVersion: maybe(z.string({ error: "Input should be a valid string" })),
  preferredTransport: maybe(z.string({ error: "Input should be a valid string" })),
  additionalInterfaces: maybe(z.array(model({ url: text, transport: text }), { error: "Input should be a valid list" })),
  capabilities: model({
    extensions: maybe(z.array(model({ uri: text }), { error: "Input should be a valid list" })),
    pushNotifications: maybe(bool),
    stateTransitionHistory: maybe(bool),
    streaming: maybe(bool),
  }),
  defaultInputModes: texts,
  defaultOutputModes: texts,
  skills: z.array(
    model({ id: text, name: text, description: text, tags: texts, examples: maybe(texts), inputModes: maybe(texts), outputModes: maybe(texts), security: maybe(requirements) }),
    { error: (issue) => (issue.input === undefined ? "Field required" : "Input should be a valid list") },
  ),
  provider: maybe(model({ organization: text, url: text })),
  documentationUrl: maybe(text),
  iconUrl: maybe(text),
  security: maybe(requirements),
  securitySchemes: maybe(z.record(z.string(), securityScheme, { error: "Input should be a valid dictionary" })),
  signatures: maybe(z.array(model({ protected: text, signature: text }), { error: "Input should be a valid list" })),
  supportsAuthenticatedExtendedCard: maybe(bool),
});

/** A model's snake_case keys read under their camelCase alias when that is absent (pydantic's validate_by_name). */
function camelCaseKeys(value: unknown): unknown {
  if (typeof value !== "object" || value === null || Array.isArray(value)) return value;
  const out: Record<string, unknown> = { ...(value as Record<string, unknown>) };
  for (const [key, item] of Object.entries(value)) {
    const camel = key.replace(/_([a-z])/g, (_, letter: string) => letter.toUpperCase());
    if (camel !== key && !(camel in out)) out[camel] = item;
  }
  return out;
}

/** The 0.3 reader's verdict on a card: each field it refuses, as pydantic names it (`skills.0.tags: Field required`). */
export function gatewayCardProblems(card: unknown): string[] {
  return issuesIn(Gateway03CardSchema, card).map((issue) => `${issue.path || "(the card)"}: ${issue.message}`);
}

/** A card as one reader got it, or why it got none. */
export type CardRead = { readonly card: Record<string, unknown> } | { readonly failure: string };

/** The card as the gateway's reader fetches it: GET <url>/.well-known/agent-card.json, no A2A-Version header, no redirects, 2xx and JSON. */
export async function readCardAsGateway(url: string, timeoutMs = 10_000): Promise<CardRead> {
  const where = new URL(AGENT_CARD_PATH, withTrailingSlash(url));
  try {
    const reply = await exchange(where, { method: "GET", headers: { accept: "*/*" }, signal: AbortSignal.timeout(timeoutMs), maxBytes: 1_000_000 });
    if (reply.status < 200 || reply.status > 299) return { failure: `GET ${where.href} answered HTTP ${reply.status} ${STATUS_CODES[reply.status] ?? ""}`.trimEnd() };
    try {
      const card = JSON.parse(reply.body.toString("utf8")) as unknown;
      if (typeof card === "object" && card !== null && !Array.isArray(card)) return { card: card as Record<string, unknown> };
      return { failure: `GET ${where.href} answered JSON that is not an object` };
    } catch {
      return { failure: `GET ${where.href} answered something that is not JSON (${shownBody(reply.headers, reply.body)})` };
    }
  } catch (error) {
    return { failure: `GET ${where.href} failed: ${describeError(error)}` };
  }
}

/** The card as the green reads it (A2A-Version: 1.0, the A2A path then the legacy one), or why it could not. */
export async function readCardAsGreen(url: string, timeoutMs = 10_000): Promise<CardRead & { card?: PurpleCard }> {
  try {
    return { card: await fetchAgentCard(url, timeoutMs) };
  } catch (error) {
    return { failure: describeError(error) };
  }
}

/** Whether the participant URL answers one version's JSON-RPC methods. */
export interface MethodProbe {
  readonly version: A2AVersion;
  readonly method: string;
  /** served: any answer of that version (an unknown task's error is one); refused: -32601 or -32009; unusable: no JSON-RPC answer; unreachable: no answer at all. */
  readonly outcome: "served" | "refused" | "unusable" | "unreachable";
  readonly detail: string;
}

const PROBES: Record<A2AVersion, { method: string; headers: Record<string, string> }> = {
  "1.0": { method: "GetTask", headers: { [A2A_VERSION_HEADER]: "1.0" } },
  "0.3": { method: "tasks/get", headers: {} },
};

/**
 * Asks the participant URL for a task that does not exist, in one version (GetTask with
 * A2A-Version: 1.0, or 0.3's tasks/get without the header): a server of that version answers
 * "task not found", one without it "method not found" or "version not supported". Nothing starts.
 */
export async function probeMethods(url: string, version: A2AVersion, timeoutMs = 10_000): Promise<MethodProbe> {
  const { method, headers } = PROBES[version];
  const taskId = `check-purple-${randomUUID()}`;
  const body = JSON.stringify({ jsonrpc: "2.0", id: 1, method, params: { id: taskId } });
  const probe = (outcome: MethodProbe["outcome"], detail: string): MethodProbe => ({ version, method, outcome, detail });
  let reply: Awaited<ReturnType<typeof exchange>>;
  try {
    reply = await exchange(new URL(url), {
      method: "POST",
      headers: { "content-type": "application/json", accept: "application/json", ...headers },
      body,
      signal: AbortSignal.timeout(timeoutMs),
      maxBytes: 1_000_000,
    });
  } catch (error) {
    return probe("unreachable", describeError(error));
  }
  let json: { result?: unknown; error?: { code?: unknown; message?: unknown } } | undefined;
  try {
    json = JSON.parse(reply.body.toString("utf8")) as typeof json;
  } catch {
    json = undefined;
  }
  if (typeof json !== "object" || json === null) return probe("unusable", `HTTP ${reply.status}, not a JSON-RPC response (${shownBody(reply.headers, reply.body)})`);
  const error = json.error;
  if (typeof error === "object" && error !== null && typeof error.code === "number") {
    const said = `JSON-RPC ${error.code}${typeof error.message === "string" ? ` ${JSON.stringify(error.message.replaceAll(taskId, "<id>").slice(0, 120))}` : ""}`;
    return isVersionMismatchCode(error.code) ? probe("refused", said) : probe("served", `${said}, as for an unknown task`);
  }
  if (json.result !== undefined) return probe("served", "a result");
  return probe("unusable", `HTTP ${reply.status}, a JSON reply with neither "result" nor "error"`);
}

/** Everything the network said about a purple's card and endpoint; what it means is worked out by `judgeCard`, pure. */
export interface CardObservations {
  readonly url: string;
  readonly gatewayRead: CardRead;
  readonly greenRead: CardRead;
  readonly probes: Readonly<Record<A2AVersion, MethodProbe>>;
}

export async function observeCard(url: string, timeoutMs = 10_000): Promise<CardObservations> {
  const [gatewayRead, greenRead, probe10, probe03] = await Promise.all([
    readCardAsGateway(url, timeoutMs),
    readCardAsGreen(url, timeoutMs),
    probeMethods(url, "1.0", timeoutMs),
    probeMethods(url, "0.3", timeoutMs),
  ]);
  return { url, gatewayRead, greenRead, probes: { "1.0": probe10, "0.3": probe03 } };
}

/** One way a purple is reached, and whether it works. */
export interface Flow {
  readonly works: boolean;
  readonly why: string;
}

/** What the observations mean: the flows, the version the green would speak, each problem's fix. */
export interface CardVerdict {
  readonly direct10: Flow;
  readonly direct03: Flow;
  readonly gateway: Flow;
  /** The version the green speaks to the purple (after its fallback, as the probes say), if any. */
  readonly greenVersion: A2AVersion | undefined;
  /** One short line per fix, in the order the problems were found, no repeats. */
  readonly fixes: readonly string[];
}

/** The SDK settings that make a 1.x purple's card readable by A2A 0.3 clients and answer 0.3 calls. */
export const SDK_FIXES = {
  a2aJs:
    '@a2a-js/sdk 1.x: legacyCompat: {enabled: true} on agentCardHandler and jsonRpcHandler, and supportedInterfaces: duplicateInterfacesForLegacy([<your JSONRPC 1.0 interface>], ["JSONRPC"]) in the card',
  a2aPython:
    'a2a-python 1.x: enable_v0_3_compat=True on create_jsonrpc_routes, and AgentInterface(protocol_binding="JSONRPC", protocol_version="0.3", url=<your URL>) beside the 1.0 one in supported_interfaces',
} as const;

/** What to write for a field the 0.3 reader refuses, by the field's last name. */
const FIELD_HINTS: Record<string, string> = {
  url: 'the JSON-RPC endpoint\'s URL, "url": "http://<host>:<port>/" (0.3 cards have it at the top; 1.0 cards only in supportedInterfaces)',
  name: "a string",
  description: "a string",
  version: 'a string such as "1.0.0"',
  capabilities: 'an object, {} at least ("streaming": false)',
  defaultInputModes: 'a list of strings, e.g. ["text"]',
  defaultOutputModes: 'a list of strings, e.g. ["text"]',
  skills: 'a list of {"id", "name", "description", "tags": [...]} ([] passes)',
  tags: "a list of strings, [] at least",
  id: "a string",
  type: '0.3\'s form {"type": "apiKey" | "http" | "oauth2" | "openIdConnect" | "mutualTLS", ...}',
};

/** The wire versions a card's JSON-RPC interfaces name (supportedInterfaces), and a 0.3 card's top-level version. */
function listedVersions(card: Record<string, unknown>): Set<A2AVersion> {
  const listed = new Set<A2AVersion>();
  const interfaces = Array.isArray(card.supportedInterfaces) ? (card.supportedInterfaces as unknown[]) : [];
  for (const entry of interfaces) {
    const item = (typeof entry === "object" && entry !== null ? entry : {}) as { protocolBinding?: unknown; protocolVersion?: unknown };
    if (typeof item.protocolBinding !== "string" || item.protocolBinding.trim().toUpperCase() !== "JSONRPC") continue;
    const version = String(item.protocolVersion ?? "");
    if (/^\s*1(\.\d+)*\s*$/.test(version)) listed.add("1.0");
    else if (/^\s*0\.[2-9](\.\d+)*\s*$/.test(version) || version.trim() === "") listed.add("0.3");
  }
  if (typeof card.url === "string" && /^\s*0\.[2-9]/.test(String(card.protocolVersion ?? "0.3.0"))) listed.add("0.3");
  return listed;
}

/** Which versions the green would try, first to last, from the card it reads; or why it refuses the card. */
function greenVersions(read: CardRead): { versions: A2AVersion[]; refusal?: string } {
  if ("failure" in read) return { versions: [], refusal: `the green cannot read the card: ${read.failure}` };
  const choice = chooseProtocol(read.card);
  if ("refusal" in choice) return { versions: [], refusal: choice.refusal };
  return { versions: choice.fallback ? [choice.version, choice.fallback] : [choice.version] };
}

/**
 * What the cards and probes mean (pure). Direct 1.0: the card the green reads lists a JSON-RPC
 * interface of A2A 1.x and the URL answers GetTask. Direct 0.3: the card read without a version
 * header passes the 0.3 reader and the URL answers tasks/get. The gateway: its 0.3 reader accepts
 * the card read without a header (else the run ends in "Timeout: Only 1/2 agents became ready",
 * the green never asked), and the green speaks a version the URL answers.
 */
export function judgeCard(seen: CardObservations): CardVerdict {
  const fixes: string[] = [];
  const fix = (line: string) => {
    if (!fixes.includes(line)) fixes.push(line);
  };
  const served = (version: A2AVersion) => seen.probes[version].outcome === "served";
  const methodsFault = (version: A2AVersion) => `the URL does not answer ${seen.probes[version].method} (${seen.probes[version].outcome}: ${seen.probes[version].detail})`;

  // Direct 1.0.
  const greenListed = "card" in seen.greenRead ? listedVersions(seen.greenRead.card) : new Set<A2AVersion>();
  const direct10: Flow =
    "failure" in seen.greenRead
      ? { works: false, why: "the green cannot read the card (above)" }
      : !greenListed.has("1.0")
        ? { works: false, why: "the card (read with A2A-Version: 1.0) lists no JSONRPC interface of A2A 1.0" }
        : served("1.0")
          ? { works: true, why: "the card lists JSONRPC 1.0 and the URL answers GetTask" }
          : { works: false, why: `the card lists JSONRPC 1.0, but ${methodsFault("1.0")}` };
  if (greenListed.has("1.0") && !served("1.0") && seen.probes["1.0"].outcome === "refused")
    fix('serve A2A 1.0 at the participant URL (@a2a-js/sdk 1.x jsonRpcHandler, a2a-python 1.x), or list only the versions it answers in the card\'s "supportedInterfaces"');

  // The card as a 0.3 reader (the gateway's, any 0.3 client) gets it.
  const gatewayProblems = "card" in seen.gatewayRead ? gatewayCardProblems(seen.gatewayRead.card) : [];
  const readable03 = "card" in seen.gatewayRead && gatewayProblems.length === 0;
  const cardRefusal =
    "failure" in seen.gatewayRead
      ? `its card reader gets no card: ${seen.gatewayRead.failure}`
      : `its card reader (${GATEWAY_CARD_READER}, no A2A-Version header) refuses the card: ${gatewayProblems.join("; ")}`;
  if ("failure" in seen.gatewayRead)
    fix(`serve the card at ${new URL(AGENT_CARD_PATH, withTrailingSlash(seen.url)).href}: HTTP 200, JSON, also to a request without an A2A-Version header`);
  else if (!readable03) {
    const card = seen.gatewayRead.card;
    // A 1.x SDK's card in 1.0's shape (without a 0.3 interface, or served without the compatibility
    // layer that writes the 0.3 fields): the SDK setting is the fix, the fields follow from it.
    if (Array.isArray(card.supportedInterfaces)) {
      fix(SDK_FIXES.a2aJs);
      fix(SDK_FIXES.a2aPython);
    }
    for (const problem of gatewayProblems) {
      const field =
        problem
          .split(":")[0]!
          .split(".")
          .filter((part) => !/^\d+$/.test(part))
          .pop() ?? "";
      fix(`card field ${problem}${FIELD_HINTS[field] ? `: ${FIELD_HINTS[field]}` : ""}`);
    }
  }

  // Direct 0.3.
  const direct03: Flow = !readable03
    ? { works: false, why: `a 0.3 client cannot read the card: ${cardRefusal.replace(/^its card reader/, "the reader")}` }
    : served("0.3")
      ? { works: true, why: "the card reads as A2A 0.3 and the URL answers tasks/get" }
      : { works: false, why: `the card reads as A2A 0.3, but ${methodsFault("0.3")}` };
  if (readable03 && seen.probes["0.3"].outcome === "refused") {
    fix("answer A2A 0.3 calls (message/send, tasks/get without an A2A-Version header) at the participant URL:");
    fix(SDK_FIXES.a2aJs);
    fix(SDK_FIXES.a2aPython);
  }

  // The gateway: its card check first, then the green speaks to the purple through its proxy.
  const green = greenVersions(seen.greenRead);
  if (green.refusal && "card" in seen.greenRead) fix(green.refusal.replace(/^.*Fix on the purple's side: /, ""));
  const greenVersion = green.versions.find((version) => served(version));
  if (!greenVersion)
    for (const version of green.versions) {
      const { outcome, method } = seen.probes[version];
      if (outcome === "unusable")
        fix(
          `answer ${version === "1.0" ? "SendMessage and GetTask" : "message/send and tasks/get"} (A2A ${version}, the ${method} probe got none) at the participant URL ${seen.url} with JSON-RPC 2.0 responses (docs/protocol.md, section 11)`,
        );
      if (outcome === "unreachable") fix(`serve the JSON-RPC endpoint at the participant URL ${seen.url}: ${seen.probes[version].detail}`);
    }
  const gateway: Flow = !readable03
    ? { works: false, why: `${cardRefusal}; the run ends in "Timeout: Only 1/2 agents became ready" and the green never sees a request` }
    : greenVersion
      ? { works: true, why: `the gateway's ${GATEWAY_CARD_READER} reader accepts the card, and the green speaks A2A ${greenVersion} to it` }
      : {
          works: false,
          why: `the gateway accepts the card, but the green cannot speak to the purple: ${green.refusal ?? green.versions.map((version) => methodsFault(version)).join("; ")}`,
        };
  return { direct10, direct03, gateway, greenVersion, fixes };
}

/** The observations and what they mean, as lines for the purple's author. */
export function cardCheckLines(seen: CardObservations, verdict: CardVerdict): string[] {
  const cardLine = (read: CardRead, problems?: string[]) =>
    "failure" in read
      ? `unreadable: ${read.failure}`
      : `${JSON.stringify(read.card.name ?? "(no name)")} ${String(read.card.version ?? "(no version)")}${problems === undefined ? "" : problems.length > 0 ? `; refused: ${problems.join("; ")}` : "; accepted"}`;
  const flow = (name: string, value: Flow) => `  ${name.padEnd(28)} ${value.works ? "works" : "FAILS"}: ${value.why}`;
  return [
    `Agent card`,
    `  as the AgentBeats gateway reads it (no A2A-Version header, ${GATEWAY_CARD_READER} AgentCard model): ${cardLine(seen.gatewayRead, "card" in seen.gatewayRead ? gatewayCardProblems(seen.gatewayRead.card) : [])}`,
    `  as the green reads it (A2A-Version: 1.0): ${"failure" in seen.greenRead ? `unreadable: ${seen.greenRead.failure}` : `${cardLine(seen.greenRead)}, JSONRPC ${[...listedVersions(seen.greenRead.card)].join(" and ") || "(no version it speaks)"}`}`,
    `JSON-RPC at ${seen.url}`,
    ...(["1.0", "0.3"] as const).map((version) => `  A2A ${version} (${seen.probes[version].method}): ${seen.probes[version].outcome}: ${seen.probes[version].detail}`),
    "Flows",
    flow("direct, A2A 1.0", verdict.direct10),
    flow("direct, A2A 0.3", verdict.direct03),
    flow("AgentBeats gateway (v0.3)", verdict.gateway),
  ];
}
