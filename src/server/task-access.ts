import { createHmac, randomBytes, timingSafeEqual } from "node:crypto";
import type { RequestHandler } from "express";

/** The HTTP header a client names a task's token in (or `params.metadata.task_token`). */
export const TASK_TOKEN_HEADER = "X-Entropic-Task-Token";
/** The key of the token in the task's metadata, and in a call's `params.metadata`. */
export const TASK_TOKEN_KEY = "task_token";

/** Methods that read, cancel or follow one task, by the field of the params that names it. */
const TASK_METHODS: Record<string, "id" | "message.taskId"> = {
  "tasks/get": "id",
  "tasks/cancel": "id",
  "tasks/resubscribe": "id",
  GetTask: "id",
  CancelTask: "id",
  SubscribeToTask: "id",
  // A message naming a task continues it (the SDK appends it to the task and runs the executor on it).
  "message/send": "message.taskId",
  "message/stream": "message.taskId",
  SendMessage: "message.taskId",
  SendStreamingMessage: "message.taskId",
};

/**
 * Tasks are private to the client that created them. The green has no users, so a task's
 * creator is whoever holds its token: an HMAC of the task's id under a secret this process made
 * at start (tasks live in its memory only, so nothing outlives it), handed to the creator in the
 * task's metadata (`task_token`) with the first event of its send or stream. Reading, canceling,
 * resubscribing to or continuing a task needs the token (the header X-Entropic-Task-Token, or
 * `params.metadata.task_token`, or for a message its `metadata.task_token`); without it the task is "not found", as one that does not exist.
 * ListTasks, which would hand every task's id to anyone, is not offered. Task ids are the SDK's
 * random UUIDs; the token rests on the secret, not on an id staying unseen.
 */
export class TaskAccess {
  private readonly secret = randomBytes(32);

  /** The token of a task. */
  tokenFor(taskId: string): string {
    return createHmac("sha256", this.secret).update(`task:${taskId}`).digest("base64url");
  }

  /** Does `token` open the task `taskId`? */
  opens(taskId: string, token: unknown): boolean {
    if (typeof token !== "string") return false;
    const expected = Buffer.from(this.tokenFor(taskId));
    const given = Buffer.from(token);
    return given.length === expected.length && timingSafeEqual(given, expected);
  }

  /**
   * The guard of the JSON-RPC endpoint, after the params are checked (rpc-guard.ts): a call on a
   * task without its token is answered "task not found"; ListTasks is answered as unsupported.
   */
  readonly guard: RequestHandler = (req, res, next) => {
    const body = req.body as { method?: unknown; params?: unknown; id?: unknown } | undefined;
    if (req.method !== "POST" || typeof body !== "object" || body === null) return next();
    const id = typeof body.id === "string" || typeof body.id === "number" ? body.id : null;
    if (body.method === "ListTasks") {
      res.status(200).json({
        jsonrpc: "2.0",
        id,
        error: { code: -32004, message: "ListTasks is not offered: tasks are private to the client that created them; read yours with GetTask, its id and its task_token" },
      });
      return;
    }
    const field = typeof body.method === "string" ? TASK_METHODS[body.method] : undefined;
    if (!field) return next();
    const params = (body.params ?? {}) as { id?: unknown; message?: { taskId?: unknown; metadata?: Record<string, unknown> | null }; metadata?: Record<string, unknown> | null };
    const taskId = field === "id" ? params.id : params.message?.taskId;
    // A message without a task id starts a task of its own.
    if (typeof taskId !== "string" || taskId === "") return next();
    const token = req.header(TASK_TOKEN_HEADER) ?? params.metadata?.[TASK_TOKEN_KEY] ?? params.message?.metadata?.[TASK_TOKEN_KEY];
    if (this.opens(taskId, token)) return next();
    res.status(200).json({
      jsonrpc: "2.0",
      id,
      error: {
        code: -32001,
        message: `Task not found: ${taskId} (a task is read, canceled, resubscribed to or continued with the task_token its creator received in the task's metadata, sent as the ${TASK_TOKEN_HEADER} header or params.metadata.task_token)`,
      },
    });
  };
}
