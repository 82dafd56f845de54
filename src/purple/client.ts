import { createHash, randomUUID } from "node:crypto";
import type { AgentCard, Artifact, Message, Part, Task } from "@a2a-js/sdk";
import { DefaultAgentCardResolver, JsonRpcTransport } from "@a2a-js/sdk/client";
import { z } from "zod";
import type { OutgoingMessage, PurpleReply } from "../protocol/index.js";
import { createCardFetch, createPurpleFetch, ReplyTooLargeError, replyBytes } from "./fetch.js";

/** Token usage a purple agent may report about its own model calls. */
export interface ReportedUsage {
  readonly inputTokens: number;
  readonly outputTokens: number;
}

/** One answered turn. */
export interface PurpleTurn {
  readonly reply: PurpleReply;
  readonly contextId: string | undefined;
  /** Set when the purple left its task open (input-required): the next turn continues it. */
  readonly openTaskId: string | undefined;
  readonly usage: ReportedUsage | undefined;
  /** Bytes of the HTTP reply bodies of the turn (its message/send and any tasks/get polls). */
  readonly bytes: number;
}

/** Why a purple turn failed; each ends only its own episode. */
export type PurpleFailureKind = "timeout" | "unreachable" | "protocol" | "task_failed" | "too_large" | "canceled";

export class PurpleError extends Error {
  override readonly name = "PurpleError";
  constructor(
    readonly kind: PurpleFailureKind,
    message: string,
  ) {
    super(message);
  }
}

/** The green agent's view of a purple agent: send one message, get one reply. */
export interface PurpleClient {
  readonly url: string;
  /** One turn; `signal` aborts the call in flight (cancel, shutdown) and the promise rejects. */
  send(message: OutgoingMessage, thread: { contextId?: string; taskId?: string }, timeoutMs: number, signal?: AbortSignal): Promise<PurpleTurn>;
}

export interface PurpleClientOptions {
  readonly maxReplyBytes?: number;
  readonly pollIntervalMs?: number;
}

/** The base URL for card discovery: keep any path (gateway participants look like http://host:port/agent). */
export function withTrailingSlash(url: string): string {
  return url.endsWith("/") ? url : `${url}/`;
}

let cardFetch: typeof fetch | undefined;

/** Fetches a purple agent's card, trying the A2A 0.3 path, then the legacy one. */
export async function fetchAgentCard(url: string, timeoutMs = 10_000): Promise<AgentCard> {
  cardFetch ??= createCardFetch(1_000_000);
  const fetchImpl = cardFetch;
  const base = withTrailingSlash(url);
  const failures: string[] = [];
  for (const path of [".well-known/agent-card.json", ".well-known/agent.json"]) {
    const resolver = new DefaultAgentCardResolver({ fetchImpl: withTimeout(fetchImpl, timeoutMs) });
    let card: AgentCard;
    try {
      card = await resolver.resolve(base, path);
    } catch (error) {
      failures.push(`${new URL(path, base).href}: ${describeError(error)}`);
      continue;
    }
    // Any JSON is not a card: the name and version identify the purple (and its runs).
    const checked = CardIdentitySchema.safeParse(card);
    if (!checked.success)
      throw new PurpleError(
        "protocol",
        `the agent card at ${new URL(path, base).href} is not an A2A agent card: '${checked.error.issues[0]!.path.join(".")}' ${checked.error.issues[0]!.message}`,
      );
    return card;
  }
  throw new PurpleError("unreachable", `cannot read the agent card of ${url} (${failures.join("; ")})`);
}

/** What the green needs of a purple's card. */
const CardIdentitySchema = z.looseObject({
  name: z.string({ error: "must be a non-empty string" }).min(1, { error: "must be a non-empty string" }),
  version: z.string({ error: "must be a non-empty string" }).min(1, { error: "must be a non-empty string" }),
});

function withTimeout(fetchImpl: typeof fetch, timeoutMs: number): typeof fetch {
  return ((input: RequestInfo | URL, init?: RequestInit) => fetchImpl(input, { ...init, signal: AbortSignal.timeout(timeoutMs) })) as typeof fetch;
}

/**
 * Talks A2A 0.3 JSON-RPC to a purple agent. Requests go to the participant URL as given,
 * not to the URL inside its card: behind the AgentBeats gateway only the former is reachable.
 */
export class A2APurpleClient implements PurpleClient {
  private readonly transport: JsonRpcTransport;
  private readonly pollIntervalMs: number;
  /** Per task left open (input-required): the keys of the artifact parts already read in its earlier turns. */
  private readonly artifactsRead = new Map<string, ReadonlySet<string>>();

  constructor(
    readonly url: string,
    options: PurpleClientOptions = {},
  ) {
    this.transport = new JsonRpcTransport({ endpoint: url, fetchImpl: createPurpleFetch(options.maxReplyBytes ?? 4_000_000) });
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
  }

  async send(message: OutgoingMessage, thread: { contextId?: string; taskId?: string }, timeoutMs: number, stop?: AbortSignal): Promise<PurpleTurn> {
    // One controller for the timeout and the caller's stop: AbortSignal.timeout and AbortSignal.any
    // cost the green a tenth of a millisecond of its event loop per call.
    const call = new AbortController();
    const signal = call.signal;
    let timedOut = false;
    const timer = setTimeout(() => {
      timedOut = true;
      call.abort(new DOMException(`the purple agent did not answer within ${timeoutMs / 1000} s`, "TimeoutError"));
    }, timeoutMs);
    const onStop = () => call.abort(stop?.reason);
    if (stop?.aborted) onStop();
    else stop?.addEventListener("abort", onStop, { once: true });
    const outgoing: Message = {
      kind: "message",
      role: "user",
      messageId: randomUUID(),
      parts: [
        { kind: "text", text: message.text },
        { kind: "data", data: message.data },
      ],
      ...(thread.contextId ? { contextId: thread.contextId } : {}),
      ...(thread.taskId ? { taskId: thread.taskId } : {}),
    };
    try {
      let result = await this.transport.sendMessage({ message: outgoing, configuration: { blocking: true, acceptedOutputModes: ["text", "data"] } }, { signal });
      while (result.kind === "task" && (result.status.state === "submitted" || result.status.state === "working")) {
        await sleep(this.pollIntervalMs, signal);
        result = await this.transport.getTask({ id: result.id }, { signal });
      }
      return this.toTurn(result, replyBytes.get(signal) ?? 0);
    } catch (error) {
      if (error instanceof PurpleError) throw error;
      if (stop?.aborted) throw new PurpleError("canceled", "the call was aborted: the assessment is stopping");
      if (timedOut) throw new PurpleError("timeout", `the purple agent did not answer within ${timeoutMs / 1000} s`);
      if (error instanceof ReplyTooLargeError || (error as Error).cause instanceof ReplyTooLargeError) {
        throw new PurpleError("too_large", (error instanceof ReplyTooLargeError ? error : ((error as Error).cause as Error)).message);
      }
      const text = describeError(error);
      const kind: PurpleFailureKind = /fetch failed|ECONNREFUSED|ENOTFOUND|EAI_AGAIN|socket|ECONNRESET/i.test(text) ? "unreachable" : "protocol";
      throw new PurpleError(kind, `the purple agent's reply could not be used: ${text}`);
    } finally {
      clearTimeout(timer);
      stop?.removeEventListener("abort", onStop);
    }
  }

  private toTurn(result: Message | Task, bytes: number): PurpleTurn {
    if (result.kind === "message") {
      return {
        reply: readParts(result.parts),
        contextId: result.contextId,
        openTaskId: undefined,
        usage: usageFrom(result.metadata, result.parts),
        bytes,
      };
    }
    const state = result.status.state;
    const { parts, artifactKeys } = taskReplyParts(result, this.artifactsRead.get(result.id));
    this.artifactsRead.delete(result.id);
    if (state !== "completed" && state !== "input-required") {
      const said = readParts(parts).texts.join(" ").slice(0, 300);
      throw new PurpleError("task_failed", `the purple agent's task ended in state '${state}'${said ? `: ${said}` : ""}`);
    }
    if (state === "input-required") {
      // The next turn continues this task, whose artifacts accumulate: remember what was read.
      this.artifactsRead.set(result.id, new Set(artifactKeys));
      if (this.artifactsRead.size > OPEN_TASKS_REMEMBERED) this.artifactsRead.delete(this.artifactsRead.keys().next().value!);
    }
    return {
      reply: readParts(parts),
      contextId: result.contextId,
      openTaskId: state === "input-required" ? result.id : undefined,
      usage: usageFrom(result.metadata ?? result.status.message?.metadata, parts),
      bytes,
    };
  }
}

/** Open tasks whose read artifacts are remembered (an episode that ends with its task open leaves one behind). */
const OPEN_TASKS_REMEMBERED = 1_000;

/**
 * The parts of a Task reply the green reads, in this order (docs/protocol.md, "What is read"):
 * 1. the parts of the task's artifacts, in order, except those already read in an earlier turn
 *    of the same task (a task left `input-required` keeps its artifacts, and they accumulate);
 * 2. then the parts of `status.message`, except those that repeat step 1: a text part whose text
 *    (whitespace aside) equals that of one of those artifact text parts, or of all of them joined
 *    by newlines; a data part equal to one of those artifact data parts.
 * Nothing else is dropped: a status message that says something else is read after the artifacts.
 * `artifactKeys` identifies every artifact part of the task, for the next turn of an open task.
 */
export function taskReplyParts(task: Task, alreadyRead: ReadonlySet<string> = new Set()): { parts: Part[]; artifactKeys: string[] } {
  const artifactKeys: string[] = [];
  const fresh: Part[] = [];
  (task.artifacts ?? []).forEach((artifact: Artifact, artifactIndex) => {
    artifact.parts.forEach((part, partIndex) => {
      const key = `${artifact.artifactId ?? `#${artifactIndex}`}/${partIndex}/${createHash("sha256")
        .update(canonicalJson(partContent(part)))
        .digest("base64url")}`;
      artifactKeys.push(key);
      if (!alreadyRead.has(key)) fresh.push(part);
    });
  });
  const freshTexts = fresh.flatMap((part) => (part.kind === "text" ? [normalizeText(part.text)] : []));
  const repeatedTexts = new Set([...freshTexts, normalizeText(freshTexts.join("\n"))]);
  const repeatedData = new Set(fresh.flatMap((part) => (part.kind === "data" ? [canonicalJson(part.data)] : [])));
  const status = (task.status.message?.parts ?? []).filter((part) => {
    if (part.kind === "text") return freshTexts.length === 0 || !repeatedTexts.has(normalizeText(part.text));
    if (part.kind === "data") return !repeatedData.has(canonicalJson(part.data));
    return true;
  });
  return { parts: [...fresh, ...status], artifactKeys };
}

function partContent(part: Part): unknown {
  if (part.kind === "text") return { text: part.text };
  if (part.kind === "data") return { data: part.data };
  return { file: part.file };
}

function normalizeText(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** JSON with object keys sorted, so that equal data compare equal whatever their key order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

function readParts(parts: readonly Part[]): PurpleReply {
  const texts: string[] = [];
  const data: Record<string, unknown>[] = [];
  for (const part of parts) {
    if (part.kind === "text") texts.push(part.text);
    else if (part.kind === "data") data.push(part.data);
  }
  return { texts, data };
}

/**
 * Reported usage, from message/task metadata `usage` or a DataPart `{"type": "usage"}`,
 * with OpenAI (`prompt_tokens`) or Anthropic-style (`input_tokens`) names.
 */
export function usageFrom(metadata: Record<string, unknown> | undefined, parts: readonly Part[]): ReportedUsage | undefined {
  const candidates: unknown[] = [metadata?.usage];
  for (const part of parts) {
    if (part.kind === "data" && (part.data.type === "usage" || "usage" in part.data)) candidates.push(part.data.type === "usage" ? part.data : part.data.usage);
  }
  for (const candidate of candidates) {
    if (typeof candidate !== "object" || candidate === null) continue;
    const record = candidate as Record<string, unknown>;
    const input = Number(record.input_tokens ?? record.prompt_tokens);
    const output = Number(record.output_tokens ?? record.completion_tokens);
    if (Number.isFinite(input) && Number.isFinite(output) && input >= 0 && output >= 0) return { inputTokens: input, outputTokens: output };
  }
  return undefined;
}

function sleep(ms: number, signal: AbortSignal): Promise<void> {
  return new Promise((resolve, reject) => {
    const timer = setTimeout(resolve, ms);
    signal.addEventListener(
      "abort",
      () => {
        clearTimeout(timer);
        reject(signal.reason);
      },
      { once: true },
    );
  });
}

export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return `${error.message}${cause}`;
}

const LOOPBACK = new Set(["127.0.0.1", "localhost", "[::1]", "::1"]);

/**
 * Where to reach a participant. Behind the AgentBeats gateway (Amber), participant URLs point at
 * the gateway's proxy on *its* loopback (`http://127.0.0.1:8080/agent`), which is not this
 * container's loopback; the green's `proxy` slot (`PROXY_URL`) is how it reaches that proxy. So
 * with a proxy URL, a loopback participant URL keeps its path (the role) under the proxy's
 * address; any other URL is used as given.
 */
export function participantEndpoint(participantUrl: string, proxyUrl: string | undefined): string {
  if (!proxyUrl) return participantUrl;
  const participant = new URL(participantUrl);
  if (!LOOPBACK.has(participant.hostname)) return participantUrl;
  const proxy = new URL(proxyUrl);
  return `${proxy.origin}${proxy.pathname.replace(/\/$/, "")}${participant.pathname}${participant.search}`;
}
