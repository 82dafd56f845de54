import { randomUUID } from "node:crypto";
import { A2A_VERSION_HEADER, type AgentCard, type Message, type Part, Role, type SendMessageRequest, type Task, TaskState } from "@a2a-js/sdk";
import { JsonRpcTransportFactory, type Transport } from "@a2a-js/sdk/client";
import type { OutgoingMessage, PurpleReply } from "../protocol/index.js";
import { fetchAgentCard } from "./card.js";
import { PurpleError, purpleErrorOf } from "./errors.js";
import { createPurpleFetch, replyBytes } from "./fetch.js";
import type { A2AVersion } from "./protocol-version.js";
import { isTask, type ReportedUsage, readParts, stateName, taskReplyParts, usageFrom } from "./reply.js";
import { RetryWindow } from "./retry-window.js";
import { VersionChoice } from "./version-choice.js";
import { sleep } from "./wait.js";

/** One answered turn. */
export interface PurpleTurn {
  readonly reply: PurpleReply;
  readonly contextId: string | undefined;
  /** Set when the purple left its task open (input-required): the next turn continues it. */
  readonly openTaskId: string | undefined;
  readonly usage: ReportedUsage | undefined;
  /** Bytes of the HTTP reply bodies of the turn (its send and any task polls). */
  readonly bytes: number;
}

/** The green agent's view of a purple agent: send one message, get one reply. */
export interface PurpleClient {
  readonly url: string;
  /** The A2A version the turns are sent in, once it is known (after the first turn at the latest). */
  readonly protocolVersion?: A2AVersion | undefined;
  /** One turn; `signal` aborts the call in flight (cancel, shutdown) and the promise rejects. */
  send(message: OutgoingMessage, thread: { contextId?: string; taskId?: string }, timeoutMs: number, signal?: AbortSignal): Promise<PurpleTurn>;
}

export interface PurpleClientOptions {
  /**
   * The purple's agent card as read (`fetchAgentCard`): the version is chosen from it. Without one
   * the client reads the card itself before its first turn.
   */
  readonly card?: unknown;
  /** Speak this version whatever the card says (tests, and callers that know). */
  readonly protocolVersion?: A2AVersion;
  /**
   * Called once, before the failing turn rejects, when the purple's first answers say it does not
   * speak the version(s) its card named (JSON-RPC -32009 or -32601 before any turn succeeded).
   * The message names the versions and the fix; every later turn fails with it, unsent.
   */
  readonly onIncompatible?: (message: string) => void;
  readonly maxReplyBytes?: number;
  readonly pollIntervalMs?: number;
  /** How long refused or reset connections are retried before the purple is taken as gone (ms); DEFAULT_RETRY_SECONDS by default (the command line reads ENTROPIC_PURPLE_RETRY_SECONDS: retryWindowFromEnv). */
  readonly retryWindowMs?: number;
  /**
   * Called once, when the purple has been unreachable for the whole retry window: the caller stops
   * starting episodes (the turns in flight fail with the same message, unsent).
   */
  readonly onGone?: (message: string) => void;
}

/** What a session gives the client it speaks through: the card as read, and what to do when the purple is incompatible or gone. */
export type SessionPurpleOptions = Pick<PurpleClientOptions, "card" | "onIncompatible" | "onGone">;

/** Builds the client a session speaks to its purple through (the door chooses its settings: the retry window, say). */
export type PurpleClientFactory = (url: string, options: SessionPurpleOptions) => PurpleClient;

/** A2A clients with `settings` (read when each is built) besides the session's own options. */
export function a2aPurpleClients(settings: () => Omit<PurpleClientOptions, keyof SessionPurpleOptions> = () => ({})): PurpleClientFactory {
  return (url, options) => new A2APurpleClient(url, { ...settings(), ...options });
}

/** A card naming one JSON-RPC interface at `url`: what the SDK's transport factory picks a transport for. */
function interfaceCard(url: string, version: A2AVersion): AgentCard {
  return {
    name: "",
    description: "",
    supportedInterfaces: [{ url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: version }],
    provider: undefined,
    version: "",
    capabilities: undefined,
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: [],
    defaultOutputModes: [],
    skills: [],
    signatures: [],
  };
}

/** The output modes each version names the green's accepted parts with (0.3 by kind, 1.0 by media type). */
const ACCEPTED_OUTPUT_MODES: Record<A2AVersion, string[]> = { "0.3": ["text", "data"], "1.0": ["text/plain", "application/json"] };

/**
 * Talks A2A JSON-RPC to a purple agent, in the version its card names (docs/protocol.md,
 * "Protocol versions"): A2A 1.0 (`SendMessage`, `GetTask`, header `A2A-Version: 1.0`) or 0.3
 * (`message/send`, `tasks/get`, no header), every turn in the same version. The SDK's transports
 * speak the wire (its v0.3 compatibility transport for 0.3); requests go through our fetch
 * (src/purple/fetch.ts on node:http: cheaper per call, no 300 s limits, no redirects, a cap on the reply) to the participant
 * URL as given, not to the URL inside the card: behind the AgentBeats gateway only the former is
 * reachable.
 *
 * Two decorators make the client: the version choice over the SDK's transports (version-choice.ts)
 * and the retry window over the turn (retry-window.ts); what stays here is one exchange (the send,
 * the polls of a Task left working, the reply read) and the artifacts of the tasks left open.
 */
export class A2APurpleClient implements PurpleClient {
  private readonly pollIntervalMs: number;
  /** The version spoken, over the SDK's transport for each version. */
  private readonly versions: VersionChoice;
  /** Refused or reset connections retried for a while, over the whole turn. */
  private readonly retries: RetryWindow;
  /** Per task left open (input-required): the keys of the artifact parts already read in its earlier turns. */
  private readonly artifactsRead = new Map<string, ReadonlySet<string>>();

  constructor(
    readonly url: string,
    options: PurpleClientOptions = {},
  ) {
    const fetchImpl = createPurpleFetch(options.maxReplyBytes ?? 4_000_000);
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    // With the compatibility layer on, the SDK's factory picks its v0.3 transport for a 0.3 interface.
    const createTransport = (version: A2AVersion): Promise<Transport> =>
      new JsonRpcTransportFactory({ fetchImpl, legacyCompat: { enabled: true } }).create(url, interfaceCard(url, version));
    this.versions = new VersionChoice(createTransport, {
      card: options.card,
      readCard: () => fetchAgentCard(url).catch(() => ({})),
      protocolVersion: options.protocolVersion,
      onIncompatible: options.onIncompatible,
    });
    this.retries = new RetryWindow(url, { windowMs: options.retryWindowMs, onGone: options.onGone, settled: () => this.versions.verdict });
  }

  get protocolVersion(): A2AVersion | undefined {
    return this.versions.version;
  }

  /**
   * One turn: tried through the retry window (a purple that refuses or resets connections is
   * tried again until it is back or gone: retry-window.ts), each try bounded by the turn's timeout
   * and sent in the version chosen (version-choice.ts).
   */
  send(message: OutgoingMessage, thread: { contextId?: string; taskId?: string }, timeoutMs: number, stop?: AbortSignal): Promise<PurpleTurn> {
    return this.retries.send(() => this.attempt(message, thread, timeoutMs, stop), stop);
  }

  /** One attempt at a turn, bounded by the turn's timeout. */
  private async attempt(message: OutgoingMessage, thread: { contextId?: string; taskId?: string }, timeoutMs: number, stop?: AbortSignal): Promise<PurpleTurn> {
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
    try {
      return await this.versions.exchange((transport, version) => this.exchange(transport, version, message, thread, signal), signal);
    } catch (error) {
      if (error instanceof PurpleError) throw error;
      if (stop?.aborted) throw new PurpleError("canceled", "the call was aborted: the assessment is stopping");
      if (timedOut) throw new PurpleError("timeout", `the purple agent did not answer within ${timeoutMs / 1000} s`);
      throw purpleErrorOf(error);
    } finally {
      clearTimeout(timer);
      stop?.removeEventListener("abort", onStop);
    }
  }

  /** One send in `version`, and the polls of a Task left submitted or working. */
  private async exchange(
    transport: Transport,
    version: A2AVersion,
    message: OutgoingMessage,
    thread: { contextId?: string; taskId?: string },
    signal: AbortSignal,
  ): Promise<PurpleTurn> {
    // A 0.3 request carries no version header, as A2A 0.3 clients send it; 1.0 names its version.
    const options = version === "1.0" ? { signal, serviceParameters: { [A2A_VERSION_HEADER]: "1.0" } } : { signal };
    const request: SendMessageRequest = {
      tenant: "",
      message: {
        messageId: randomUUID(),
        contextId: thread.contextId ?? "",
        taskId: thread.taskId ?? "",
        role: Role.ROLE_USER,
        parts: [textPart(message.text), dataPart(message.data)],
        metadata: undefined,
        extensions: [],
        referenceTaskIds: [],
      },
      configuration: { acceptedOutputModes: ACCEPTED_OUTPUT_MODES[version], taskPushNotificationConfig: undefined, returnImmediately: false },
      metadata: undefined,
    };
    let result = await transport.sendMessage(request, options);
    while (isTask(result) && (result.status?.state === TaskState.TASK_STATE_SUBMITTED || result.status?.state === TaskState.TASK_STATE_WORKING)) {
      await sleep(this.pollIntervalMs, signal);
      result = await transport.getTask({ tenant: "", id: result.id }, options);
    }
    return this.toTurn(result, version, replyBytes.get(signal) ?? 0);
  }

  private toTurn(result: Message | Task, version: A2AVersion, bytes: number): PurpleTurn {
    if (!isTask(result)) {
      const reply = readParts(result.parts ?? []);
      return { reply, contextId: result.contextId || undefined, openTaskId: undefined, usage: usageFrom(result.metadata, reply.data), bytes };
    }
    const state = result.status?.state;
    const { parts, artifactKeys } = taskReplyParts(result, this.artifactsRead.get(result.id));
    this.artifactsRead.delete(result.id);
    const reply = readParts(parts);
    if (state !== TaskState.TASK_STATE_COMPLETED && state !== TaskState.TASK_STATE_INPUT_REQUIRED) {
      const said = reply.texts.join(" ").slice(0, 300);
      throw new PurpleError("task_failed", `the purple agent's task ended in state '${stateName(state, version)}'${said ? `: ${said}` : ""}`);
    }
    const open = state === TaskState.TASK_STATE_INPUT_REQUIRED;
    if (open) {
      // The next turn continues this task, whose artifacts accumulate: remember what was read.
      this.artifactsRead.set(result.id, new Set(artifactKeys));
      if (this.artifactsRead.size > OPEN_TASKS_REMEMBERED) this.artifactsRead.delete(this.artifactsRead.keys().next().value!);
    }
    return {
      reply,
      contextId: result.contextId || undefined,
      openTaskId: open ? result.id : undefined,
      usage: usageFrom(result.metadata ?? result.status?.message?.metadata, reply.data),
      bytes,
    };
  }
}

/** Open tasks whose read artifacts are remembered (an episode that ends with its task open leaves one behind). */
const OPEN_TASKS_REMEMBERED = 1_000;

function textPart(text: string): Part {
  return { content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "" };
}

function dataPart(data: Record<string, unknown>): Part {
  return { content: { $case: "data", value: data }, metadata: undefined, filename: "", mediaType: "" };
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
