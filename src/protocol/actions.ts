import { z } from "zod";
import type { PurpleReply } from "./reply.js";
import { type OrgToolCall, TOOL_NAMES, ToolArgumentSchemas } from "./tools.js";

/** Where in the reply the action was found. */
export const ActionSourceSchema = z.enum(["data_part", "json", "tag", "text"]);
export type ActionSource = z.infer<typeof ActionSourceSchema>;

const toolAction = <T extends keyof typeof ToolArgumentSchemas>(tool: T) =>
  z.object({ kind: z.literal("tool"), source: ActionSourceSchema, tool: z.literal(tool), args: ToolArgumentSchemas[tool] });

/** One parsed purple action: a tool call, a final answer, or a reply we could not use (as logged). */
export const ActionSchema = z.union([
  toolAction("describe_schema"),
  toolAction("soql_query"),
  toolAction("sosl_search"),
  toolAction("sql_query"),
  z.object({ kind: z.literal("answer"), answer: z.string(), source: ActionSourceSchema }),
  z.object({ kind: z.literal("invalid"), reason: z.string(), source: ActionSourceSchema }),
]);
export type Action =
  | ({ readonly kind: "tool"; readonly source: ActionSource } & OrgToolCall)
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
export function parseAction(reply: PurpleReply): Action {
  for (const data of reply.data) {
    const action = actionFromObject(data, "data_part");
    if (action) return action;
  }
  const text = reply.texts.join("\n").trim();
  const execute = EXECUTE_TAG.exec(text);
  if (execute) {
    const request = executeRequest(execute[1]!);
    if (request.tool === "sosl_search")
      return request.search
        ? { kind: "tool", tool: "sosl_search", args: { search: request.search }, source: "tag" }
        : { kind: "invalid", reason: "the <execute> tag is empty", source: "tag" };
    if (request.tool !== "soql_query" || !request.query) return { kind: "invalid", reason: "the <execute> tag is empty", source: "tag" };
    return { kind: "tool", tool: "soql_query", args: { query: request.query }, source: "tag" };
  }
  const respond = RESPOND_TAG.exec(text);
  if (respond) return { kind: "answer", answer: respond[1]!.trim(), source: "tag" };
  const json = findJsonObject(text);
  if (json.value !== undefined) {
    const action = actionFromObject(json.value, "json");
    if (action) return action;
  } else if (json.error && looksLikeJsonAttempt(text)) {
    return { kind: "invalid", reason: `the reply looks like JSON but does not parse: ${json.error}`, source: "json" };
  }
  if (!text) return { kind: "invalid", reason: "the reply has no text and no usable data part", source: "text" };
  return { kind: "answer", answer: text, source: "text" };
}

function actionFromObject(value: Record<string, unknown>, source: ActionSource): Action | undefined {
  if (Array.isArray(value.tool_calls) && value.tool_calls.length > 0) {
    const first = value.tool_calls[0] as Record<string, unknown>;
    // OpenAI's raw shape nests the call: {"tool_calls": [{"type": "function", "function": {"name", "arguments"}}]}.
    const fn = typeof first.function === "object" && first.function !== null ? (first.function as Record<string, unknown>) : undefined;
    if (fn) return toolCall(fn.name, fn.arguments, source);
    return toolCall(first.tool_name ?? first.name, first.arguments, source);
  }
  if (typeof value.name === "string" && ("arguments" in value || "parameters" in value || TOOL_NAMES.includes(value.name as never))) {
    return toolCall(value.name, value.arguments ?? value.parameters ?? {}, source);
  }
  if (value.action === "execute" && typeof value.query === "string") {
    const request = executeRequest(value.query);
    return request.tool === "sosl_search" ? toolCall("sosl_search", { search: request.search }, source) : toolCall("soql_query", { query: value.query }, source);
  }
  if (value.action === "respond" && "answer" in value) return answerFrom(value.answer, source);
  if ("answer" in value) return answerFrom(value.answer, source);
  return undefined;
}

function toolCall(name: unknown, rawArgs: unknown, source: ActionSource): Action {
  if (typeof name !== "string" || !TOOL_NAMES.includes(name as never)) {
    return { kind: "invalid", reason: `unknown tool ${JSON.stringify(name)}; the tools are ${TOOL_NAMES.join(", ")}`, source };
  }
  let args = rawArgs;
  if (typeof args === "string") {
    try {
      args = JSON.parse(args);
    } catch {
      return { kind: "invalid", reason: `the arguments of ${name} are a string that is not JSON`, source };
    }
  }
  const schema = ToolArgumentSchemas[name as keyof typeof ToolArgumentSchemas];
  const parsed = schema.safeParse(args ?? {});
  if (!parsed.success) {
    const issue = parsed.error.issues[0]!;
    const field = issue.path.length > 0 ? `argument '${issue.path.join(".")}'` : "arguments";
    return { kind: "invalid", reason: `bad ${field} for ${name}: ${issue.message}`, source };
  }
  if (name === "respond") return answerFrom((parsed.data as { answer: unknown }).answer, source);
  return { kind: "tool", ...({ tool: name, args: parsed.data } as OrgToolCall), source };
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

/** The query text of an action that reads data (SQL, SOQL or SOSL); undefined for anything else. */
export function queryText(action: Action): string | undefined {
  if (action.kind !== "tool") return undefined;
  if (action.tool === "sql_query" || action.tool === "soql_query") return action.args.query;
  if (action.tool === "sosl_search") return action.args.search;
  return undefined;
}

/** A query in an `<execute>` tag or an `{"action": "execute"}` object: SOSL or SOQL. */
export type ExecuteRequest = { readonly tool: "sosl_search"; readonly search: string } | { readonly tool: "soql_query"; readonly query: string };

/**
 * CRMArena-Pro's rule for `<execute>`: a text starting with FIND is SOSL, anything else SOQL,
 * after unwrapping a fenced code block and collapsing whitespace as its connector did.
 */
export function executeRequest(text: string): ExecuteRequest {
  const fence = /```[a-zA-Z]*\s*\n?([\s\S]*?)```/.exec(text);
  const query = (fence ? fence[1]! : text).replace(/\s+/g, " ").trim();
  return query.startsWith("FIND") ? { tool: "sosl_search", search: query } : { tool: "soql_query", query };
}
