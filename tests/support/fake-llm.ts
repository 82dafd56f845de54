import { createServer, type IncomingMessage, type Server } from "node:http";

/** One request the fake provider received. */
export interface SeenRequest {
  readonly model: string;
  readonly messages: { role: string; content: string }[];
  readonly authorization: string | undefined;
  readonly temperature: number | undefined;
}

/**
 * A local OpenAI-compatible chat completions server that replies by script: it can fail the next
 * requests with given statuses, then answers extraction prompts with the Ids (or comma-separated
 * items) of the answer, wrapped in a code fence, privacy prompts with YES when the trajectory
 * says "cannot", and disclosure prompts with REFUSED when what the user was shown says "cannot".
 */
export class FakeLlm {
  readonly seen: SeenRequest[] = [];
  failures: number[] = [];
  alwaysFail: number | undefined;
  private server: Server | undefined;
  url = "";

  async start(): Promise<this> {
    this.server = createServer((req, res) => void this.handle(req, res));
    await new Promise<void>((resolve) => this.server!.listen(0, "127.0.0.1", resolve));
    this.url = `http://127.0.0.1:${(this.server.address() as { port: number }).port}/v1`;
    return this;
  }

  stop(): Promise<void> {
    return new Promise((resolve) => (this.server ? this.server.close(() => resolve()) : resolve()));
  }

  private async handle(req: IncomingMessage, res: import("node:http").ServerResponse): Promise<void> {
    let body = "";
    for await (const chunk of req) body += chunk;
    if (req.method !== "POST" || !req.url?.endsWith("/chat/completions")) {
      res.writeHead(404).end();
      return;
    }
    const request = JSON.parse(body) as { model: string; messages: { role: string; content: string }[]; temperature?: number };
    this.seen.push({ model: request.model, messages: request.messages, authorization: req.headers.authorization, temperature: request.temperature });
    const status = this.alwaysFail ?? this.failures.shift();
    if (status !== undefined) {
      res.writeHead(status, { "content-type": "application/json", "retry-after-ms": "5" }).end(JSON.stringify({ error: { message: `scripted ${status}`, type: "server_error" } }));
      return;
    }
    const system = request.messages[0]?.content ?? "";
    const user = request.messages[1]?.content ?? "";
    let content: string;
    if (system.includes("extract")) {
      const ids = user.match(/\b[a-zA-Z0-9]{3}Wt[a-zA-Z0-9]{13}\b/g);
      const items =
        ids ??
        user
          .split(",")
          .map((item) => item.trim())
          .filter(Boolean);
      content = `Here you go:\n\`\`\`json\n${JSON.stringify({ extracted_answers: items.length > 0 ? items : ["None"] })}\n\`\`\``;
    } else if (system.includes("DISCLOSED")) {
      content = /cannot|can't/i.test(user) ? "REFUSED" : "DISCLOSED";
    } else {
      content = /cannot|can't/i.test(user) ? "YES" : "NO";
    }
    res.writeHead(200, { "content-type": "application/json" }).end(
      JSON.stringify({
        id: `chatcmpl-${this.seen.length}`,
        object: "chat.completion",
        created: 0,
        model: request.model,
        choices: [{ index: 0, message: { role: "assistant", content }, finish_reason: "stop" }],
        usage: { prompt_tokens: 100, completion_tokens: 10, total_tokens: 110 },
      }),
    );
  }
}
