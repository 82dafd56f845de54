import { createHash } from "node:crypto";
import { type Artifact, type Message, type Part, type Task, TaskState } from "@a2a-js/sdk";
import type { ReportedUsage } from "../log/index.js";
import type { PurpleReply } from "../protocol/index.js";

/**
 * The reader of purple replies. It reads A2A 1.0's types: an A2A 0.3 reply reaches it translated
 * by the SDK's v0.3 compatibility transport (`kind: "text"` parts become `content.$case: "text"`,
 * `"completed"` becomes TASK_STATE_COMPLETED), so one reader covers both wires.
 */

/** Token usage a purple agent may report about its own model calls: the log's type, read here from the wire. */
export type { ReportedUsage };

/** Each state's name on the wire of each version, for the messages that quote it. */
const STATE_NAMES: Record<number, string> = {
  [TaskState.TASK_STATE_UNSPECIFIED]: "unknown",
  [TaskState.TASK_STATE_SUBMITTED]: "submitted",
  [TaskState.TASK_STATE_WORKING]: "working",
  [TaskState.TASK_STATE_COMPLETED]: "completed",
  [TaskState.TASK_STATE_FAILED]: "failed",
  [TaskState.TASK_STATE_CANCELED]: "canceled",
  [TaskState.TASK_STATE_INPUT_REQUIRED]: "input-required",
  [TaskState.TASK_STATE_REJECTED]: "rejected",
  [TaskState.TASK_STATE_AUTH_REQUIRED]: "auth-required",
};

/** A task state as the purple wrote it: `failed` in A2A 0.3, `TASK_STATE_FAILED` in 1.0. */
export function stateName(state: TaskState | undefined, version: "0.3" | "1.0"): string {
  const known = state ?? TaskState.TASK_STATE_UNSPECIFIED;
  if (version === "0.3") return STATE_NAMES[known] ?? "unknown";
  return TaskState[known] ?? String(known);
}

/**
 * The parts of a Task reply the green reads, in this order (docs/protocol.md, "What is read"):
 * 1. the parts of the task's artifacts, in order, except those already read in an earlier turn
 *    of the same task (a task left `input-required` keeps its artifacts, and they accumulate);
 * 2. then the parts of `status.message`, except those that repeat step 1: a text part whose text
 *    (whitespace aside) equals that of one of those artifact text parts, or of all of them joined
 *    by newlines; a data part equal to one of those artifact data parts.
 * Nothing else is dropped: a status message that says something else is read after the artifacts.
 * `artifactKeys` identifies every artifact part of the task, for the next turn of an open task.
 */
export function taskReplyParts(task: Task, alreadyRead: ReadonlySet<string> = new Set()): { parts: Part[]; artifactKeys: string[] } {
  const artifactKeys: string[] = [];
  const fresh: Part[] = [];
  (task.artifacts ?? []).forEach((artifact: Artifact, artifactIndex) => {
    (artifact.parts ?? []).forEach((part, partIndex) => {
      const key = `${artifact.artifactId || `#${artifactIndex}`}/${partIndex}/${createHash("sha256")
        .update(canonicalJson(partContent(part)))
        .digest("base64url")}`;
      artifactKeys.push(key);
      if (!alreadyRead.has(key)) fresh.push(part);
    });
  });
  const freshTexts = fresh.flatMap((part) => (part.content?.$case === "text" ? [normalizeText(part.content.value)] : []));
  const repeatedTexts = new Set([...freshTexts, normalizeText(freshTexts.join("\n"))]);
  const repeatedData = new Set(fresh.flatMap((part) => (part.content?.$case === "data" ? [canonicalJson(part.content.value)] : [])));
  const status = (task.status?.message?.parts ?? []).filter((part) => {
    if (part.content?.$case === "text") return freshTexts.length === 0 || !repeatedTexts.has(normalizeText(part.content.value));
    if (part.content?.$case === "data") return !repeatedData.has(canonicalJson(part.content.value));
    return true;
  });
  return { parts: [...fresh, ...status], artifactKeys };
}

function partContent(part: Part): unknown {
  const content = part.content;
  if (content?.$case === "text") return { text: content.value };
  if (content?.$case === "data") return { data: content.value };
  if (content?.$case === "url") return { url: content.value };
  if (content?.$case === "raw") return { raw: content.value.toString("base64") };
  return {};
}

function normalizeText(text: string): string {
  return text.replace(/\s+/g, " ").trim();
}

/** JSON with object keys sorted, so that equal data compare equal whatever their key order. */
function canonicalJson(value: unknown): string {
  return JSON.stringify(value, (_key, item: unknown) =>
    item && typeof item === "object" && !Array.isArray(item)
      ? Object.fromEntries(Object.entries(item as Record<string, unknown>).sort(([a], [b]) => (a < b ? -1 : a > b ? 1 : 0)))
      : item,
  );
}

/**
 * Text and data parts, as the protocol reads them. A 1.0 data part may hold any JSON value: an
 * object is data (an action, usage); anything else is read as the text of its JSON, so that it is
 * neither lost nor mistaken for an action. File parts (`url`, `raw`) are not read.
 */
export function readParts(parts: readonly Part[]): PurpleReply {
  const texts: string[] = [];
  const data: Record<string, unknown>[] = [];
  for (const { content } of parts) {
    if (content?.$case === "text") texts.push(content.value);
    else if (content?.$case === "data") {
      const value: unknown = content.value;
      if (typeof value === "object" && value !== null && !Array.isArray(value)) data.push(value as Record<string, unknown>);
      else if (value !== undefined) texts.push(JSON.stringify(value));
    }
  }
  return { texts, data };
}

/**
 * Reported usage, from message/task metadata `usage` or a data part `{"type": "usage"}` (or any
 * data part with a `usage` object), with OpenAI (`prompt_tokens`) or Anthropic-style (`input_tokens`) names.
 */
export function usageFrom(metadata: Record<string, unknown> | undefined, data: readonly Record<string, unknown>[]): ReportedUsage | undefined {
  const candidates: unknown[] = [metadata?.usage];
  for (const part of data) {
    if (part.type === "usage" || "usage" in part) candidates.push(part.type === "usage" ? part : part.usage);
  }
  for (const candidate of candidates) {
    if (typeof candidate !== "object" || candidate === null) continue;
    const record = candidate as Record<string, unknown>;
    const input = Number(record.input_tokens ?? record.prompt_tokens);
    const output = Number(record.output_tokens ?? record.completion_tokens);
    if (Number.isFinite(input) && Number.isFinite(output) && input >= 0 && output >= 0) return { inputTokens: input, outputTokens: output };
  }
  return undefined;
}

/** Is a send result a Task (the SDK's types have no discriminator: a Task has a status, a Message parts)? */
export function isTask(result: Message | Task): result is Task {
  return "status" in result && !("parts" in result);
}
