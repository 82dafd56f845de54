import type { Server } from "node:http";
import { AGENT_CARD_PATH, type AgentCard } from "@a2a-js/sdk";
import { duplicateInterfacesForLegacy } from "@a2a-js/sdk/compat/v0_3";
import { AgentEvent, type AgentExecutor, DefaultRequestHandler, type ExecutionEventBus, InMemoryTaskStore, type RequestContext } from "@a2a-js/sdk/server";
import { agentCardHandler, jsonRpcHandler, UserBuilder } from "@a2a-js/sdk/server/express";
import express from "express";
import { respond, soqlQuery } from "../tools/index.js";
import { agentMessage, firstDataPart, textPart } from "./a2a.js";
import { mcpTools, mcpUrlOf, type Tools, toolsOver } from "./mcp-tools.js";
import { type PurpleAction, Session } from "./session.js";

/** The first message of an episode, as a strategy sees it (the green agent's crm_task DataPart). */
export interface TaskInfo {
  readonly taskId: string;
  readonly category: string;
  readonly prompt: string;
  readonly requiredContext: string;
  readonly data: Record<string, unknown>;
}

export type { Tools } from "./mcp-tools.js";

/** A reference purple agent's logic: from the task to a final answer. */
export type Strategy = (task: TaskInfo, tools: Tools) => Promise<string>;

const SESSION_TTL_MS = 10 * 60_000;

function renderAction(action: PurpleAction): string {
  if (action.kind === "answer") return JSON.stringify({ name: respond.name, arguments: { answer: action.answer } });
  // SOQL goes in CRMArena-Pro's own action format, which the green agent reads too.
  if (action.tool === soqlQuery.name) return `<execute>${String(action.args.query)}</execute>`;
  return JSON.stringify({ name: action.tool, arguments: action.args });
}

/**
 * A strategy's replies, one conversation per context, whatever carries them: the reply text to each
 * message of a context (its data part: the green's crm_task first, then observations). The
 * reference purples serve it over A2A below; the interoperability tests serve it through purples
 * written with other A2A SDKs.
 */
export class StrategyResponder {
  private readonly sessions = new Map<string, Session>();
  /** Interactive mode: each answered context's task so far, which the user's next message extends. */
  private readonly answered = new Map<string, { task: TaskInfo; at: number }>();
  /** The task each open context's strategy works on. */
  private readonly working = new Map<string, TaskInfo>();

  constructor(
    private readonly strategy: Strategy,
    /** Query over the episode's MCP endpoint when its first message offers one (the answer stays the A2A reply). */
    private readonly viaMcp = false,
  ) {}

  /** The reply to one message of a context: one action, as text. */
  async reply(contextId: string, data: Record<string, unknown>): Promise<string> {
    this.evictIdle();
    let session = this.sessions.get(contextId);
    const earlier = this.answered.get(contextId);
    if (!session) {
      session = new Session();
      this.sessions.set(contextId, session);
      // A user's reply after an answer (interactive mode): the strategy starts again on the request
      // as the user has told it so far, as an analyst would redo the work with the new criterion.
      const task = data.type === "user_message" && earlier ? { ...earlier.task, prompt: `${earlier.task.prompt}\n${String(data.text ?? "")}` } : taskInfoOf(data);
      this.start(session, contextId, task);
    } else {
      session.deliver(data);
    }
    const action = await session.nextAction();
    if (action.kind === "answer") {
      this.sessions.delete(contextId);
      const task = this.working.get(contextId);
      this.working.delete(contextId);
      if (task) this.answered.set(contextId, { task, at: Date.now() });
    }
    return renderAction(action);
  }

  private start(session: Session, contextId: string, task: TaskInfo): void {
    this.working.set(contextId, task);
    const mcpUrl = this.viaMcp ? mcpUrlOf(task.data) : undefined;
    const solved = mcpUrl
      ? mcpTools(mcpUrl).then(async (over) => {
          try {
            return await this.strategy(task, over.tools);
          } finally {
            await over.close();
          }
        })
      : this.strategy(
          task,
          toolsOver((action) => session.act(action), `context ${contextId}`),
        );
    solved.then(
      (answer) => session.finish(answer),
      (error: unknown) => session.finish(`Strategy error in context ${contextId}: ${(error as Error).message}`),
    );
  }

  private evictIdle(): void {
    const now = Date.now();
    for (const [id, session] of this.sessions)
      if (now - session.lastActive > SESSION_TTL_MS) {
        this.sessions.delete(id);
        this.working.delete(id);
      }
    for (const [id, entry] of this.answered) if (now - entry.at > SESSION_TTL_MS) this.answered.delete(id);
  }
}

/** The task of a context's first message (the green's crm_task data part). */
function taskInfoOf(data: Record<string, unknown>): TaskInfo {
  return {
    taskId: String(data.task_id ?? ""),
    category: String(data.task_category ?? ""),
    prompt: String(data.prompt ?? ""),
    requiredContext: String(data.required_context ?? ""),
    data,
  };
}

/** Serves a strategy as an A2A purple agent: one A2A context per episode, one action per reply (a Message). */
class StrategyExecutor implements AgentExecutor {
  private readonly responder: StrategyResponder;

  constructor(
    strategy: Strategy,
    private readonly reportedUsage: UsageMetadata | undefined,
    viaMcp: boolean,
  ) {
    this.responder = new StrategyResponder(strategy, viaMcp);
  }

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const text = await this.responder.reply(context.contextId, firstDataPart(context.userMessage) ?? {});
    bus.publish(AgentEvent.message(agentMessage(context.contextId, [textPart(text)], this.reportedUsage ? { usage: this.reportedUsage } : undefined)));
  }

  async cancelTask(): Promise<void> {}
}

/**
 * Starts a reference purple agent on HOST:PORT (port 0 picks a free one), optionally under a
 * path (`/agent`), as participants appear behind the AgentBeats gateway.
 */
export function servePurple(name: string, strategy: Strategy, host: string, port: number, options: string | ServePurpleOptions = {}): Promise<{ server: Server; url: string }> {
  const { basePath = "", reportedUsage, cardUrl, mcp = false } = typeof options === "string" ? { basePath: options } : options;
  return serveAgent({ name, executor: new StrategyExecutor(strategy, reportedUsage, mcp), host, port, basePath, ...(cardUrl ? { cardUrl } : {}) });
}

/** Token usage as a reference purple reports it with every reply, on the wire (message metadata `usage`, snake_case); the green reads it into the log's ReportedUsage. */
export interface UsageMetadata {
  readonly input_tokens: number;
  readonly output_tokens: number;
}

export interface ServePurpleOptions {
  /** Serve under a path (`/agent`), as participants appear behind the AgentBeats gateway. */
  readonly basePath?: string;
  /** The URL the card advertises (AgentBeats passes `--card-url`). */
  readonly cardUrl?: string;
  /** Report this usage with every reply, whatever the strategy did (the validity suite's liar). */
  readonly reportedUsage?: UsageMetadata;
  /** Query over the episode's MCP endpoint when the green offers one, answering in the first reply. */
  readonly mcp?: boolean;
}

export interface ServeAgentOptions {
  readonly name: string;
  readonly executor: AgentExecutor;
  readonly host: string;
  readonly port: number;
  readonly basePath?: string;
  readonly description?: string;
  /** The URL the card advertises (AgentBeats passes `--card-url`); the listening address by default. */
  readonly cardUrl?: string;
}

/**
 * Serves any A2A executor as a reference purple agent (the strategies above, the LLM agent in
 * ./llm), in A2A 1.0 and 0.3 at once, as the SDK serves both: the card lists a JSON-RPC interface
 * of each version (1.0 first), and the SDK's v0.3 compatibility layer answers 0.3 callers (no
 * `A2A-Version` header) with the card and the methods of 0.3.
 */
export async function serveAgent(options: ServeAgentOptions): Promise<{ server: Server; url: string }> {
  const { name, host, port } = options;
  const basePath = options.basePath ?? "";
  const app = express();
  const server = await new Promise<Server>((resolve, reject) => {
    const listening = app.listen(port, host, (error?: Error) => (error ? reject(error) : resolve(listening)));
  });
  const address = server.address();
  const url = `http://${host}:${typeof address === "object" && address ? address.port : port}${basePath || "/"}`;
  const card: AgentCard = {
    name: `Entropic CRMArena reference purple (${name})`,
    description: options.description ?? `A reference purple agent using the ${name} strategy.`,
    supportedInterfaces: duplicateInterfacesForLegacy([{ url: options.cardUrl ?? url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" }], ["JSONRPC"]),
    provider: undefined,
    version: "1.0.0",
    capabilities: { streaming: false, extensions: [] },
    securitySchemes: {},
    securityRequirements: [],
    defaultInputModes: ["text/plain", "application/json"],
    defaultOutputModes: ["text/plain"],
    skills: [
      {
        id: name,
        name,
        description: `Solves CRM tasks with the ${name} strategy.`,
        tags: ["crm", "baseline"],
        examples: [],
        inputModes: [],
        outputModes: [],
        securityRequirements: [],
      },
    ],
    signatures: [],
  };
  const handler = new DefaultRequestHandler(card, new InMemoryTaskStore(), options.executor);
  const legacyCompat = { enabled: true };
  app.use(express.json({ limit: "50mb" }));
  app.use(`${basePath}/${AGENT_CARD_PATH}`, agentCardHandler({ agentCardProvider: handler, legacyCompat }));
  app.use(basePath || "/", jsonRpcHandler({ requestHandler: handler, userBuilder: UserBuilder.noAuthentication, legacyCompat }));
  return { server, url };
}
