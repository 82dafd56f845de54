import type { Logger } from "pino";
import { describeSchema, respond } from "../../tools/index.js";
import { countTokens } from "../../util/index.js";
import { mcpUrlOf } from "../mcp-tools.js";
import { answerOf, answerText, type CheckedCall, checkToolCall, plainAnswer, textAction, toolCallText } from "./actions.js";
import { FAILURE_ANSWER, type LlmPurpleConfig } from "./config.js";
import { Conversation, trimToTokens } from "./history.js";
import { McpToolbox } from "./mcp.js";
import { type ChatModel, type ChatReply, describeModelError, isContextOverflow, statedContextLimit, type TokenUsage } from "./model.js";
import { EMPTY_REPLY_REMINDER, LAST_REPLY_NOTE, readTask, systemPrompt, type TaskAsRead, TEXT_FORMAT_REMINDER, taskPrompt } from "./prompt.js";

/** One message from the green, reduced to its parts. */
export interface Incoming {
  readonly text: string;
  readonly data: readonly Record<string, unknown>[];
}

/** What the agent says for one green turn, and what the model calls behind it cost. */
export type TurnResult =
  | { readonly kind: "action"; readonly text: string; readonly final: boolean; readonly usage: TokenUsage; readonly failure?: string }
  | { readonly kind: "failed"; readonly reason: string; readonly usage: TokenUsage };

/** Context overflows answered by compacting harder before the error counts as a failure. */
const MAX_OVERFLOW_RETRIES = 4;
/** Share of the context one observation may take when it arrives; older ones are cut later as needed. */
const OBSERVATION_SHARE = 0.25;
const OBSERVATION_MAX_TOKENS = 12_000;
/** Margin for the gap between our o200k count and the provider's own tokenizer. */
const SAFETY = 0.92;

/** Where the green's next message goes in the history. */
type Awaiting = { readonly kind: "tool"; readonly id: string } | { readonly kind: "user" } | { readonly kind: "schema" };

class Meter {
  inputTokens = 0;
  outputTokens = 0;
  add(usage: TokenUsage): void {
    this.inputTokens += usage.inputTokens;
    this.outputTokens += usage.outputTokens;
  }
  get usage(): TokenUsage {
    return { inputTokens: this.inputTokens, outputTokens: this.outputTokens };
  }
}

/**
 * One task, one A2A context: turns the green's messages into model calls and the model's
 * replies into one action per green turn. In tools mode several tool calls in one model reply
 * are queued and sent one per turn, each result going back under its own tool_call_id. A
 * provider failure ends the episode with a clear answer (or a failed task); it never hangs.
 */
export class Episode {
  private task: TaskAsRead | undefined;
  private conversation = new Conversation();
  private readonly queue: CheckedCall[] = [];
  private awaiting: Awaiting | undefined;
  private remaining: number | undefined;
  private promptBudget: number;
  private lastNoteSent = false;
  private schemaAsked = false;
  private turns = 0;
  private readonly total = new Meter();
  /** MCP mode: the episode's endpoint, when its first message offers one (else the in-message tools). */
  private mcp: McpToolbox | undefined;
  finished = false;

  constructor(
    private readonly config: LlmPurpleConfig,
    private readonly model: ChatModel,
    private readonly logger: Logger,
  ) {
    this.promptBudget = Math.floor((config.contextTokens - config.maxTokens) * SAFETY);
  }

  async step(incoming: Incoming, signal: AbortSignal): Promise<TurnResult> {
    const meter = new Meter();
    try {
      if (!this.task) await this.start(incoming);
      else this.observe(incoming);
      const { text, final } = this.mcp
        ? await this.nextOverMcp(meter, signal)
        : this.config.mode === "text"
          ? await this.nextText(meter, signal)
          : await this.nextTools(meter, signal);
      if (this.remaining !== undefined) this.remaining--;
      this.finished = final;
      this.turns++;
      this.total.add(meter.usage);
      if (final) this.logger.info({ taskId: this.task?.taskId, answer: text.slice(0, 300), turns: this.turns, usage: this.total.usage }, "LLM purple episode answered");
      if (final) await this.closeMcp();
      return { kind: "action", text, final, usage: meter.usage };
    } catch (error) {
      const reason = signal.aborted
        ? `the turn took longer than PURPLE_LLM_TURN_TIMEOUT_SECONDS (${this.config.turnTimeoutMs / 1000} s)`
        : `the model provider failed: ${describeModelError(error)}`;
      this.total.add(meter.usage);
      this.logger.error(
        { taskId: this.task?.taskId, reason, policy: this.config.onFailure, turns: this.turns + 1, usage: this.total.usage },
        "LLM purple episode ends on a failure",
      );
      this.finished = true;
      await this.closeMcp();
      if (this.config.onFailure === "fail") return { kind: "failed", reason, usage: meter.usage };
      return { kind: "action", text: answerText(FAILURE_ANSWER), final: true, usage: meter.usage, failure: reason };
    }
  }

  private async start(incoming: Incoming): Promise<void> {
    const read = readTask(incoming.text, incoming.data);
    const mcpUrl = this.config.mode === "mcp" ? incoming.data.map(mcpUrlOf).find((url) => url !== undefined) : undefined;
    // The org's tools as the endpoint lists them, and the answer tool, which is no MCP tool (the answer is the A2A reply).
    // An endpoint this agent cannot reach (a green whose card URL is not its address here) leaves the in-message tools.
    this.mcp = mcpUrl
      ? await McpToolbox.connect(mcpUrl).catch((error: unknown) => {
          this.logger.warn({ url: mcpUrl, error: (error as Error).message }, "cannot reach the green's MCP endpoint; using the in-message tools");
          return undefined;
        })
      : undefined;
    const task = this.mcp ? { ...read, tools: [...this.mcp.tools, ...read.tools.filter((tool) => tool.function.name === respond.name)] } : read;
    this.task = task;
    this.remaining = task.maxSteps;
    const tools = this.config.mode === "text" ? [] : task.tools;
    this.conversation = new Conversation(tools.length > 0 ? countTokens(JSON.stringify(tools)) : 0);
    this.conversation.add({ role: "system", content: systemPrompt(task, this.config.mode) });
    this.conversation.add({ role: "user", content: taskPrompt(task) });
    this.logger.info(
      { taskId: task.taskId, category: task.category, mode: this.config.mode, model: this.model.model, externalFacing: task.externalFacing },
      "LLM purple episode started",
    );
  }

  /** Files the green's answer to the action sent last turn. */
  private observe(incoming: Incoming): void {
    for (const part of incoming.data) {
      if (typeof part.remaining_steps === "number") this.remaining = part.remaining_steps;
    }
    const cap = Math.min(OBSERVATION_MAX_TOKENS, Math.floor(this.config.contextTokens * OBSERVATION_SHARE));
    const text = trimToTokens(incoming.text, cap);
    const awaiting = this.awaiting ?? { kind: "user" };
    this.awaiting = undefined;
    if (awaiting.kind === "tool") this.conversation.add({ role: "tool", toolCallId: awaiting.id, content: text }, true);
    else if (awaiting.kind === "user") this.conversation.add({ role: "user", content: text }, true);
    else {
      const ok = incoming.data.some((part) => part.type === "tool_result" && part.ok === true);
      const schema = ok
        ? trimToTokens(incoming.text.replace(/^Salesforce instance output:\s*/, "").replace(/\n\n\(\d+ repl(?:y|ies) left\)\s*$/, ""), Math.floor(this.config.contextTokens / 3))
        : undefined;
      if (!ok) this.logger.warn({ taskId: this.task?.taskId }, "describe_schema failed; the model works without the schema");
      this.conversation.setSystem(systemPrompt(this.task!, "text", schema));
    }
  }

  /** The next reply will be the green's last one for this task. */
  private get lastReply(): boolean {
    return this.remaining !== undefined && this.remaining <= 1;
  }

  private async nextTools(meter: Meter, signal: AbortSignal): Promise<{ text: string; final: boolean }> {
    let retries = 0;
    for (;;) {
      if (this.queue.length > 0 && this.lastReply && this.queue[0]!.name !== respond.name && retries < this.config.formatRetries) {
        // No turn is left to run them: answer each call so the history stays valid, then ask for the
        // answer (a bounded number of times; a model that insists gets its query run and ends on max_steps).
        retries++;
        for (const call of this.queue.splice(0))
          this.conversation.add({ role: "tool", toolCallId: call.id, content: "Not run: no replies are left for queries. Give the final answer now." });
      }
      const call = this.queue.shift();
      if (call) {
        if (call.name === respond.name) {
          // Calls queued behind a final answer never run; answer them so the history stays valid if the green goes on.
          for (const skipped of this.queue.splice(0)) this.conversation.add({ role: "tool", toolCallId: skipped.id, content: "Not run: the final answer was given." });
          this.conversation.add({ role: "tool", toolCallId: call.id, content: "Answer sent." });
          return { text: answerText(answerOf(call.args)), final: true };
        }
        this.awaiting = { kind: "tool", id: call.id };
        return { text: toolCallText(call.name, call.args), final: false };
      }
      const reply = await this.callModel(meter, signal);
      this.conversation.add({ role: "assistant", content: reply.content, toolCalls: reply.toolCalls });
      if (reply.toolCalls.length === 0) {
        const ended = this.withoutToolCalls(reply.content, retries++ < this.config.formatRetries);
        if (ended) return ended;
        continue;
      }
      const invalid: { name: string; arguments: string }[] = [];
      for (const raw of reply.toolCalls) {
        const checked = checkToolCall(raw, this.task!.tools);
        if (checked.ok) this.queue.push(checked.call);
        else {
          invalid.push(raw);
          this.conversation.add({ role: "tool", toolCallId: raw.id, content: `Error, nothing was run: ${checked.error}.` });
        }
      }
      if (this.queue.length > 0) continue;
      if (retries++ < this.config.formatRetries) continue;
      // Still malformed: let the green judge it (one turn); its reminder comes back as a user message.
      this.logger.warn({ taskId: this.task?.taskId, call: invalid[0] }, "malformed tool calls after local retries; passing one to the green");
      this.awaiting = { kind: "user" };
      return { text: toolCallText(invalid[0]!.name, invalid[0]!.arguments), final: false };
    }
  }

  /**
   * A tool-calling reply that calls no tool: its text as the final answer when it holds one, else a
   * reminder (undefined: ask the model again) while `retry` allows, else None.
   */
  private withoutToolCalls(content: string, retry: boolean): { text: string; final: true } | undefined {
    const answer = plainAnswer(content);
    if (answer) return { text: answerText(answer), final: true };
    if (retry) {
      this.conversation.add({ role: "user", content: EMPTY_REPLY_REMINDER });
      return undefined;
    }
    this.logger.warn({ taskId: this.task?.taskId }, "the model keeps replying with nothing; answering None");
    return { text: answerText(FAILURE_ANSWER), final: true };
  }

  /**
   * MCP mode: the model's tool calls run over the episode's endpoint within this one green turn,
   * their results (and the replies left, which the endpoint says) going back to the model, until it
   * answers; the answer is the turn's reply. A refused call (the budget spent) is read by the model
   * like any result; a model that goes on calling after `formatRetries` refusals answers None.
   */
  private async nextOverMcp(meter: Meter, signal: AbortSignal): Promise<{ text: string; final: boolean }> {
    const cap = Math.min(OBSERVATION_MAX_TOKENS, Math.floor(this.config.contextTokens * OBSERVATION_SHARE));
    let retries = 0;
    let refusals = 0;
    for (;;) {
      const reply = await this.callModel(meter, signal);
      this.conversation.add({ role: "assistant", content: reply.content, toolCalls: reply.toolCalls });
      if (reply.toolCalls.length === 0) {
        const ended = this.withoutToolCalls(reply.content, retries++ < this.config.formatRetries);
        if (ended) return ended;
        continue;
      }
      let answer: string | undefined;
      for (const raw of reply.toolCalls) {
        if (answer !== undefined) {
          this.conversation.add({ role: "tool", toolCallId: raw.id, content: "Not run: the final answer was given." });
          continue;
        }
        const checked = checkToolCall(raw, this.task!.tools);
        if (!checked.ok) {
          this.conversation.add({ role: "tool", toolCallId: raw.id, content: `Error, nothing was run: ${checked.error}.` });
          continue;
        }
        if (checked.call.name === respond.name) {
          answer = answerOf(checked.call.args);
          this.conversation.add({ role: "tool", toolCallId: raw.id, content: "Answer sent." });
          continue;
        }
        const result = await this.mcp!.call(checked.call.name, checked.call.args, signal);
        if (result.remaining !== undefined) this.remaining = result.remaining;
        if (result.isError && result.text.startsWith("Refused")) refusals++;
        this.conversation.add({ role: "tool", toolCallId: raw.id, content: trimToTokens(result.text, cap) }, true);
      }
      if (answer !== undefined) return { text: answerText(answer), final: true };
      if (refusals > this.config.formatRetries) {
        this.logger.warn({ taskId: this.task?.taskId, refusals }, "the model goes on calling tools the green refuses; answering None");
        return { text: answerText(FAILURE_ANSWER), final: true };
      }
    }
  }

  private async closeMcp(): Promise<void> {
    const mcp = this.mcp;
    this.mcp = undefined;
    await mcp?.close().catch(() => undefined);
  }

  private async nextText(meter: Meter, signal: AbortSignal): Promise<{ text: string; final: boolean }> {
    // CRMArena-Pro put the schema in the prompt; here it costs the first turn (when the budget allows).
    if (!this.schemaAsked && (this.remaining === undefined || this.remaining > 2)) {
      this.schemaAsked = true;
      this.awaiting = { kind: "schema" };
      return { text: toolCallText(describeSchema.name, {}), final: false };
    }
    let retries = 0;
    for (;;) {
      const reply = await this.callModel(meter, signal);
      const action = textAction(reply.content);
      if (action) {
        this.conversation.add({ role: "assistant", content: action.kept });
        if (action.kind === "answer") return { text: `<respond>${action.answer || FAILURE_ANSWER}</respond>`, final: true };
        this.awaiting = { kind: "user" };
        return { text: `<execute>${action.query}</execute>`, final: false };
      }
      this.conversation.add({ role: "assistant", content: reply.content });
      if (retries++ < this.config.formatRetries) {
        this.conversation.add({ role: "user", content: TEXT_FORMAT_REMINDER });
        continue;
      }
      const answer = reply.content.trim();
      this.logger.warn({ taskId: this.task?.taskId }, "no <execute>/<respond> after local reminders; the reply is taken as the final answer");
      return { text: `<respond>${answer || FAILURE_ANSWER}</respond>`, final: true };
    }
  }

  /** One model call: compacted to fit, compacting harder when the provider says it still does not. */
  private async callModel(meter: Meter, signal: AbortSignal): Promise<ChatReply> {
    if (this.lastReply && !this.lastNoteSent) {
      this.lastNoteSent = true;
      this.conversation.add({ role: "user", content: LAST_REPLY_NOTE[this.mcp ? "mcp" : this.config.mode === "text" ? "text" : "tools"] });
    }
    for (let overflow = 0; ; overflow++) {
      const { cut, fits } = this.conversation.fit(this.promptBudget);
      if (cut > 0) this.logger.debug({ taskId: this.task?.taskId, cut, budget: this.promptBudget }, "observations cut to fit the context");
      if (!fits)
        this.logger.warn({ taskId: this.task?.taskId, tokens: this.conversation.tokens(), budget: this.promptBudget }, "the prompt does not fit the context even after compaction");
      const promptTokens = this.conversation.tokens();
      try {
        const reply = await this.model.complete({ messages: this.conversation.messages(), ...(this.config.mode !== "text" ? { tools: this.task!.tools } : {}) }, signal);
        meter.add(
          reply.usage ?? {
            inputTokens: promptTokens,
            outputTokens: countTokens(reply.content) + reply.toolCalls.reduce((sum, call) => sum + countTokens(call.arguments) + countTokens(call.name), 0),
          },
        );
        return reply;
      } catch (error) {
        if (signal.aborted || !isContextOverflow(error) || overflow >= MAX_OVERFLOW_RETRIES) throw error;
        const stated = statedContextLimit(error);
        const statedBudget = stated !== undefined ? Math.floor((stated - this.config.maxTokens) * SAFETY) : Infinity;
        // Shrink below what was just refused (our count and the provider's differ), or to the limit it states.
        this.promptBudget = Math.max(500, Math.min(Math.floor(Math.min(this.promptBudget, promptTokens) * 0.7), statedBudget));
        this.logger.warn({ taskId: this.task?.taskId, promptTokens, budget: this.promptBudget, error: describeModelError(error) }, "context overflow; compacting and retrying");
      }
    }
  }
}
