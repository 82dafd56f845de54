import { STATUS_CODES } from "node:http";
import { Readable } from "node:stream";
import { setImmediate } from "node:timers/promises";
import { Agent, request, fetch as undiciFetch } from "undici";
import { pieceEnd } from "../util/index.js";

/** One connection pool for every call to purple agents, shared by all assessments of the process. */
let sharedDispatcher: Agent | undefined;

/**
 * No built-in header and body timeouts (undici's are 300 s, and a purple agent may legitimately
 * think for 300 s): callers bound every call with an AbortSignal instead.
 */
function dispatcher(): Agent {
  sharedDispatcher ??= new Agent({ headersTimeout: 0, bodyTimeout: 0, connect: { timeout: 10_000 } });
  return sharedDispatcher;
}

/**
 * Bytes of the HTTP reply bodies read for each call, by the call's AbortSignal (the only thing
 * of a call the transport passes through): what a turn cost on the wire, without serialising
 * the parsed reply again to measure it.
 */
export const replyBytes = new WeakMap<AbortSignal, number>();

/**
 * The fetch the A2A JSON-RPC transport calls for every turn, on undici's `request` rather than its
 * `fetch`: the WHATWG fetch machinery (Request objects, web streams, the fetch algorithm's steps)
 * cost the green about 0.5 ms of its event loop per call, `request` about a quarter of that, which
 * is what lets one process drive 256 episodes at once. The reply is read whole (at most `maxBytes`,
 * else a clear error instead of filling memory) and handed back as a standard Response. Redirects
 * are not followed: a JSON-RPC endpoint answers where it is called. Only string or URL targets with
 * a string or byte body, which is all the transport sends.
 */
export function createPurpleFetch(maxBytes: number): typeof fetch {
  const rpcFetch = async (input: RequestInfo | URL, init: RequestInit = {}): Promise<Response> => {
    if (typeof input !== "string" && !(input instanceof URL)) throw new TypeError("the purple fetch takes a URL, not a Request");
    const body = init.body;
    if (body !== undefined && body !== null && typeof body !== "string" && !(body instanceof Uint8Array)) throw new TypeError("the purple fetch sends a string or bytes");
    const streamed = typeof body === "string" && body.length > STREAMED_BODY_CHARS;
    const response = await request(input, {
      method: (init.method ?? "GET") as "GET",
      headers: streamed ? { ...plainHeaders(init.headers), "content-length": String(Buffer.byteLength(body)) } : plainHeaders(init.headers),
      body: streamed ? inPieces(body) : (body ?? null),
      signal: init.signal ?? undefined,
      dispatcher: dispatcher(),
    });
    const bytes = await readCapped(response.body, Number(headerValue(response.headers["content-length"]) ?? "NaN"), maxBytes);
    if (init.signal) replyBytes.set(init.signal, (replyBytes.get(init.signal) ?? 0) + bytes.byteLength);
    // undici frees the connection for the next request in the check phase after the reply ends:
    // a request sent before that opens a new connection (400 instead of 256 at concurrency 256).
    await setImmediate();
    return toResponse(response.statusCode, response.headers, bytes);
  };
  return rpcFetch as typeof fetch;
}

/**
 * The fetch for agent cards (one per assessment): undici's full fetch, which follows redirects,
 * with the same cap on the body.
 */
export function createCardFetch(maxBytes: number): typeof fetch {
  const capped = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const response = (await undiciFetch(input as never, { ...(init as object), dispatcher: dispatcher() } as never)) as unknown as Response;
    const declared = Number(response.headers.get("content-length") ?? "NaN");
    if (Number.isFinite(declared) && declared > maxBytes) {
      await response.body?.cancel();
      throw new ReplyTooLargeError(declared, maxBytes);
    }
    if (!response.body) return response;
    let seen = 0;
    const limiter = new TransformStream<Uint8Array, Uint8Array>({
      transform(chunk, controller) {
        seen += chunk.byteLength;
        if (seen > maxBytes) controller.error(new ReplyTooLargeError(seen, maxBytes));
        else controller.enqueue(chunk);
      },
    });
    return new Response(response.body.pipeThrough(limiter), { status: response.status, statusText: response.statusText, headers: response.headers });
  };
  return capped as typeof fetch;
}

/** Request bodies longer than this (an observation of a large query result) are sent piece by piece. */
const STREAMED_BODY_CHARS = 64 * 1024;
const PIECE_CHARS = 32 * 1024;

/**
 * A long body as bytes made as they are sent, not one buffer of its whole size: glibc's malloc
 * keeps such buffers' memory after they are freed (a run of 300 turns with 1.25 MB bodies left the
 * process 30 MB larger for good). With its content-length given, it still goes as one plain body.
 */
function inPieces(body: string): Readable {
  return Readable.from(
    (function* () {
      for (let at = 0, end = 0; at < body.length; at = end) {
        end = pieceEnd(body, at, PIECE_CHARS);
        yield Buffer.from(body.slice(at, end));
      }
    })(),
  );
}

/** The whole body, refused as soon as it is declared or seen to exceed the cap (nothing more is read). */
async function readCapped(body: Readable, declared: number, maxBytes: number): Promise<Buffer> {
  // Destroying undici's body emits an abort error; nobody else listens for it.
  const discard = () => {
    body.on("error", () => undefined);
    body.destroy();
  };
  if (Number.isFinite(declared) && declared > maxBytes) {
    discard();
    throw new ReplyTooLargeError(declared, maxBytes);
  }
  const chunks: Buffer[] = [];
  let seen = 0;
  for await (const chunk of body) {
    seen += chunk.byteLength;
    if (seen > maxBytes) {
      discard();
      throw new ReplyTooLargeError(seen, maxBytes);
    }
    chunks.push(chunk);
  }
  return chunks.length === 1 ? chunks[0]! : Buffer.concat(chunks, seen);
}

/** Statuses whose Response must have no body. */
const NULL_BODY = new Set([101, 204, 205, 304]);

function toResponse(status: number, headers: Record<string, string | string[] | undefined>, bytes: Buffer): Response {
  // The Response constructor takes 200-599 only; anything else from a purple is a protocol fault.
  if (status < 200 || status > 599) throw new Error(`the purple agent answered with HTTP status ${status}`);
  const responseHeaders = new Headers();
  for (const [name, value] of Object.entries(headers)) {
    if (value === undefined) continue;
    for (const item of Array.isArray(value) ? value : [value]) responseHeaders.append(name, item);
  }
  return new Response(NULL_BODY.has(status) ? null : (bytes as Uint8Array<ArrayBuffer>), { status, statusText: STATUS_CODES[status] ?? "", headers: responseHeaders });
}

function plainHeaders(headers: HeadersInit | undefined): Record<string, string> {
  if (headers === undefined) return {};
  if (headers instanceof Headers || Array.isArray(headers)) return Object.fromEntries(headers as Iterable<[string, string]>);
  return headers as Record<string, string>;
}

function headerValue(value: string | string[] | undefined): string | undefined {
  return Array.isArray(value) ? value[0] : value;
}

export class ReplyTooLargeError extends Error {
  override readonly name = "ReplyTooLargeError";
  constructor(bytes: number, limit: number) {
    super(`the purple agent's reply exceeded ${limit} bytes (at least ${bytes} received)`);
  }
}
