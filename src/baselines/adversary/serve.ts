import type { Server } from "node:http";
import type { Part } from "@a2a-js/sdk";
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from "@a2a-js/sdk/server";
import { respond } from "../../tools/index.js";
import { agentMessage, firstDataPart, textPart } from "../a2a.js";
import { type Strategy, StrategyResponder, serveAgent } from "../server.js";

/**
 * Adversaries whose final reply has two parts: the answer as a `respond` call in a data part, and
 * a text part beside it that says something else. A strategy asks for it by returning
 * `withAside(answer, aside)`; the marker never leaves this process.
 */
const ASIDE = "\u0000aside\u0000";

/** The final answer `answer` in the data part, with `aside` in a text part of the same reply. */
export const withAside = (answer: string, aside: string) => `${answer}${ASIDE}${aside}`;

function dataPart(value: Record<string, unknown>): Part {
  return { content: { $case: "data", value }, metadata: undefined, filename: "", mediaType: "application/json" } as Part;
}

/** The parts of one reply: the rendered action as text, or a respond call split into its data part and its aside. */
export function replyParts(rendered: string): Part[] {
  let action: { name?: unknown; arguments?: { answer?: unknown } } | undefined;
  try {
    action = JSON.parse(rendered) as typeof action;
  } catch {
    return [textPart(rendered)];
  }
  const answer = action?.name === respond.name ? action.arguments?.answer : undefined;
  if (typeof answer !== "string" || !answer.includes(ASIDE)) return [textPart(rendered)];
  const [said, aside] = answer.split(ASIDE) as [string, string];
  return [dataPart({ name: respond.name, arguments: { answer: said } }), textPart(aside)];
}

class PartsExecutor implements AgentExecutor {
  private readonly responder: StrategyResponder;

  constructor(strategy: Strategy) {
    this.responder = new StrategyResponder(strategy);
  }

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const rendered = await this.responder.reply(context.contextId, firstDataPart(context.userMessage) ?? {});
    bus.publish(AgentEvent.message(agentMessage(context.contextId, replyParts(rendered))));
  }

  async cancelTask(): Promise<void> {}
}

/** Serves an adversary as an A2A purple on a free port of HOST, its answers with asides in two parts. */
export function serveAdversary(name: string, strategy: Strategy, host = "127.0.0.1"): Promise<{ server: Server; url: string }> {
  return serveAgent({ name, executor: new PartsExecutor(strategy), host, port: 0, description: `A validity adversary (${name}).` });
}
