import { type ClientRequest, Agent as HttpAgent, request as httpRequest, type IncomingHttpHeaders, type IncomingMessage } from "node:http";
import { Agent as HttpsAgent, request as httpsRequest } from "node:https";
import { EntropicError, pieceEnd } from "../util/index.js";

/**
 * Why an HTTP exchange with a purple agent failed, in the classes of docs/protocol.md section 11:
 * `refused` and `reset` are the faults of a purple that is (re)starting, retried for a while
 * (retry-window.ts); `unreachable` (no such host, no connection in time) and `protocol` (a redirect, an
 * unusable reply) are not.
 */
export type HttpFaultKind = "refused" | "reset" | "unreachable" | "protocol" | "too_large";

/** A failed exchange, with a message written for the purple's author (never a runtime's text alone). */
export class PurpleHttpFault extends EntropicError {
  override readonly name = "PurpleHttpFault";
  constructor(
    readonly kind: HttpFaultKind,
    message: string,
  ) {
    super("purple", message);
  }
}

/** One HTTP reply, read whole. */
export interface HttpReply {
  readonly status: number;
  readonly headers: IncomingHttpHeaders;
  readonly body: Buffer;
}

export interface HttpExchange {
  readonly method: string;
  readonly headers: Record<string, string>;
  readonly body?: string | Uint8Array | null;
  readonly signal?: AbortSignal | null;
  /** The reply body is refused beyond this many bytes (declared or seen), nothing more is read. */
  readonly maxBytes: number;
}

/** Time to open a connection (the call's own AbortSignal bounds everything after). */
const CONNECT_TIMEOUT_MS = 10_000;

/**
 * One connection pool per scheme for every call to purple agents, shared by all assessments of
 * the process. node:http, not undici: undici 6's HTTP/1.1 client asserts `!this.paused` when a
 * peer closes a connection-delimited body while its reader is behind, which throws out of a socket
 * event handler and ends the process (the data fetch met it first, see src/data/fetch.ts). Node's
 * own client has no built-in response timeouts either: every call is bounded by its AbortSignal.
 */
const agents = {
  "http:": new HttpAgent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, scheduling: "lifo" }),
  "https:": new HttpsAgent({ keepAlive: true, maxSockets: Number.POSITIVE_INFINITY, scheduling: "lifo" }),
};

/** Request bodies longer than this (an observation of a large query result) are written piece by piece. */
const STREAMED_BODY_CHARS = 64 * 1024;
const PIECE_CHARS = 32 * 1024;

/**
 * One request to a purple and its whole reply (at most `maxBytes`), redirects not followed: a 3xx
 * is returned like any status, for the caller to refuse. Rejects with a PurpleHttpFault, or with
 * the signal's reason when the call is aborted.
 */
export function exchange(url: URL, call: HttpExchange): Promise<HttpReply> {
  return new Promise<HttpReply>((resolve, reject) => {
    const agent = agents[url.protocol as keyof typeof agents];
    if (!agent) {
      reject(new PurpleHttpFault("unreachable", `${url.href} is not an http(s) URL: the green reaches purple agents over HTTP only`));
      return;
    }
    if (call.signal?.aborted) {
      reject(call.signal.reason);
      return;
    }
    const body = call.body ?? null;
    const headers: Record<string, string> = { ...call.headers };
    if (body !== null) headers["content-length"] = String(typeof body === "string" ? Buffer.byteLength(body) : body.byteLength);
    const send = url.protocol === "https:" ? httpsRequest : httpRequest;
    let settled = false;
    let received = 0;
    let connectTimer: NodeJS.Timeout | undefined;
    const settle = (error: unknown, reply?: HttpReply) => {
      if (settled) return;
      settled = true;
      clearTimeout(connectTimer);
      call.signal?.removeEventListener("abort", onAbort);
      if (reply) resolve(reply);
      else reject(error);
    };
    const request: ClientRequest = send(url, { method: call.method, headers, agent });
    const onAbort = () => {
      settle(call.signal!.reason);
      request.destroy();
    };
    call.signal?.addEventListener("abort", onAbort, { once: true });
    request.on("socket", (socket) => {
      if (!socket.connecting) return;
      connectTimer = setTimeout(() => {
        settle(new PurpleHttpFault("unreachable", `no connection to ${url.host} within ${CONNECT_TIMEOUT_MS / 1000} s`));
        request.destroy();
      }, CONNECT_TIMEOUT_MS);
      socket.once("connect", () => clearTimeout(connectTimer));
    });
    request.on("error", (error) => settle(faultOf(error, url, received, false)));
    request.on("response", (response: IncomingMessage) => {
      const declared = Number(response.headers["content-length"] ?? "NaN");
      if (Number.isFinite(declared) && declared > call.maxBytes) {
        settle(tooLarge(declared, call.maxBytes));
        response.destroy();
        request.destroy();
        return;
      }
      const chunks: Buffer[] = [];
      response.on("data", (chunk: Buffer) => {
        received += chunk.byteLength;
        if (received > call.maxBytes) {
          settle(tooLarge(received, call.maxBytes));
          response.destroy();
          request.destroy();
          return;
        }
        chunks.push(chunk);
      });
      response.on("end", () => {
        settle(undefined, { status: response.statusCode ?? 0, headers: response.headers, body: chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, received) });
      });
      // A reply cut short (the connection closed or reset before its end) is not a reply.
      response.on("error", (error) => settle(faultOf(error, url, received, true)));
      response.on("close", () => {
        if (!response.complete) settle(faultOf(Object.assign(new Error("aborted"), { code: "ECONNRESET" }), url, received, true));
      });
    });
    writeBody(request, body);
  });
}

/** A long body as bytes made as they are sent, not one buffer of its whole size (see STREAMED_BODY_CHARS). */
function writeBody(request: ClientRequest, body: string | Uint8Array | null): void {
  if (body === null || typeof body !== "string" || body.length <= STREAMED_BODY_CHARS) {
    request.end(body ?? undefined);
    return;
  }
  // glibc's malloc keeps the memory of large freed buffers: a run of 300 turns with 1.25 MB bodies
  // left the process 30 MB larger for good when each body went as one buffer.
  let at = 0;
  const writeMore = () => {
    while (at < body.length) {
      const end = pieceEnd(body, at, PIECE_CHARS);
      const piece = Buffer.from(body.slice(at, end));
      at = end;
      if (!request.write(piece)) {
        request.once("drain", writeMore);
        return;
      }
    }
    request.end();
  };
  writeMore();
}

function tooLarge(bytes: number, limit: number): PurpleHttpFault {
  return new PurpleHttpFault("too_large", `the purple agent's reply exceeded ${limit} bytes (at least ${bytes} received)`);
}

/** What a socket-level error means for the purple's author. */
function faultOf(error: unknown, url: URL, received: number, answering: boolean): unknown {
  if (error instanceof PurpleHttpFault) return error;
  const code = (error as NodeJS.ErrnoException | undefined)?.code;
  const where = `${url.hostname}:${url.port || (url.protocol === "https:" ? 443 : 80)}`;
  switch (code) {
    case "ECONNREFUSED":
      return new PurpleHttpFault("refused", `the purple agent refused the connection (nothing listens on ${where})`);
    case "ECONNRESET":
    case "EPIPE":
      return new PurpleHttpFault(
        "reset",
        answering || received > 0
          ? `the purple agent closed the connection before its reply was complete (after ${received} bytes)`
          : "the purple agent closed the connection without answering",
      );
    case "ENOTFOUND":
    case "EAI_AGAIN":
      return new PurpleHttpFault("unreachable", `the purple agent's host ${url.hostname} does not resolve (${code})`);
    case "EHOSTUNREACH":
    case "ENETUNREACH":
    case "ETIMEDOUT":
      return new PurpleHttpFault("unreachable", `the purple agent's host ${where} cannot be reached (${code})`);
    case "HPE_HEADER_OVERFLOW":
      // The purple answered, with headers past Node's limit (16 KB): its reply is at fault, not the network.
      return new PurpleHttpFault("protocol", "the purple agent's HTTP reply headers are larger than 16 KB (HPE_HEADER_OVERFLOW): the reply could not be read");
    default:
      if (typeof code === "string" && code.startsWith("HPE_"))
        return new PurpleHttpFault("protocol", `the purple agent's HTTP reply is malformed (${code}: ${(error as Error).message}): the reply could not be read`);
      if (code === "ERR_TLS_CERT_ALTNAME_INVALID" || /certificate|ssl|tls/i.test(String((error as Error | undefined)?.message)))
        return new PurpleHttpFault("unreachable", `no TLS connection to ${where}: ${(error as Error).message}`);
      if ((error as Error | undefined)?.name === "AbortError") return error;
      return new PurpleHttpFault("reset", `the connection to the purple agent at ${where} failed (${code ?? (error as Error | undefined)?.message ?? "unknown error"})`);
  }
}
