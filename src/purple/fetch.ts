import { type IncomingHttpHeaders, STATUS_CODES } from "node:http";
import { scanJson } from "../util/index.js";
import { shownBody } from "./echo.js";
import { exchange, type HttpReply, PurpleHttpFault } from "./http.js";
import { checkRpcReply, rpcCallOf } from "./wire.js";

/**
 * Bytes of the HTTP reply bodies read for each call, by the call's AbortSignal (the only thing
 * of a call the transport passes through): what a turn cost on the wire, without serialising
 * the parsed reply again to measure it.
 */
export const replyBytes = new WeakMap<AbortSignal, number>();

/**
 * How deeply a purple's reply or card may nest arrays and objects (docs/protocol.md, "Limits"). JSON.parse
 * reads any depth, but what reads the value after it (the SDK's translators, zod, JSON.stringify in
 * the log, structuredClone) recurses: a reply nested 200,000 deep ended the whole assessment with
 * "Maximum call stack size exceeded". Measured on the bytes before anything parses them, so such a
 * reply is a protocol error of its episode. Its size is bounded by the reply cap (`maxBytes`).
 */
export const REPLY_JSON_DEPTH = 64;

/** Refuses a body nested deeper than REPLY_JSON_DEPTH, before it is parsed. */
function checkDepth(body: Buffer, what: string): void {
  const shape = scanJson(body, { maxDepth: REPLY_JSON_DEPTH, maxItems: Number.MAX_SAFE_INTEGER });
  if (!shape.ok) throw new PurpleHttpFault("protocol", `${what} is refused: ${shape.reason} (docs/protocol.md, "Limits")`);
}

/**
 * The fetch the A2A JSON-RPC transport calls for every turn, on node:http (src/purple/http.ts)
 * rather than a WHATWG fetch: no Request objects or web streams (about 0.5 ms of the event loop per
 * call in undici's fetch, which is what lets one process drive 256 episodes at once), no built-in
 * timeouts, the reply read whole (at most `maxBytes`, else a clear error instead of filling memory).
 * Redirects are not followed (a JSON-RPC endpoint answers where it is called, and the purple is
 * reached only at the address the request names), and a reply the transport could not read is
 * refused first, with a reason for the purple's author (wire.ts). Only string or URL targets with a
 * string or byte body, which is all the transport sends.
 */
export function createPurpleFetch(maxBytes: number): typeof fetch {
  const rpcFetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    if (typeof input !== "string" && !(input instanceof URL)) throw new TypeError("the purple fetch takes a URL, not a Request");
    const body = init.body;
    if (body !== undefined && body !== null && typeof body !== "string" && !(body instanceof Uint8Array)) throw new TypeError("the purple fetch sends a string or bytes");
    const url = new URL(input);
    const method = init.method ?? "GET";
    const reply = await exchange(url, { method, headers: plainHeaders(init.headers), body: body ?? null, signal: init.signal ?? null, maxBytes });
    if (init.signal) replyBytes.set(init.signal, (replyBytes.get(init.signal) ?? 0) + reply.body.byteLength);
    const call = typeof body === "string" ? rpcCallOf(body) : undefined;
    refuseRedirect(reply, call?.method ?? `${method} ${url.href}`);
    checkDepth(reply.body, `the purple agent's reply to ${call?.method ?? `${method} ${url.href}`}`);
    const json = call ? checkRpcReply(call.method, call.id, reply) : undefined;
    if (json !== undefined && reply.status >= 200 && reply.status <= 299) return readReply(reply, json);
    return toResponse(reply.status, reply.headers, reply.body);
  };
  return rpcFetch as typeof fetch;
}

/**
 * The fetch for agent cards: the same HTTP client (no redirects: the green reads the card where
 * the request says, and nowhere else), with its own cap on the body; a status other than 2xx or a
 * body that is not JSON is refused here, in words for the purple's author.
 */
export function createCardFetch(maxBytes: number): typeof fetch {
  const cardFetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    const url = new URL(input instanceof URL || typeof input === "string" ? input : input.url);
    const reply = await exchange(url, { method: "GET", headers: plainHeaders(init.headers), signal: init.signal ?? null, maxBytes });
    refuseRedirect(reply, `GET ${url.href}`);
    if (reply.status < 200 || reply.status > 299) throw new PurpleHttpFault("protocol", `HTTP ${reply.status} ${STATUS_CODES[reply.status] ?? ""}`.trimEnd());
    checkDepth(reply.body, "the card");
    try {
      JSON.parse(reply.body.toString("utf8"));
    } catch {
      throw new PurpleHttpFault("protocol", `the card is not JSON (${shownBody(reply.headers, reply.body)})`);
    }
    return toResponse(reply.status, reply.headers, reply.body);
  };
  return cardFetch as typeof fetch;
}

/** A 3xx is an error that names where it pointed: the other address is never contacted. */
function refuseRedirect(reply: HttpReply, what: string): void {
  if (reply.status < 300 || reply.status > 399) return;
  const location = headerValue(reply.headers.location);
  throw new PurpleHttpFault(
    "protocol",
    `the purple agent answered ${what} with HTTP ${reply.status} ${STATUS_CODES[reply.status] ?? ""}`.trimEnd() +
      `, a redirect${location ? "" : " without a Location header"} (where it points is not repeated: the green repeats only a reply's status and content type): redirects are not followed, the green reaches the purple only at the URL the assessment request gives; serve the agent there`,
  );
}

/** Statuses whose Response must have no body. */
const NULL_BODY = new Set([101, 204, 205, 304]);

function toResponse(status: number, headers: IncomingHttpHeaders, bytes: Buffer): Response {
  // The Response constructor takes 200-599 only; anything else from a purple is a protocol fault.
  if (status < 200 || status > 599) throw new PurpleHttpFault("protocol", `the purple agent answered with HTTP status ${status}`);
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) responseHeaders.append(name, item);
  }
  return new Response(NULL_BODY.has(status) ? null : (bytes as Uint8Array<ArrayBuffer>), { status, statusText: STATUS_CODES[status] ?? "", headers: responseHeaders });
}

/**
 * A checked 2xx JSON-RPC reply as the SDK's transports read it (`ok`, then `json()`): the JSON
 * checkRpcReply parsed, not parsed again, and no undici Response, Headers and body stream made
 * for it (together 4% of a run's CPU). Anything else a reader may ask of a Response is there too.
 */
function readReply(reply: HttpReply, json: unknown): Response {
  let used = false;
  const take = () => {
    if (used) throw new TypeError("Body is unusable: Body has already been read");
    used = true;
  };
  let whole: Response | undefined;
  const response = () => (whole ??= toResponse(reply.status, reply.headers, reply.body));
  const light = {
    ok: true,
    status: reply.status,
    statusText: STATUS_CODES[reply.status] ?? "",
    redirected: false,
    type: "basic",
    url: "",
    get headers() {
      return response().headers;
    },
    get body() {
      return used ? null : response().body;
    },
    get bodyUsed() {
      return used;
    },
    json: async () => {
      take();
      return json;
    },
    text: async () => {
      take();
      return UTF8.decode(reply.body);
    },
    arrayBuffer: async () => {
      take();
      return new Uint8Array(reply.body).buffer;
    },
    clone: () => response().clone(),
  };
  return light as unknown as Response;
}

/** What Response.text() decodes with (a leading byte order mark dropped). */
const UTF8 = new TextDecoder();

function plainHeaders(headers: HeadersInit | undefined): Record<string, string> {
  if (headers === undefined) return {};
  if (headers instanceof Headers || Array.isArray(headers)) return Object.fromEntries(headers as Iterable<[string, string]>);
  return headers as Record<string, string>;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}
