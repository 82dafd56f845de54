import { randomUUID } from "node:crypto";
import { type Message, type Part, Role } from "@a2a-js/sdk";

/** The A2A messages of the reference purples, in A2A 1.0's types (the SDK writes them in 0.3's shapes to 0.3 callers). */

/** The first data part that holds an object (the green's crm_task, observation or reminder). */
export function firstDataPart(message: Message): Record<string, unknown> | undefined {
  for (const { content } of message.parts) {
    if (content?.$case === "data" && typeof content.value === "object" && content.value !== null && !Array.isArray(content.value)) return content.value as Record<string, unknown>;
  }
  return undefined;
}

/** A text part, in A2A 1.0's types (the SDK writes it as `{"kind": "text", ...}` to 0.3 callers). */
export function textPart(text: string): Part {
  return { content: { $case: "text", value: text }, metadata: undefined, filename: "", mediaType: "text/plain" };
}

/** An agent's reply Message in a context. */
export function agentMessage(contextId: string, parts: Part[], metadata?: Record<string, unknown>): Message {
  return { messageId: randomUUID(), contextId, taskId: "", role: Role.ROLE_AGENT, parts, metadata, extensions: [], referenceTaskIds: [] };
}
