import { randomBytes } from "node:crypto";
import type { IncomingMessage } from "node:http";
import express, { type ErrorRequestHandler, type Request, type Response } from "express";
import type { Logger } from "pino";
import type { ChannelDoor, ChannelEpisode, ToolChannel } from "../assessment/index.js";
import { scanJson } from "../util/index.js";
import { serveEpisodeRequest } from "./episode-server.js";

/**
 * The bounds of the MCP endpoint (docs/protocol.md, section 18): a tool call is a query of a few
 * kilobytes, and every request is answered at once (JSON, no streams), so a client holds nothing open.
 */
export const MCP_LIMITS = {
  /** Bytes of a request body. */
  bodyBytes: 256_000,
  /** Arrays and objects nested in a body. */
  jsonDepth: 32,
  /** Array elements and object members in a body. */
  jsonItems: 2_000,
  /** Requests of one episode being answered at once; more get HTTP 429 before any work. */
  requestsPerEpisode: 8,
  /** Requests being answered at once, every episode together (a memory bound, far above what honest episodes use); more get HTTP 503. */
  requestsInFlight: 4096,
  /** Ended episodes whose tokens are still recognised as ended (older ones are only unknown). */
  endedTokensKept: 20_000,
} as const;

/** The JSON-RPC error code of a request whose token opens no episode (ended, or never given). */
export const NO_EPISODE = -32001;

/** Bytes of randomness in a token: 192 bits, drawn from the system's cryptographic source, never from the seed. */
const TOKEN_BYTES = 24;
/** Tokens' worth of bytes drawn at once: one call to the source per 256 episodes instead of one each (1.7% of a run's CPU). */
const TOKENS_PER_DRAW = 256;

/** Fresh tokens from the cryptographic source, drawn in batches; each byte goes into one token only. */
class TokenSource {
  private pool = Buffer.alloc(0);
  private at = 0;

  next(): string {
    if (this.at + TOKEN_BYTES > this.pool.length) {
      this.pool = randomBytes(TOKEN_BYTES * TOKENS_PER_DRAW);
      this.at = 0;
    }
    const token = this.pool.toString("base64url", this.at, this.at + TOKEN_BYTES);
    // Spent bytes are overwritten, so the pool never holds a token that was handed out.
    this.pool.fill(0, this.at, this.at + TOKEN_BYTES);
    this.at += TOKEN_BYTES;
    return token;
  }
}

/**
 * The green's MCP endpoint: one door per open episode, reached with its capability token at
 * `<card URL>mcp/<token>` (or at `<card URL>mcp` with `Authorization: Bearer <token>`). The token
 * is 192 random bits: the purple has read this code, so nothing about it follows from the seed,
 * the task or the time. It opens only its own episode's view, while the episode is open.
 */
export class McpHub implements ToolChannel {
  private readonly episodes = new Map<string, ChannelEpisode>();
  /** Tokens of ended episodes, oldest first, so that a late call is told its episode ended. */
  private readonly ended = new Map<string, true>();
  private inFlight = 0;
  private readonly perEpisode = new Map<ChannelEpisode, number>();
  /** Refusals not yet logged: one line a second at most, however many come. */
  private unlogged: { count: number; last: string } | undefined;
  private stopped = false;
  /** Where the doors are: a door's URL is this and its token (base64url, which a URL keeps as it is). */
  private readonly doors: string;
  private readonly tokens = new TokenSource();

  constructor(
    cardUrl: string,
    private readonly logger: Logger,
    private readonly version: string,
  ) {
    // The endpoint sits beside the A2A endpoint, under the card URL's path (a gateway's prefix kept).
    this.doors = new URL("mcp/", cardUrl.endsWith("/") ? cardUrl : `${cardUrl}/`).href;
  }

  open(episode: ChannelEpisode): ChannelDoor {
    const token = this.tokens.next();
    if (!this.stopped) this.episodes.set(token, episode);
    return {
      access: { url: this.doors + token, token },
      close: () => {
        if (!this.episodes.delete(token)) return;
        this.ended.set(token, true);
        if (this.ended.size > MCP_LIMITS.endedTokensKept) this.ended.delete(this.ended.keys().next().value!);
      },
    };
  }

  /** Episodes whose doors are open. */
  get openEpisodes(): number {
    return this.episodes.size;
  }

  /** Every door closes (a shutdown): calls from now on are refused. */
  close(): void {
    this.stopped = true;
    for (const token of this.episodes.keys()) this.ended.set(token, true);
    this.episodes.clear();
  }

  /** The express router, to be mounted at `/mcp` before any other body parser. */
  router(): express.Router {
    const router = express.Router();
    router.use(express.json({ limit: MCP_LIMITS.bodyBytes, verify: checkBounds }));
    router.use(bodyErrors);
    router.post(["/", "/:token"], (req, res) => {
      void this.handle(req, res);
    });
    // Stateless: no stream to open (GET) and no session to end (DELETE).
    router.all(["/", "/:token"], (_req, res) => {
      res
        .status(405)
        .set("Allow", "POST")
        .json(rpcError(null, -32000, "Method not allowed: this MCP endpoint is stateless and answers POST only (no SSE stream, no session)"));
    });
    return router;
  }

  private async handle(req: Request, res: Response): Promise<void> {
    const token = tokenOf(req);
    const id = requestId(req.body);
    const episode = token === undefined ? undefined : this.episodes.get(token);
    if (!episode) {
      const why =
        token === undefined
          ? "no MCP token: use the URL in the episode's first message (crm_task.mcp.url), or send its token as Authorization: Bearer <token>"
          : this.ended.has(token) || this.stopped
            ? "this MCP token's episode has ended: a token opens its own episode's org only while the episode is open"
            : "no open episode has this MCP token: each episode's token is in its first message (crm_task.mcp.token), valid for that episode only";
      this.logRefusal(why);
      res.status(404).json(rpcError(id, NO_EPISODE, why));
      return;
    }
    const mine = this.perEpisode.get(episode) ?? 0;
    if (mine >= MCP_LIMITS.requestsPerEpisode) {
      res
        .status(429)
        .set("Retry-After", "1")
        .json(rpcError(id, -32000, `this episode has ${MCP_LIMITS.requestsPerEpisode} MCP requests being answered already; wait for one`));
      return;
    }
    if (this.inFlight >= MCP_LIMITS.requestsInFlight) {
      res
        .status(503)
        .set("Retry-After", "1")
        .json(rpcError(id, -32000, `the MCP endpoint is answering ${MCP_LIMITS.requestsInFlight} requests already; try again in a second`));
      return;
    }
    this.inFlight++;
    this.perEpisode.set(episode, mine + 1);
    try {
      await serveEpisodeRequest(episode, req, res, { version: this.version, bytes: (req as BodyBytes).mcpBytes ?? 0 });
    } catch (error) {
      this.logger.error({ err: error, task: episode.label }, "MCP request failed");
      if (!res.headersSent) res.status(500).json(rpcError(id, -32603, "Internal error: the MCP request failed"));
    } finally {
      this.inFlight--;
      const left = (this.perEpisode.get(episode) ?? 1) - 1;
      if (left > 0) this.perEpisode.set(episode, left);
      else this.perEpisode.delete(episode);
    }
  }

  /** A refused token in the green's log: the first at once, a flood as one line a second with its count. */
  private logRefusal(reason: string): void {
    if (this.unlogged) {
      this.unlogged.count++;
      this.unlogged.last = reason;
      return;
    }
    this.logger.warn({ reason }, "MCP request refused");
    this.unlogged = { count: 0, last: reason };
    setTimeout(() => {
      const held = this.unlogged;
      this.unlogged = undefined;
      if (held && held.count > 0) this.logger.warn({ reason: held.last, more: held.count }, "MCP requests refused");
    }, 1_000).unref();
  }
}

type BodyBytes = IncomingMessage & { mcpBytes?: number };

/** The token of a request: the URL's last segment, else a Bearer token. */
function tokenOf(req: Request): string | undefined {
  const fromPath = req.params.token;
  if (typeof fromPath === "string" && fromPath) return fromPath;
  const header = req.headers.authorization;
  const bearer = header ? /^Bearer\s+(\S+)$/i.exec(header) : null;
  return bearer?.[1];
}

/** The JSON-RPC id of a single request, for its error; null for a batch or no request. */
function requestId(body: unknown): string | number | null {
  if (typeof body !== "object" || body === null || Array.isArray(body)) return null;
  const id = (body as { id?: unknown }).id;
  return typeof id === "string" || typeof id === "number" ? id : null;
}

function rpcError(id: string | number | null, code: number, message: string) {
  return { jsonrpc: "2.0", id, error: { code, message } };
}

const OUT_OF_BOUNDS = "entity.out.of.bounds";

/** Scans the body's bytes before they are parsed: a body nested or numbered past the limits is refused unparsed. */
function checkBounds(req: BodyBytes, _res: unknown, body: Buffer): void {
  req.mcpBytes = body.length;
  const shape = scanJson(body, { maxDepth: MCP_LIMITS.jsonDepth, maxItems: MCP_LIMITS.jsonItems });
  if (!shape.ok) throw Object.assign(new Error(`the body is refused: ${shape.reason}`), { type: OUT_OF_BOUNDS, status: 400 });
}

const bodyErrors: ErrorRequestHandler = (error: { type?: string; message?: string }, _req, res, next) => {
  if (res.headersSent) return next(error);
  const tooLarge = error.type === "entity.too.large";
  const message = tooLarge
    ? `Invalid Request: the body is larger than ${MCP_LIMITS.bodyBytes} bytes`
    : error.type === OUT_OF_BOUNDS
      ? `Invalid Request: ${error.message}`
      : `Parse error: the body is not valid JSON (${error.message ?? "unreadable"})`;
  res.status(tooLarge ? 413 : 400).json(rpcError(null, tooLarge || error.type === OUT_OF_BOUNDS ? -32600 : -32700, message));
};
