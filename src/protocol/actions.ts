import { z } from "zod";
import { executeRequest, findTool, registeredTools, type ToolSpec } from "../tools/index.js";
import { elide, firstIssue } from "../util/index.js";
import type { PurpleReply } from "./reply.js";

/** Where in the reply the action was found; `mcp`: not in a reply, a call over the episode's MCP endpoint. */
export const ActionSourceSchema = z.enum(["data_part", "json", "tag", "text", "mcp"]);
export type ActionSource = z.infer<typeof ActionSourceSchema>;

/**
 * A tool call as logged: the tool must be a registered tool the org answers, and its arguments
 * pass that tool's own schema (read back, a log names its tools, never a fallback).
 */
const ToolActionSchema = z.object({ kind: z.literal("tool"), source: ActionSourceSchema, tool: z.string(), args: z.unknown() }).transform((action, context) => {
  const spec = findTool(action.tool);
  if (!spec || spec.final) {
    context.addIssue({ code: "custom", message: `unknown tool ${JSON.stringify(action.tool)}`, path: ["tool"] });
    return z.NEVER;
  }
  const parsed = spec.arguments.safeParse(action.args);
  if (!parsed.success) {
    for (const issue of parsed.error.issues) context.addIssue({ code: "custom", message: issue.message, path: ["args", ...issue.path] });
    return z.NEVER;
  }
  return { ...action, args: parsed.data };
});

/** One parsed purple action: a tool call, a final answer, or a reply we could not use (as logged). */
export const ActionSchema = z.union([
  ToolActionSchema,
  z.object({ kind: z.literal("answer"), answer: z.string(), source: ActionSourceSchema }),
  z.object({ kind: z.literal("invalid"), reason: z.string(), source: ActionSourceSchema }),
]);
/** A call of a tool the org answers, its arguments parsed by the tool's schema. */
export interface ToolCall {
  readonly tool: string;
  readonly args: Readonly<Record<string, unknown>>;
}
export type Action =
  | ({ readonly kind: "tool"; readonly source: ActionSource } & ToolCall)
  | { readonly kind: "answer"; readonly answer: string; readonly source: ActionSource }
  | { readonly kind: "invalid"; readonly reason: string; readonly source: ActionSource };

const EXECUTE_TAG = /<execute>([\s\S]*?)<\/execute>/i;
const RESPOND_TAG = /<respond>([\s\S]*?)<\/respond>/i;
const FENCE = /```[a-zA-Z]*\s*\n?([\s\S]*?)```/;

/**
 * Reads one action from a purple reply. Accepted forms, in order: a DataPart tool call
 * or answer; CRMArena-Pro `<execute>`/`<respond>` tags; a JSON tool call or `{"answer"}`
 * (bare, fenced, or embedded in text); otherwise non-empty plain text is the final answer.
 */
export function parseAction(reply: PurpleReply, offered: readonly ToolSpec[] = registeredTools()): Action {
  for (const data of reply.data) {
    const action = actionFromObject(data, "data_part", offered);
    if (action) return action;
  }
  const text = reply.texts.join("\n").trim();
  const execute = EXECUTE_TAG.exec(text);
  if (execute) {
    const request = executeRequest(execute[1]!);
    if (!request.text) return { kind: "invalid", reason: "the <execute> tag is empty", source: "tag" };
    if (!offered.some((spec) => spec.name === request.tool)) return callOf(request.tool, request.args, "tag", offered);
    return { kind: "tool", tool: request.tool, args: request.args, source: "tag" };
  }
  const respond = RESPOND_TAG.exec(text);
  if (respond) return { kind: "answer", answer: respond[1]!.trim(), source: "tag" };
  const json = findJsonObject(text);
  if (json.value !== undefined) {
    const action = actionFromObject(json.value, "json", offered);
    if (action) return action;
  } else if (json.error && looksLikeJsonAttempt(text)) {
    return { kind: "invalid", reason: `the reply looks like JSON but does not parse: ${elide(json.error, SHOWN_CHARS)}`, source: "json" };
  }
  if (!text) return { kind: "invalid", reason: "the reply has no text and no usable data part", source: "text" };
  return { kind: "answer", answer: text, source: "text" };
}

function actionFromObject(value: Record<string, unknown>, source: ActionSource, offered: readonly ToolSpec[]): Action | undefined {
  const toolCall = (name: unknown, args: unknown, from: ActionSource) => callOf(name, args, from, offered);
  if (Array.isArray(value.tool_calls) && value.tool_calls.length > 0) {
    const first = value.tool_calls[0] as Record<string, unknown>;
    // OpenAI's raw shape nests the call: {"tool_calls": [{"type": "function", "function": {"name", "arguments"}}]}.
    const fn = typeof first.function === "object" && first.function !== null ? (first.function as Record<string, unknown>) : undefined;
    if (fn) return toolCall(fn.name, fn.arguments, source);
    return toolCall(first.tool_name ?? first.name, first.arguments, source);
  }
  if (typeof value.name === "string" && ("arguments" in value || "parameters" in value || offered.some((spec) => spec.name === value.name))) {
    return toolCall(value.name, value.arguments ?? value.parameters ?? {}, source);
  }
  if (value.action === "execute" && typeof value.query === "string") {
    const request = executeRequest(value.query);
    // The query goes to its tool as written (its tool's schema trims it), as CRMArena-Pro's JSON form did.
    return toolCall(request.tool, "search" in request.args ? request.args : { query: value.query }, source);
  }
  if (value.action === answerTool(offered)?.name && "answer" in value) return answerFrom(value.answer, source);
  if ("answer" in value) return answerFrom(value.answer, source);
  return undefined;
}

function answerTool(offered: readonly ToolSpec[]): ToolSpec | undefined {
  return offered.find((spec) => spec.final);
}

/** Characters of a purple's own value a reason quotes: the reason goes back to the purple and into the log, never its megabytes. */
const SHOWN_CHARS = 200;

/**
 * A call of a tool by name with its arguments, read as a reply's tool call is: a tool not offered
 * or arguments its schema refuses make an invalid action (which costs its step), never a throw.
 */
export function callOf(name: unknown, rawArgs: unknown, source: ActionSource, offered: readonly ToolSpec[]): Action {
  const spec = offered.find((candidate) => candidate.name === name);
  if (typeof name !== "string" || !spec) {
    return {
      kind: "invalid",
      reason: `unknown tool ${elide(JSON.stringify(name) ?? String(name), SHOWN_CHARS)}; the tools are ${offered.map((candidate) => candidate.name).join(", ")}`,
      source,
    };
  }
  let args = rawArgs;
  if (typeof args === "string") {
    try {
      args = JSON.parse(args);
    } catch {
      return { kind: "invalid", reason: `the arguments of ${name} are a string that is not JSON`, source };
    }
  }
  const parsed = spec.arguments.safeParse(args ?? {});
  if (!parsed.success) {
    const issue = firstIssue(parsed.error);
    const field = issue.path ? `argument '${elide(issue.path, SHOWN_CHARS)}'` : "arguments";
    return { kind: "invalid", reason: `bad ${field} for ${name}: ${issue.message}`, source };
  }
  if (spec.final) return answerFrom(spec.answerOf(parsed.data), source);
  return { kind: "tool", tool: name, args: parsed.data, source };
}

function answerFrom(answer: unknown, source: ActionSource): Action {
  if (answer === null || answer === undefined) return { kind: "answer", answer: "None", source };
  if (Array.isArray(answer)) return { kind: "answer", answer: answer.map((item) => String(item)).join(", "), source };
  if (typeof answer === "object") return { kind: "answer", answer: JSON.stringify(answer), source };
  return { kind: "answer", answer: String(answer).trim(), source };
}

function looksLikeJsonAttempt(text: string): boolean {
  return /^\s*(```(json)?\s*)?\{/.test(text) && /"(name|answer|arguments|action)"/.test(text);
}

/**
 * Finds the first JSON object in a text: the whole text, a fenced block, or the first
 * balanced `{...}` (purples often write a sentence and then the JSON).
 */
export function findJsonObject(text: string): { value?: Record<string, unknown>; error?: string } {
  const candidates = [text.trim()];
  const fence = FENCE.exec(text);
  if (fence) candidates.push(fence[1]!.trim());
  const balanced = firstBalancedObject(text);
  if (balanced) candidates.push(balanced);
  let error: string | undefined;
  for (const candidate of candidates) {
    if (!candidate.startsWith("{")) continue;
    try {
      const value: unknown = JSON.parse(candidate);
      if (typeof value === "object" && value !== null && !Array.isArray(value)) return { value: value as Record<string, unknown> };
    } catch (cause) {
      error ??= (cause as Error).message;
    }
  }
  return { error };
}

function firstBalancedObject(text: string): string | undefined {
  const start = text.indexOf("{");
  if (start < 0) return undefined;
  let depth = 0;
  let inString = false;
  for (let i = start; i < text.length; i++) {
    const ch = text[i]!;
    if (inString) {
      if (ch === "\\") i++;
      else if (ch === '"') inString = false;
    } else if (ch === '"') inString = true;
    else if (ch === "{") depth++;
    else if (ch === "}" && --depth === 0) return text.slice(start, i + 1);
  }
  return undefined;
}

/** The query text of an action that reads data (SQL, SOQL, SOSL: whatever its tool counts as a query); undefined for anything else. */
export function queryText(action: Action): string | undefined {
  if (action.kind !== "tool") return undefined;
  const spec = findTool(action.tool);
  return spec && !spec.final ? spec.queryText(action.args) : undefined;
}
