import { randomUUID } from "node:crypto";
import { A2A_VERSION_HEADER, type AgentCard, type Message, type Part, Role, type SendMessageRequest, type Task, TaskState } from "@a2a-js/sdk";
import { DefaultAgentCardResolver, JsonRpcTransportFactory, type Transport } from "@a2a-js/sdk/client";
import { z } from "zod";
import type { OutgoingMessage, PurpleReply } from "../protocol/index.js";
import { elide } from "../util/index.js";
import { createCardFetch, createPurpleFetch, replyBytes } from "./fetch.js";
import { PurpleHttpFault } from "./http.js";
import { type A2AVersion, chooseProtocol, isVersionMismatchCode, mismatchExplanation, type ProtocolChoice } from "./protocol-version.js";
import { isTask, type ReportedUsage, readParts, stateName, taskReplyParts, usageFrom } from "./reply.js";

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

/** Why a purple turn failed; each ends only its own episode. */
export type PurpleFailureKind = "timeout" | "unreachable" | "protocol" | "task_failed" | "too_large" | "canceled";

export class PurpleError extends Error {
  override readonly name = "PurpleError";
  constructor(
    readonly kind: PurpleFailureKind,
    message: string,
    /** A connection refused or reset: the purple may be restarting, and the turn is tried again for a while. */
    readonly retryable = false,
  ) {
    super(message);
  }
}

/**
 * The purple has been unreachable for the whole retry window: the turn that fails with it did not
 * fail on the purple's account, so its episode is not recorded (it runs again when the same
 * request is sent once the purple is back), as a canceled one.
 */
export class PurpleGoneError extends PurpleError {
  constructor(message: string) {
    super("unreachable", message);
  }
}

/** The environment variable that sets the retry window, in seconds (docs/protocol.md, section 11). */
export const RETRY_ENV = "ENTROPIC_PURPLE_RETRY_SECONDS";
export const DEFAULT_RETRY_SECONDS = 30;
const RETRY_FIRST_WAIT_MS = 250;
const RETRY_LONGEST_WAIT_MS = 5_000;

/** The retry window the environment sets: a number of seconds, 0 for none; anything else is refused, naming the variable. */
export function retryWindowFromEnv(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env[RETRY_ENV];
  if (raw === undefined || raw.trim() === "") return DEFAULT_RETRY_SECONDS * 1000;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 3600) throw new Error(`${RETRY_ENV} must be a number of seconds from 0 to 3600 (got ${JSON.stringify(raw)})`);
  return seconds * 1000;
}

/**
 * A failed call as a PurpleError whose message is ours: the HTTP client's and the reply check's
 * faults as they are written (src/purple/http.ts, wire.ts), JSON-RPC errors with their code, and
 * whatever else the SDK's transports throw named as what it is, never a runtime's bare text.
 */
function purpleErrorOf(error: unknown): PurpleError {
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof PurpleHttpFault) {
      if (cause.kind === "too_large") return new PurpleError("too_large", cause.message);
      if (cause.kind === "protocol") return new PurpleError("protocol", cause.message);
      return new PurpleError("unreachable", cause.message, cause.kind === "refused" || cause.kind === "reset");
    }
  }
  if (rpcCode(error) !== undefined) return new PurpleError("protocol", `the purple agent's reply could not be used: ${describeError(error)}`);
  // A runtime error inside the SDK's reader says nothing a purple's author can act on.
  if (error instanceof TypeError || error instanceof SyntaxError || error instanceof RangeError || !(error instanceof Error))
    return new PurpleError("protocol", "the purple agent's reply could not be used: it is no A2A reply the green can read (see docs/protocol.md, section 11)");
  return new PurpleError("protocol", `the purple agent's reply could not be used: ${error.message}`);
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

/** The base URL for card discovery: keep any path (gateway participants look like http://host:port/agent). */
export function withTrailingSlash(url: string): string {
  return url.endsWith("/") ? url : `${url}/`;
}

let cardFetch: typeof fetch | undefined;

/** A purple's agent card as read: any JSON object with a name and a version; the rest is read where it is used. */
export type PurpleCard = { readonly name: string; readonly version: string } & Record<string, unknown>;

/**
 * Fetches a purple agent's card, trying the A2A path, then the legacy one. The request announces
 * A2A 1.0 (the SDK's card resolver does), so a purple that serves both versions answers with its
 * 1.0 card; a 0.3 purple ignores the header.
 */
export async function fetchAgentCard(url: string, timeoutMs = 10_000): Promise<PurpleCard> {
  cardFetch ??= createCardFetch(1_000_000);
  const fetchImpl = cardFetch;
  const base = withTrailingSlash(url);
  const failures: string[] = [];
  for (const path of [".well-known/agent-card.json", ".well-known/agent.json"]) {
    const resolver = new DefaultAgentCardResolver({ fetchImpl: withTimeout(fetchImpl, timeoutMs) });
    let card: unknown;
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
    return checked.data as PurpleCard;
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

/** What a failed call's error says: the JSON-RPC code when there is one (the SDK's errors carry it as `envelopeCode`). */
function rpcCode(error: unknown): number | undefined {
  const code = (error as { envelopeCode?: unknown } | undefined)?.envelopeCode;
  return typeof code === "number" ? code : undefined;
}

/**
 * Talks A2A JSON-RPC to a purple agent, in the version its card names (docs/protocol.md,
 * "Protocol versions"): A2A 1.0 (`SendMessage`, `GetTask`, header `A2A-Version: 1.0`) or 0.3
 * (`message/send`, `tasks/get`, no header), every turn in the same version. The SDK's transports
 * speak the wire (its v0.3 compatibility transport for 0.3); requests go through our fetch
 * (src/purple/fetch.ts on node:http: cheaper per call, no 300 s limits, no redirects, a cap on the reply) to the participant
 * URL as given, not to the URL inside the card: behind the AgentBeats gateway only the former is
 * reachable.
 */
export class A2APurpleClient implements PurpleClient {
  private readonly fetchImpl: typeof fetch;
  private readonly pollIntervalMs: number;
  private readonly onIncompatible: ((message: string) => void) | undefined;
  private readonly card: unknown;
  private choice: ProtocolChoice | undefined;
  private choosing: Promise<ProtocolChoice> | undefined;
  private readonly transports = new Map<A2AVersion, Promise<Transport>>();
  /** Whether a turn has been answered: until then a method or version error means the versions do not match. */
  private answered = false;
  /** The first answers' refusals, by the version refused (a card that names no version is tried in both). */
  private readonly refusals = new Map<A2AVersion, string>();
  private incompatible: PurpleError | undefined;
  private readonly retryWindowMs: number;
  private readonly onGone: ((message: string) => void) | undefined;
  /** Since when every call has met a refused or reset connection (none since the last answer). */
  private unreachableSince: number | undefined;
  /** Set once the retry window expired: the error of every later turn. */
  private gone: PurpleGoneError | undefined;
  /** Per task left open (input-required): the keys of the artifact parts already read in its earlier turns. */
  private readonly artifactsRead = new Map<string, ReadonlySet<string>>();

  constructor(
    readonly url: string,
    options: PurpleClientOptions = {},
  ) {
    this.fetchImpl = createPurpleFetch(options.maxReplyBytes ?? 4_000_000);
    this.pollIntervalMs = options.pollIntervalMs ?? 500;
    this.onIncompatible = options.onIncompatible;
    this.card = options.card;
    this.retryWindowMs = options.retryWindowMs ?? DEFAULT_RETRY_SECONDS * 1000;
    this.onGone = options.onGone;
    if (options.protocolVersion) this.choice = { version: options.protocolVersion, reason: "set by the caller" };
  }

  get protocolVersion(): A2AVersion | undefined {
    return this.choice?.version;
  }

  /** The version and why, from the card given or read (a card that cannot be read leaves 0.3, then 1.0, to be tried). */
  private async chosen(): Promise<ProtocolChoice> {
    if (this.choice) return this.choice;
    this.choosing ??= (async () => {
      const card = this.card ?? (await fetchAgentCard(this.url).catch(() => ({})));
      const choice = chooseProtocol(card);
      if ("refusal" in choice) throw this.giveUp(choice.refusal);
      return choice;
    })();
    this.choice = await this.choosing;
    return this.choice;
  }

  private transport(version: A2AVersion): Promise<Transport> {
    let transport = this.transports.get(version);
    if (!transport) {
      // With the compatibility layer on, the SDK's factory picks its v0.3 transport for a 0.3 interface.
      transport = new JsonRpcTransportFactory({ fetchImpl: this.fetchImpl, legacyCompat: { enabled: true } }).create(this.url, interfaceCard(this.url, version));
      this.transports.set(version, transport);
    }
    return transport;
  }

  /**
   * One turn. A purple that refuses or resets connections (restarting: a container crash, an
   * OOM) is tried again with backoff until it has been unreachable for the retry window, counted
   * from its first fault and shared by all the episodes in flight; then it is gone: the caller is
   * told once (`onGone`), and this and every later turn fail at once with that reason.
   */
  async send(message: OutgoingMessage, thread: { contextId?: string; taskId?: string }, timeoutMs: number, stop?: AbortSignal): Promise<PurpleTurn> {
    for (let retry = 0; ; retry++) {
      if (this.incompatible) throw this.incompatible;
      if (this.gone) throw this.gone;
      try {
        const turn = await this.attempt(message, thread, timeoutMs, stop);
        this.unreachableSince = undefined;
        return turn;
      } catch (error) {
        if (!(error instanceof PurpleError) || !error.retryable) {
          // Any answer at all (even a faulty one) says the purple is there.
          if (error instanceof PurpleError && error.kind !== "canceled") this.unreachableSince = undefined;
          throw error;
        }
        const now = performance.now();
        this.unreachableSince ??= now;
        const left = this.retryWindowMs - (now - this.unreachableSince);
        if (left <= 0) throw this.declareGone(error, (now - this.unreachableSince) / 1000);
        try {
          await sleep(Math.min(left, RETRY_FIRST_WAIT_MS * 2 ** Math.min(retry, 10), RETRY_LONGEST_WAIT_MS), stop);
        } catch {
          throw new PurpleError("canceled", "the call was aborted: the assessment is stopping");
        }
      }
    }
  }

  /** The purple has been unreachable for the whole retry window: said once to the caller, then the error of every turn, unsent. */
  private declareGone(last: PurpleError, seconds: number): PurpleGoneError {
    if (!this.gone) {
      const message = `the purple agent at ${this.url} has been unreachable for ${seconds.toFixed(1)} s (${last.message}; retried with backoff for ${this.retryWindowMs / 1000} s, ${RETRY_ENV}), so it is taken as gone and the assessment stops: restart the purple and send the same request again to continue the run`;
      this.gone = new PurpleGoneError(message);
      this.onGone?.(message);
    }
    return this.gone;
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
      let version = (await this.chosen()).version;
      for (;;) {
        try {
          const turn = await this.exchange(version, message, thread, signal);
          this.answered = true;
          return turn;
        } catch (error) {
          if (!isVersionMismatchCode(rpcCode(error)) || signal.aborted) throw error;
          if (this.incompatible) throw this.incompatible;
          const choice = this.choice!;
          // Sent before another turn switched the version (and maybe before that one was answered): sent again in it.
          if (choice.version !== version) {
            version = choice.version;
            continue;
          }
          // Before any answer, a method or version error says the purple speaks another version.
          if (this.answered) throw error;
          this.refusals.set(version, describeError(error));
          if (choice.fallback && !this.refusals.has(choice.fallback)) {
            this.choice = { version: choice.fallback, reason: `${choice.reason}; it refused A2A ${version} (${describeError(error)}), so A2A ${choice.fallback} is spoken` };
            version = choice.fallback;
            continue;
          }
          throw this.giveUp(mismatchExplanation(this.refusals));
        }
      }
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

  /** The purple speaks nothing the green does: said once to the caller, then the error of every turn, unsent. */
  private giveUp(message: string): PurpleError {
    if (!this.incompatible) {
      this.incompatible = new PurpleError("protocol", message);
      this.onIncompatible?.(message);
    }
    return this.incompatible;
  }

  /** One send in `version`, and the polls of a Task left submitted or working. */
  private async exchange(version: A2AVersion, message: OutgoingMessage, thread: { contextId?: string; taskId?: string }, signal: AbortSignal): Promise<PurpleTurn> {
    const transport = await this.transport(version);
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

function sleep(ms: number, signal: AbortSignal | undefined): Promise<void> {
  return new Promise((resolve, reject) => {
    if (signal?.aborted) {
      reject(signal.reason);
      return;
    }
    // The listener goes with the timer: a signal that lives as long as the run (its stop) must not
    // gather one listener per wait.
    const onAbort = () => {
      clearTimeout(timer);
      reject(signal?.reason);
    };
    const timer = setTimeout(() => {
      signal?.removeEventListener("abort", onAbort);
      resolve();
    }, ms);
    signal?.addEventListener("abort", onAbort, { once: true });
  });
}

/** An error's text: a JSON-RPC error with its code (and data), anything else with its cause. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = rpcCode(error);
  if (code !== undefined) {
    const data = (error as { data?: unknown }).data;
    return `JSON-RPC error ${code}: ${elide(error.message, 300)}${data === undefined ? "" : ` (data: ${elide(JSON.stringify(data) ?? "", 300)})`}`;
  }
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
