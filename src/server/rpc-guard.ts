import { A2A_VERSION_HEADER } from "@a2a-js/sdk";
import { isLegacyJsonRpcMethod, isV1JsonRpcMethod } from "@a2a-js/sdk/compat/v0_3";
import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "pino";
import { z } from "zod";
import { firstIssue } from "../util/index.js";
import { REQUEST_LIMITS } from "./limits.js";

/** A metadata object: any values, at most REQUEST_LIMITS.metadataEntries of them. */
const metadata = () =>
  z
    .record(z.string(), z.unknown(), { error: "must be an object" })
    .refine((value) => Object.keys(value).length <= REQUEST_LIMITS.metadataEntries, {
      error: (issue) => `holds ${Object.keys(issue.input as object).length} entries; at most ${REQUEST_LIMITS.metadataEntries} are accepted`,
    })
    .nullable()
    .optional();

/** A message's parts: at least one, at most REQUEST_LIMITS.parts. */
const parts = (part: z.ZodType) =>
  z
    .array(part, { error: "must be a list of parts" })
    .min(1, { error: "must hold at least one part" })
    .max(REQUEST_LIMITS.parts, { error: (issue) => `holds ${(issue.input as unknown[]).length} parts; at most ${REQUEST_LIMITS.parts} are accepted` });

/** A part of an A2A 0.3 message, as far as this server reads it. */
const PartSchema03 = z.discriminatedUnion(
  "kind",
  [
    z.looseObject({ kind: z.literal("text"), text: z.string({ error: "a text part needs a string 'text'" }), metadata: metadata() }),
    z.looseObject({ kind: z.literal("data"), data: z.record(z.string(), z.unknown(), { error: "a data part needs an object 'data'" }), metadata: metadata() }),
    z.looseObject({ kind: z.literal("file"), file: z.looseObject({}, { error: "a file part needs an object 'file'" }), metadata: metadata() }),
  ],
  { error: (issue) => `each part must be an object with kind text, data or file (got ${JSON.stringify((issue.input as { kind?: unknown } | undefined)?.kind ?? issue.input)})` },
);

const CONTENT_FIELDS_10 = ["text", "data", "url", "raw"] as const;

/** A part of an A2A 1.0 message: exactly one of text, data, url or raw (a 0.3 `kind` beside it is ignored, as the SDK ignores it). */
const PartSchema10 = z
  .looseObject(
    {
      text: z.string({ error: "a text part's 'text' must be a string" }).optional(),
      url: z.string({ error: "a url part's 'url' must be a string" }).optional(),
      raw: z.string({ error: "a raw part's 'raw' must be base64 text" }).optional(),
      mediaType: z.string({ error: "must be a string" }).optional(),
      filename: z.string({ error: "must be a string" }).optional(),
      metadata: metadata(),
    },
    { error: "each part must be an object holding one of text, data, url or raw" },
  )
  .refine((part) => CONTENT_FIELDS_10.filter((field) => (part as Record<string, unknown>)[field] !== undefined).length === 1, {
    error: (issue) => {
      const held = CONTENT_FIELDS_10.filter((field) => (issue.input as Record<string, unknown>)[field] !== undefined);
      return `each part must hold exactly one of text, data, url or raw (got ${held.length === 0 ? "none" : held.join(" and ")})`;
    },
  });

const messageFields = {
  messageId: z.string({ error: "must be a string" }).min(1, { error: "must not be empty" }),
  contextId: z.string({ error: "must be a string" }).optional(),
  taskId: z.string({ error: "must be a string" }).optional(),
  metadata: metadata(),
};

const MessageParamsSchema03 = z.looseObject({
  message: z.looseObject(
    {
      kind: z.literal("message", { error: 'must be "message"' }).optional(),
      role: z.enum(["user", "agent"], { error: 'must be "user" or "agent"' }),
      parts: parts(PartSchema03),
      ...messageFields,
    },
    { error: "must be an A2A message object" },
  ),
  configuration: z.looseObject({}, { error: "must be an object" }).optional(),
  metadata: metadata(),
});

const MessageParamsSchema10 = z.looseObject({
  message: z.looseObject(
    {
      role: z.enum(["ROLE_USER", "ROLE_AGENT"], { error: 'must be "ROLE_USER" or "ROLE_AGENT" (A2A 1.0\'s names; "user" and "agent" are 0.3\'s)' }),
      parts: parts(PartSchema10),
      ...messageFields,
    },
    { error: "must be an A2A message object" },
  ),
  configuration: z.looseObject({}, { error: "must be an object" }).optional(),
  metadata: metadata(),
});

const TaskIdParamsSchema = z.looseObject({ id: z.string({ error: "must be a task id string" }).min(1, { error: "must not be empty" }) });

/** The params each method's call is checked against, by the protocol version the method belongs to. */
const PARAMS: Record<string, z.ZodType> = {
  "message/send": MessageParamsSchema03,
  "message/stream": MessageParamsSchema03,
  "tasks/get": TaskIdParamsSchema,
  "tasks/cancel": TaskIdParamsSchema,
  "tasks/resubscribe": TaskIdParamsSchema,
  SendMessage: MessageParamsSchema10,
  SendStreamingMessage: MessageParamsSchema10,
  GetTask: TaskIdParamsSchema,
  CancelTask: TaskIdParamsSchema,
  SubscribeToTask: TaskIdParamsSchema,
};

function rpcError(id: unknown, code: number, message: string) {
  return { jsonrpc: "2.0", id: typeof id === "string" || typeof id === "number" ? id : null, error: { code, message } };
}

/** "1.0" for "1.0" or "1.0.2", "0.3" for "0.3" or "0.3.0"; any other value as it is (the SDK refuses it, naming it). */
function normalizedVersion(header: string): string {
  const match = /^\s*(\d+)\.(\d+)(?:\.\d+)?\s*$/.exec(header);
  return match ? `${Number(match[1])}.${Number(match[2])}` : header;
}

/**
 * Routes a JSON-RPC call to the A2A version it is written in, then checks its params before the
 * A2A SDK sees them. The SDK's handler routes by the `A2A-Version` header alone (none means 0.3);
 * the method names of 0.3 (`message/send`, `tasks/get`, ...) and 1.0 (`SendMessage`, `GetTask`, ...)
 * are disjoint, so a call without the header goes to the version its method belongs to, a header
 * with a patch number (`0.3.0`) counts as its version, a header that contradicts the method is
 * answered with what to change, and a version the green does not speak with -32009, as the SDK would. A malformed call gets "Invalid params" naming the field (the SDK
 * would fail later with an internal TypeError, or a translation error whose text says less). A 0.3
 * `message/send` whose configuration omits `blocking` is blocking, as A2A 0.3 servers (a2a-js
 * 0.3, a2a-python) treat it; the SDK's 0.3 layer would return at once.
 */
export const rpcGuard: RequestHandler = (req, res, next) => {
  const body = req.body as { method?: unknown; params?: unknown; id?: unknown } | undefined;
  if (req.method !== "POST" || typeof body !== "object" || body === null || Array.isArray(body)) return next();
  const method = body.method;
  const family = isV1JsonRpcMethod(method) ? "1.0" : isLegacyJsonRpcMethod(method) ? "0.3" : undefined;
  const header = req.header(A2A_VERSION_HEADER);
  const requested = header === undefined || header.trim() === "" ? undefined : normalizedVersion(header);
  // Answered here rather than by the SDK, which would also print the error to stderr, past the logger.
  if (requested !== undefined && requested !== "0.3" && requested !== "1.0") {
    res.status(200).json(rpcError(body.id, -32009, `The requested A2A protocol version '${header}' is not supported. Supported versions: 1.0, 0.3`));
    return;
  }
  if (family && requested !== undefined && requested !== family) {
    const sibling = family === "1.0" ? "without the A2A-Version header (or with A2A-Version: 0.3)" : "with the A2A-Version: 1.0 header";
    res
      .status(200)
      .json(rpcError(body.id, -32601, `Method not found: ${String(method)} is an A2A ${family} method, but the A2A-Version header says ${requested}; send it ${sibling}`));
    return;
  }
  const version = requested ?? family;
  if (version) req.headers[A2A_VERSION_HEADER.toLowerCase()] = version;
  const schema = typeof method === "string" ? PARAMS[method] : undefined;
  if (!schema) return next();
  const parsed = schema.safeParse(body.params);
  if (!parsed.success) {
    const issue = firstIssue(parsed.error);
    const field = issue.path ? `params.${issue.path}` : "params";
    res.status(200).json(rpcError(body.id, -32602, `Invalid params: ${field} ${issue.message}`));
    return;
  }
  const configuration = (body.params as { configuration?: { blocking?: unknown } }).configuration;
  if (method === "message/send" && configuration && configuration.blocking === undefined) configuration.blocking = true;
  next();
};

/**
 * The last resort: an error that escaped everything else is answered as a JSON-RPC internal
 * error without its text (logged for the operator), never an HTML page or a stack.
 */
export function internalErrors(logger: Logger): ErrorRequestHandler {
  return (error: unknown, req, res, next) => {
    if (res.headersSent) return next(error);
    logger.error({ err: error, path: req.path }, "request failed");
    const id = (req.body as { id?: unknown } | undefined)?.id;
    res.status(500).json(rpcError(id, -32603, "Internal error: the request could not be handled; the server logged why"));
  };
}
