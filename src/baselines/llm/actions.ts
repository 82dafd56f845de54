import { findTool, respond } from "../../tools/index.js";
import { firstIssue } from "../../util/index.js";
import type { FunctionTool, ModelToolCall } from "./model.js";

/** A model tool call checked locally, ready to send to the green. */
export interface CheckedCall {
  readonly id: string;
  readonly name: string;
  readonly args: Record<string, unknown>;
}

/**
 * Checks a tool call before it costs a green turn: a known tool, arguments that are a JSON
 * object and pass the protocol's schema. Keys a tool does not take are dropped rather than
 * refused (models add `limit` or `reason`; the green's schemas are strict).
 */
export function checkToolCall(call: ModelToolCall, tools: readonly FunctionTool[]): { ok: true; call: CheckedCall } | { ok: false; error: string } {
  const names = tools.map((tool) => tool.function.name);
  if (!names.includes(call.name)) return { ok: false, error: `unknown tool ${JSON.stringify(call.name)}; the tools are ${names.join(", ")}` };
  let args: unknown;
  try {
    args = call.arguments.trim() ? JSON.parse(call.arguments) : {};
  } catch (cause) {
    return { ok: false, error: `the arguments of ${call.name} are not valid JSON (${(cause as Error).message}); send a JSON object` };
  }
  if (typeof args !== "object" || args === null || Array.isArray(args)) return { ok: false, error: `the arguments of ${call.name} must be a JSON object` };
  const schema = findTool(call.name)?.arguments;
  if (!schema) return { ok: true, call: { id: call.id, name: call.name, args: args as Record<string, unknown> } };
  // Keep the keys the tool's own JSON schema declares (models add "limit", "reason", ...).
  const parameters = tools.find((tool) => tool.function.name === call.name)?.function.parameters as { properties?: Record<string, unknown> } | undefined;
  const known = Object.keys(parameters?.properties ?? {});
  const picked = Object.fromEntries(Object.entries(args).filter(([key]) => known.includes(key)));
  const parsed = schema.safeParse(picked);
  if (!parsed.success) {
    const issue = firstIssue(parsed.error);
    return { ok: false, error: `bad argument '${issue.path || "arguments"}' for ${call.name}: ${issue.message}` };
  }
  return { ok: true, call: { id: call.id, name: call.name, args: parsed.data as Record<string, unknown> } };
}

/** The reply that carries a tool call to the green (docs/protocol.md, "JSON in the text"). */
export function toolCallText(name: string, args: Record<string, unknown> | string): string {
  return JSON.stringify({ name, arguments: args });
}

/** The reply that carries the final answer. */
export function answerText(answer: string): string {
  return toolCallText(respond.name, { answer });
}

/** The answer of a `respond` call as one string: lists comma-joined, null as None (as the green reads it). */
export function answerOf(args: Record<string, unknown>): string {
  const answer = args.answer;
  if (answer === null || answer === undefined) return "None";
  if (Array.isArray(answer)) return answer.map(String).join(", ");
  return String(answer).trim();
}

const RESPOND = /<respond>([\s\S]*?)(?:<\/respond>|$)/i;
const EXECUTE = /<execute>([\s\S]*?)(?:<\/execute>|$)/i;

/** A model's plain-text final answer, without the `<respond>` tags some models add anyway. */
export function plainAnswer(content: string): string {
  const tagged = RESPOND.exec(content);
  return (tagged ? tagged[1]! : content).trim();
}

/**
 * The first action of a text-mode reply. `kept` is the reply up to the end of that action:
 * what follows it never ran, so the history must not suggest it did.
 */
export function textAction(content: string): { kind: "execute"; query: string; kept: string } | { kind: "answer"; answer: string; kept: string } | undefined {
  const execute = EXECUTE.exec(content);
  const respond = RESPOND.exec(content);
  const first = execute && (!respond || execute.index <= respond.index) ? execute : respond;
  if (!first) return undefined;
  const kept = content.slice(0, first.index + first[0].length);
  const body = first[1]!.trim();
  if (first === execute) return body ? { kind: "execute", query: body, kept } : undefined;
  return { kind: "answer", answer: body, kept };
}
