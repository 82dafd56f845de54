import { countTokens } from "../../util/index.js";
import type { ChatMessage } from "./model.js";

/** Tokens a chat format adds around each message (role, separators); OpenAI documents about 3-4. */
const MESSAGE_OVERHEAD = 4;
/** The head of a cut observation kept in place, so the model still sees what the result was about. */
const KEPT_HEAD_CHARS = 240;
/**
 * The green ends each observation with "(N replies left)". Cutting an observation must not
 * cut the model's only view of its remaining budget, so the footer is kept.
 */
const FOOTER = /\n\n\(\d+ repl(?:y|ies) left\)\s*$/;

interface Entry {
  message: ChatMessage;
  tokens: number;
  /** A green observation: the only thing compaction cuts. */
  readonly observation: boolean;
  cut: boolean;
}

function messageTokens(message: ChatMessage): number {
  const calls =
    message.role === "assistant" ? (message.toolCalls ?? []).reduce((sum, call) => sum + countTokens(call.name) + countTokens(call.arguments) + MESSAGE_OVERHEAD, 0) : 0;
  return countTokens(message.content) + calls + MESSAGE_OVERHEAD;
}

function withContent(message: ChatMessage, content: string): ChatMessage {
  return { ...message, content } as ChatMessage;
}

/**
 * Cuts a text to at most `maxTokens`, keeping its head and the green's footer, and says how
 * much was cut. Cheap on 1 MB texts: characters are cut before tokens are counted.
 */
export function trimToTokens(text: string, maxTokens: number, why = "it is too long for the model's context"): string {
  // A token is at least one character, so a text no longer than the budget fits without counting.
  if (text.length <= maxTokens) return text;
  const footer = FOOTER.exec(text)?.[0] ?? "";
  const body = footer ? text.slice(0, text.length - footer.length) : text;
  const total = countTokens(text.slice(0, Math.min(text.length, maxTokens * 8)));
  if (total <= maxTokens && text.length <= maxTokens * 8) return text;
  const marker = (kept: number) =>
    `\n[… ${(body.length - kept).toLocaleString("en-US")} of ${body.length.toLocaleString("en-US")} characters cut because ${why}; narrow the query: fewer fields, a WHERE filter, LIMIT, or aggregates]`;
  let keep = Math.min(body.length, maxTokens * 4);
  for (let attempt = 0; attempt < 8; attempt++) {
    const candidate = body.slice(0, keep) + marker(keep) + footer;
    const tokens = countTokens(candidate);
    if (tokens <= maxTokens || keep === 0) return candidate;
    keep = Math.max(0, Math.floor(keep * (maxTokens / tokens) * 0.95));
  }
  return body.slice(0, keep) + marker(keep) + footer;
}

/** The stub an older observation becomes when the context is full. */
function stub(content: string): string {
  const footer = FOOTER.exec(content)?.[0] ?? "";
  const body = footer ? content.slice(0, content.length - footer.length) : content;
  const head = body.slice(0, KEPT_HEAD_CHARS);
  return `${head}\n[… ${(body.length - head.length).toLocaleString("en-US")} of ${body.length.toLocaleString("en-US")} characters of this older result cut to keep the conversation within the model's context; run the query again if you still need them]${footer}`;
}

/**
 * The chat history of one episode with a running token count. `fit` compacts it: older
 * observations are cut first, each replaced by its head and a marker saying how much went;
 * the latest observation is cut only when nothing else is left.
 */
export class Conversation {
  private readonly entries: Entry[] = [];

  constructor(private readonly fixedTokens = 0) {}

  add(message: ChatMessage, observation = false): void {
    this.entries.push({ message, tokens: messageTokens(message), observation, cut: false });
  }

  /** Replaces the system prompt (text mode learns the schema after its first turn). */
  setSystem(content: string): void {
    const index = this.entries.findIndex((entry) => entry.message.role === "system");
    const entry: Entry = { message: { role: "system", content }, tokens: 0, observation: false, cut: false };
    entry.tokens = messageTokens(entry.message);
    if (index >= 0) this.entries[index] = entry;
    else this.entries.unshift(entry);
  }

  messages(): ChatMessage[] {
    return this.entries.map((entry) => entry.message);
  }

  /** Estimated prompt tokens of the next request (o200k; the provider's tokenizer may differ). */
  tokens(): number {
    return this.fixedTokens + this.entries.reduce((sum, entry) => sum + entry.tokens, 0);
  }

  get length(): number {
    return this.entries.length;
  }

  /**
   * Compacts until the prompt fits `budget` tokens. Returns how many observations were cut
   * and whether it fits (it may not when the system prompt and task alone are too large).
   */
  fit(budget: number): { cut: number; fits: boolean } {
    let cut = 0;
    const observations = this.entries.filter((entry) => entry.observation);
    const latest = observations[observations.length - 1];
    for (const entry of observations) {
      if (this.tokens() <= budget) break;
      if (entry === latest || entry.cut) continue;
      this.replace(entry, stub(entry.message.content));
      cut++;
    }
    if (this.tokens() > budget && latest) {
      const room = latest.tokens - (this.tokens() - budget) - MESSAGE_OVERHEAD;
      const trimmed = room >= 200 ? trimToTokens(latest.message.content, room, "the conversation is too long for the model's context") : stub(latest.message.content);
      if (trimmed !== latest.message.content) {
        this.replace(latest, trimmed);
        cut++;
      }
    }
    return { cut, fits: this.tokens() <= budget };
  }

  private replace(entry: Entry, content: string): void {
    entry.message = withContent(entry.message, content);
    entry.tokens = messageTokens(entry.message);
    entry.cut = true;
  }
}
