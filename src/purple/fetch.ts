import { Agent, fetch as undiciFetch } from "undici";

/** One connection pool for every call to purple agents, shared by all assessments of the process. */
let sharedDispatcher: Agent | undefined;

/**
 * A fetch without undici's built-in 300 s header and body timeouts (a purple agent may
 * legitimately think for 300 s); callers bound every call with an AbortSignal instead.
 * Replies larger than `maxBytes` are cut off with a clear error instead of filling memory.
 */
export function createPurpleFetch(maxBytes: number): typeof fetch {
  sharedDispatcher ??= new Agent({ headersTimeout: 0, bodyTimeout: 0, connect: { timeout: 10_000 } });
  const dispatcher = sharedDispatcher;
  const capped = async (input: RequestInfo | URL, init?: RequestInit): Promise<Response> => {
    const response = (await undiciFetch(input as never, { ...(init as object), dispatcher } as never)) as unknown as Response;
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

export class ReplyTooLargeError extends Error {
  override readonly name = "ReplyTooLargeError";
  constructor(bytes: number, limit: number) {
    super(`the purple agent's reply exceeded ${limit} bytes (at least ${bytes} received)`);
  }
}
