import { randomUUID } from "node:crypto";
import type { Message, Task } from "@a2a-js/sdk";
import type { AgentExecutor, ExecutionEventBus, RequestContext } from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import { answerText } from "./actions.js";
import { FAILURE_ANSWER, type LlmPurpleConfig } from "./config.js";
import { Episode, type Incoming, type TurnResult } from "./episode.js";
import type { ChatModel } from "./model.js";
import { SessionStore } from "./sessions.js";

function incomingOf(message: Message): Incoming {
  const texts: string[] = [];
  const data: Record<string, unknown>[] = [];
  for (const part of message.parts) {
    if (part.kind === "text") texts.push(part.text);
    else if (part.kind === "data") data.push(part.data);
  }
  return { text: texts.join("\n"), data };
}

/** An observation or reminder from the green, as opposed to the first message of a task. */
function isFollowUp(incoming: Incoming): boolean {
  return incoming.data.some((part) => part.type === "tool_result" || part.type === "format_error") && !incoming.data.some((part) => part.type === "crm_task");
}

/**
 * The A2A face of the LLM agent: one {@link Episode} per context, one action per reply, and
 * the model usage of the turn in the reply's `metadata.usage` (docs/protocol.md, "Reporting
 * token usage"), zero when the turn needed no model call.
 */
export class LlmExecutor implements AgentExecutor {
  private readonly sessions: SessionStore<Episode>;

  constructor(
    private readonly config: LlmPurpleConfig,
    private readonly model: ChatModel,
    private readonly logger: Logger,
  ) {
    this.sessions = new SessionStore(config.sessionTtlMs);
  }

  /** Episodes currently held (for tests and diagnostics). */
  get activeEpisodes(): number {
    return this.sessions.size;
  }

  async execute(context: RequestContext, bus: ExecutionEventBus): Promise<void> {
    const incoming = incomingOf(context.userMessage);
    const contextId = context.contextId;
    let result: TurnResult;
    if (!this.sessions.has(contextId) && isFollowUp(incoming)) {
      // The state is gone (evicted after its TTL, or the agent restarted): end the episode cleanly.
      const reason = `no episode for context ${contextId} (expired after PURPLE_LLM_SESSION_TTL_SECONDS, or the agent restarted)`;
      this.logger.warn({ contextId }, reason);
      result =
        this.config.onFailure === "fail"
          ? { kind: "failed", reason, usage: { inputTokens: 0, outputTokens: 0 } }
          : { kind: "action", text: answerText(FAILURE_ANSWER), final: true, usage: { inputTokens: 0, outputTokens: 0 }, failure: reason };
    } else {
      const episode = this.sessions.getOrCreate(contextId, () => new Episode(this.config, this.model, this.logger.child({ contextId })));
      result = await this.sessions.run(contextId, () => episode.step(incoming, AbortSignal.timeout(this.config.turnTimeoutMs)));
      if (episode.finished) this.sessions.delete(contextId);
    }
    const metadata = { usage: { input_tokens: result.usage.inputTokens, output_tokens: result.usage.outputTokens } };
    if (result.kind === "failed") {
      const task: Task = {
        kind: "task",
        id: context.taskId,
        contextId,
        status: {
          state: "failed",
          timestamp: new Date().toISOString(),
          message: { kind: "message", role: "agent", messageId: randomUUID(), contextId, taskId: context.taskId, parts: [{ kind: "text", text: result.reason }] },
        },
        metadata,
      };
      bus.publish(task);
    } else {
      const reply: Message = { kind: "message", role: "agent", messageId: randomUUID(), contextId, parts: [{ kind: "text", text: result.text }], metadata };
      bus.publish(reply);
    }
    bus.finished();
  }

  async cancelTask(): Promise<void> {}
}
