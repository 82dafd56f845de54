import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";

/** A chat message as it arrives on the wire (OpenAI chat completions). */
export interface WireMessage {
  readonly role: "system" | "user" | "assistant" | "tool";
  readonly content: string | null;
  readonly tool_calls?: { id: string; type: "function"; function: { name: string; arguments: string } }[];
  readonly tool_call_id?: string;
}

export interface WireRequest {
  readonly model: string;
  readonly messages: WireMessage[];
  readonly tools?: { type: "function"; function: { name: string } }[];
  readonly max_tokens?: number;
  readonly temperature?: number;
}

/** What the scripted model says: text, tool calls (raw argument text allowed, to script malformed calls), or both. */
export interface ScriptedReply {
  readonly content?: string;
  readonly toolCalls?: readonly { id?: string; name: string; arguments: string | Record<string, unknown> }[];
}

export interface ScriptedFailure {
  readonly status: number;
  readonly headers?: Record<string, string>;
  readonly body?: unknown;
}

/** Characters of a request's messages: what the fake's context limit measures. */
export function promptChars(request: WireRequest): number {
  return request.messages.reduce((sum, message) => sum + (message.content ?? "").length + (message.tool_calls ?? []).reduce((s, call) => s + call.function.arguments.length, 0), 0);
}

/**
 * A local OpenAI-compatible chat completions server that plays a model by script. Before the
 * script it can fail requests (queued `failures`, or `alwaysFail`), refuse prompts over
 * `maxPromptChars` as a real provider refuses an overflowing context, or stall (`stallMs`).
 * Usage is reported as prompt characters / 4 and 7 completion tokens, and summed in `usage`.
 */
export class FakeChatModel {
  readonly seen: WireRequest[] = [];
  readonly usage = { prompt: 0, completion: 0 };
  failures: ScriptedFailure[] = [];
  alwaysFail: ScriptedFailure | undefined;
  maxPromptChars: number | undefined;
  overflows = 0;
  stallMs = 0;
  private server: Server | undefined;
  url = "";

  constructor(public script: (request: WireRequest) => ScriptedReply) {}

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/v1`;
    return this;
  }

  stop(): Promise<void> {
    this.server?.closeAllConnections();
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: ServerResponse): Promise<void> {
    let body = "";
    for await (const chunk of req) body += chunk;
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404).end();
      return;
    }
    const request = JSON.parse(body) as WireRequest;
    this.seen.push(request);
    if (this.stallMs > 0) await new Promise((resolve) => setTimeout(resolve, this.stallMs));
    if (res.destroyed) return;
    const failure = this.alwaysFail ?? this.failures.shift();
    if (failure) {
      res
        .writeHead(failure.status, { "content-type": "application/json", ...failure.headers })
        .end(JSON.stringify(failure.body ?? { error: { message: `scripted ${failure.status}`, type: "server_error" } }));
      return;
    }
    const chars = promptChars(request);
    if (this.maxPromptChars !== undefined && chars > this.maxPromptChars) {
      this.overflows++;
      res.writeHead(400, { "content-type": "application/json" }).end(
        JSON.stringify({
          error: { message: `Your input exceeds the context window of this model (${chars} characters).`, type: "invalid_request_error", code: "context_length_exceeded" },
        }),
      );
      return;
    }
    let reply: ScriptedReply;
    try {
      reply = this.script(request);
    } catch (error) {
      res.writeHead(500, { "content-type": "application/json" }).end(JSON.stringify({ error: { message: `script error: ${(error as Error).message}` } }));
      return;
    }
    const toolCalls = (reply.toolCalls ?? []).map((call, i) => ({
      id: call.id ?? `call_${this.seen.length}_${i}`,
      type: "function" as const,
      function: { name: call.name, arguments: typeof call.arguments === "string" ? call.arguments : JSON.stringify(call.arguments) },
    }));
    const usage = { prompt_tokens: Math.ceil(chars / 4), completion_tokens: 7, total_tokens: Math.ceil(chars / 4) + 7 };
    this.usage.prompt += usage.prompt_tokens;
    this.usage.completion += usage.completion_tokens;
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id: `chatcmpl-${this.seen.length}`,
        object: "chat.completion",
        created: 0,
        model: request.model,
        choices: [
          {
            index: 0,
            message: { role: "assistant", content: reply.content ?? null, ...(toolCalls.length > 0 ? { tool_calls: toolCalls } : {}) },
            finish_reason: toolCalls.length > 0 ? "tool_calls" : "stop",
          },
        ],
        usage,
      }),
    );
  }
}
