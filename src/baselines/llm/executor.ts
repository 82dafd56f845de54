import { type Message, type Task, TaskState } from "@a2a-js/sdk";
import { AgentEvent, type AgentExecutor, type ExecutionEventBus, type RequestContext } from "@a2a-js/sdk/server";
import type { Logger } from "pino";
import { agentMessage, textPart } from "../a2a.js";
import { answerText } from "./actions.js";
import { FAILURE_ANSWER, type LlmPurpleConfig } from "./config.js";
import { Episode, type Incoming, type TurnResult } from "./episode.js";
import type { ChatModel } from "./model.js";
import { SessionStore } from "./sessions.js";

function incomingOf(message: Message): Incoming {
  const texts: string[] = [];
  const data: Record<string, unknown>[] = [];
  for (const { content } of message.parts) {
    if (content?.$case === "text") texts.push(content.value);
    else if (content?.$case === "data" && typeof content.value === "object" && content.value !== null && !Array.isArray(content.value)) data.push(content.value);
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
      const message = { ...agentMessage(contextId, [textPart(result.reason)]), taskId: context.taskId };
      const task: Task = {
        id: context.taskId,
        contextId,
        status: { state: TaskState.TASK_STATE_FAILED, timestamp: new Date().toISOString(), message },
        artifacts: [],
        history: [context.userMessage],
        metadata,
      };
      bus.publish(AgentEvent.task(task));
    } else {
      bus.publish(AgentEvent.message(agentMessage(contextId, [textPart(result.text)], metadata)));
    }
  }

  async cancelTask(): Promise<void> {}
}
