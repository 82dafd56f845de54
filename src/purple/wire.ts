import { STATUS_CODES } from "node:http";
import { z } from "zod";
import { type FirstIssue, parseOrThrow } from "../util/index.js";
import { shownBody } from "./echo.js";
import { type HttpReply, PurpleHttpFault } from "./http.js";

/**
 * What a purple's JSON-RPC reply must be before the SDK's transports read it (docs/protocol.md,
 * section 11): JSON, a JSON-RPC response to the request's id, with an `error` or a `result` that
 * is an A2A Message or Task in the version of the method called. The SDK reads what it is given on
 * trust (a missing result ends in "Cannot read properties of undefined"): checked here first, each
 * fault is told to the purple's author in the terms of the protocol, naming the field.
 */

/** A 0.3 part: `kind` says which; 1.0 parts name their content by key instead. */
const Part03 = z.looseObject(
  {
    kind: z.enum(["text", "data", "file"], { error: 'must be "text", "data" or "file"' }),
    text: z.unknown().optional(),
    data: z.unknown().optional(),
  },
  { error: "must be an object (a part)" },
);
const Message03 = z.looseObject({
  kind: z.literal("message"),
  parts: z.array(
    Part03.refine((part) => part.kind !== "text" || typeof part.text === "string", { error: "a text part's text must be a string", path: ["text"] }),
    { error: "must be an array of parts" },
  ),
});
const Status = z.looseObject({ state: z.string({ error: "must be a string" }), message: z.unknown().optional() }, { error: "must be an object" });
const Task03 = z.looseObject({ kind: z.literal("task"), id: z.string({ error: "must be a string" }), status: Status });
const Result03 = z.discriminatedUnion("kind", [Message03, Task03], { error: 'must be an A2A Message or Task (an object whose "kind" is "message" or "task")' });

const Part10 = z.looseObject({ text: z.string({ error: "must be a string" }).optional() }, { error: "must be an object" });
const Message10 = z.looseObject({ parts: z.array(Part10, { error: "must be an array of parts" }).optional() }, { error: "must be an object" });
const Task10 = z.looseObject({ id: z.string({ error: "must be a string" }), status: Status }, { error: "must be an object" });
const SEND_RESULT_10 = 'must be an object with a "message" (an A2A Message) or a "task" (an A2A Task)';
/** Which of the two a 1.0 send result holds decides what is checked: the error then names the field inside it. */
const SendResult10 = z.unknown().check((context) => {
  const value = context.value;
  const holder = typeof value === "object" && value !== null && !Array.isArray(value) ? (value as Record<string, unknown>) : undefined;
  const [key, schema] = holder?.task !== undefined ? (["task", Task10] as const) : holder?.message !== undefined ? (["message", Message10] as const) : [undefined, undefined];
  if (!key || !schema) {
    context.issues.push({ code: "custom", message: SEND_RESULT_10, input: value, path: [] });
    return;
  }
  const checked = schema.safeParse(holder![key]);
  for (const issue of checked.error?.issues ?? []) context.issues.push({ ...issue, path: [key, ...issue.path] } as never);
});

/** Each method the green calls and what its result must be. */
const RESULTS: Record<string, z.ZodType> = {
  "message/send": Result03,
  "tasks/get": Task03,
  SendMessage: SendResult10,
  GetTask: Task10,
};

const V10_METHODS = new Set(["SendMessage", "GetTask"]);

const ErrorObject = z.looseObject({ code: z.number({ error: "must be a number" }), message: z.string({ error: "must be a string" }) }, { error: "must be an object" });

/** The method and id of a request the SDK wrote (`{"jsonrpc":"2.0","method":...,"params":...,"id":n}`). */
export function rpcCallOf(body: string): { method: string; id: unknown } | undefined {
  const method = /^\{"jsonrpc":"2\.0","method":"([^"]+)"/.exec(body)?.[1];
  // From the end: a regular expression anchored there still scans the whole body for its start.
  const id = /^"id":(\d+)\}$/.exec(body.slice(body.lastIndexOf('"id":')))?.[1];
  if (method !== undefined && id !== undefined) return { method, id: Number(id) };
  try {
    const parsed = JSON.parse(body) as { method?: unknown; id?: unknown };
    return typeof parsed.method === "string" ? { method: parsed.method, id: parsed.id } : undefined;
  } catch {
    return undefined;
  }
}

/** A JSON-RPC id as a message shows it: a number or a short token (the ids clients write), else only that it is another. */
function shownId(value: unknown): string {
  if (value === undefined) return "missing";
  if (typeof value === "number" || (typeof value === "string" && /^[\w-]{0,36}$/.test(value))) return JSON.stringify(value);
  return "another value";
}

function protocolFault(method: string, what: string): PurpleHttpFault {
  return new PurpleHttpFault("protocol", `the purple agent's reply to ${method} ${what}`);
}

/** The first issue of a failed check, as `field problem` under `root` (a path of the reply's own keys, cut: the keys are its content). */
function issueText(issue: FirstIssue, root: string): string {
  const path = issue.path ? `${root}.${issue.path}` : root;
  return `${path.length > 100 ? `${path.slice(0, 100)}…` : path} ${issue.message}`;
}

/**
 * Throws a PurpleHttpFault("protocol") for a reply the transports cannot use; returns for one they
 * can (including a well-formed JSON-RPC error, which the caller reads with its code), with the
 * JSON it parsed (undefined when the body is not JSON), so that the transport need not parse it again.
 */
export function checkRpcReply(method: string, id: unknown, reply: HttpReply): unknown {
  const { status, body } = reply;
  // Its status and content type only (echo.ts): the participant URL may be any address the green reaches.
  // Made only for a fault: most replies are fine.
  const shown = () => shownBody(reply.headers, body);
  let json: unknown;
  let parsed = false;
  if (body.byteLength > 0) {
    try {
      json = JSON.parse(body.toString("utf8"));
      parsed = true;
    } catch {
      parsed = false;
    }
  }
  const isError = parsed && typeof json === "object" && json !== null && "error" in json && (json as { error?: unknown }).error !== undefined;
  if (status < 200 || status > 299) {
    // An error status with a JSON-RPC error body is read for its code (-32601: another A2A version).
    if (isError) {
      checkError(method, json as { error: unknown });
      return json;
    }
    throw protocolFault(method, `is HTTP ${status} ${STATUS_CODES[status] ?? ""}`.trimEnd() + (body.byteLength > 0 ? ` (${shown()})` : " with no body"));
  }
  if (body.byteLength === 0) throw protocolFault(method, `is empty (HTTP ${status}, no body): a JSON-RPC response was expected`);
  if (!parsed) throw protocolFault(method, `is not JSON (${shown()})`);
  if (typeof json !== "object" || json === null || Array.isArray(json))
    throw protocolFault(method, `is not a JSON-RPC response object (${Array.isArray(json) ? "an array" : json === null ? "null" : `a ${typeof json}`}, ${shown()})`);
  const envelope = json as { jsonrpc?: unknown; id?: unknown; result?: unknown; error?: unknown };
  // A2A 1.0's transport requires the version member; 0.3 purples have long been read without it.
  if (envelope.jsonrpc !== "2.0" && V10_METHODS.has(method))
    throw protocolFault(method, `is not a JSON-RPC 2.0 response: "jsonrpc" must be "2.0" (${envelope.jsonrpc === undefined ? "it is missing" : "it is something else"})`);
  if (isError) {
    checkError(method, envelope);
    return json;
  }
  if (envelope.id !== id) throw protocolFault(method, `answers another request: its "id" is ${shownId(envelope.id)}, the request's was ${JSON.stringify(id)}`);
  if (envelope.result === undefined || envelope.result === null)
    throw protocolFault(method, `has neither a "result" nor an "error": a JSON-RPC response carries one of them (here the result is the A2A Message or Task)`);
  const schema = RESULTS[method];
  if (!schema) return json;
  parseOrThrow(schema, envelope.result, (_, issue) => protocolFault(method, `is no A2A ${method} result: ${issueText(issue, "result")}`));
  return json;
}

function checkError(method: string, envelope: { error?: unknown }): void {
  parseOrThrow(ErrorObject, envelope.error, (_, issue) => protocolFault(method, `has a malformed JSON-RPC error: ${issueText(issue, "error")}`));
}
