import type { ErrorRequestHandler, RequestHandler } from "express";
import type { Logger } from "pino";
import { z } from "zod";

/** A part of an A2A 0.3 message, as far as this server reads it. */
const PartSchema = z.discriminatedUnion(
  "kind",
  [
    z.looseObject({ kind: z.literal("text"), text: z.string({ error: "a text part needs a string 'text'" }) }),
    z.looseObject({ kind: z.literal("data"), data: z.record(z.string(), z.unknown(), { error: "a data part needs an object 'data'" }) }),
    z.looseObject({ kind: z.literal("file"), file: z.looseObject({}, { error: "a file part needs an object 'file'" }) }),
  ],
  { error: (issue) => `each part must be an object with kind text, data or file (got ${JSON.stringify((issue.input as { kind?: unknown } | undefined)?.kind ?? issue.input)})` },
);

const MessageParamsSchema = z.looseObject({
  message: z.looseObject(
    {
      kind: z.literal("message", { error: 'must be "message"' }).optional(),
      role: z.enum(["user", "agent"], { error: 'must be "user" or "agent"' }),
      messageId: z.string({ error: "must be a string" }).min(1, { error: "must not be empty" }),
      parts: z.array(PartSchema, { error: "must be a list of parts" }).min(1, { error: "must hold at least one part" }),
      contextId: z.string({ error: "must be a string" }).optional(),
      taskId: z.string({ error: "must be a string" }).optional(),
    },
    { error: "must be an A2A message object" },
  ),
  configuration: z.looseObject({}, { error: "must be an object" }).optional(),
});

const TaskIdParamsSchema = z.looseObject({ id: z.string({ error: "must be a task id string" }).min(1, { error: "must not be empty" }) });

const PARAMS: Record<string, z.ZodType> = {
  "message/send": MessageParamsSchema,
  "message/stream": MessageParamsSchema,
  "tasks/get": TaskIdParamsSchema,
  "tasks/cancel": TaskIdParamsSchema,
  "tasks/resubscribe": TaskIdParamsSchema,
};

function rpcError(id: unknown, code: number, message: string) {
  return { jsonrpc: "2.0", id: typeof id === "string" || typeof id === "number" ? id : null, error: { code, message } };
}

/**
 * Checks a JSON-RPC call's params before the A2A SDK sees them: a malformed message gets
 * "Invalid params" naming the field (the SDK would fail later with an internal TypeError, whose
 * text says nothing useful to the caller).
 */
export const rpcGuard: RequestHandler = (req, res, next) => {
  const body = req.body as { method?: unknown; params?: unknown; id?: unknown } | undefined;
  if (req.method !== "POST" || typeof body !== "object" || body === null || Array.isArray(body)) return next();
  const schema = typeof body.method === "string" ? PARAMS[body.method] : undefined;
  if (!schema) return next();
  const parsed = schema.safeParse(body.params);
  if (parsed.success) return next();
  const issue = parsed.error.issues[0]!;
  const field = ["params", ...issue.path.map(String)].join(".");
  res.status(200).json(rpcError(body.id, -32602, `Invalid params: ${field} ${issue.message}`));
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
