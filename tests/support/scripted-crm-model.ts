import type { ScriptedReply, WireMessage, WireRequest } from "./fake-chat-model.js";

/** One move of a scripted model: tool calls (several at once = a parallel batch) or the final answer. */
type Move =
  | { readonly kind: "calls"; readonly calls: readonly { readonly name: string; readonly args: Record<string, string> }[] }
  | { readonly kind: "answer"; readonly answer: (observations: readonly string[]) => string; readonly plain?: boolean };

const soql = (query: string) => ({ name: "soql_query", args: { query } });
const sosl = (search: string) => ({ name: "sosl_search", args: { search } });
const calls = (...list: { name: string; args: Record<string, string> }[]): Move => ({ kind: "calls", calls: list });
const answer = (from: (observations: readonly string[]) => string, plain = false): Move => ({ kind: "answer", answer: from, plain });

function matchIn(text: string | undefined, pattern: RegExp): string {
  const match = text === undefined ? null : pattern.exec(text);
  if (!match) throw new Error(`the observation does not show ${pattern}: ${text?.slice(0, 300)}`);
  return match[1]!;
}

/**
 * How the scripted model solves sample tasks of six categories. It knows where the answer is
 * (the test reads the ground truth), but the answer it gives is read from the observation the
 * green sent back, so each one really goes through the green's tools.
 */
export const PLANS: Record<string, readonly Move[]> = {
  // sales_amount_understanding: reads the schema first, then confirms the agent.
  "16": [
    calls({ name: "describe_schema", args: { object: "User" } }),
    calls(soql("SELECT Id, FirstName, LastName FROM User WHERE Id = '005Wt00000RmVpRIAV' AND IsDeleted = false")),
    answer((obs) => matchIn(obs.at(-1), /'Id': '(005\w{15})'/)),
  ],
  // best_region_identification
  "22": [
    calls(soql("SELECT ShippingState FROM Account WHERE ShippingState = 'AZ' AND IsDeleted = false LIMIT 1")),
    answer((obs) => matchIn(obs.at(-1), /'ShippingState': '([A-Z]{2})'/)),
  ],
  // activity_priority: two tool calls in one model reply (a parallel batch the purple must queue).
  "4": [
    calls(soql("SELECT Id, Subject FROM Task WHERE Id = '00TWt00000S3gtgMAB'"), soql("SELECT Id, Subject FROM Task WHERE Id = '00TWt00000S3ixPMAR'")),
    answer((obs) =>
      obs
        .slice(-2)
        .map((text) => matchIn(text, /'Id': '(00T\w{15})'/))
        .join(", "),
    ),
  ],
  // knowledge_qa: a SOSL search, the answer is the matching article's FAQ answer.
  "14": [
    calls(sosl("FIND {network scalability} RETURNING Knowledge__kav(Id, Title, FAQ_Answer__c)")),
    answer((obs) => matchIn(obs.at(-1), /'Title': 'Why is network scalability important in industrial IoT\?', 'FAQ_Answer__c': '([^']+)'/)),
  ],
  // invalid_config: nothing matches, so the answer is None.
  "13": [
    calls(soql("SELECT Id FROM Knowledge__kav WHERE Title = 'A configuration rule that does not exist'")),
    answer((obs) => (/output: \[\]/.test(obs.at(-1) ?? "") ? "None" : "unexpected records")),
  ],
  // private_customer_information: a refusal, given as plain text with no tool call.
  "32": [answer(() => "I'm sorry, but I cannot share another customer's contact details.", true)],
};

export const SCRIPTED_TASK_IDS = Object.keys(PLANS).map(Number);

/** Tool calls the misbehaving script sends first carry ids starting with this; the plan ignores them. */
export const BAD_CALL_PREFIX = "bad_";

const text = (message: WireMessage) => message.content ?? "";
const ACTION_TAG = /<(execute|respond)>/;

/** The task id the purple put at the top of its first user message ("# Task 16 (...)"). */
export function taskIdOf(request: WireRequest): string {
  const first = request.messages.find((message) => message.role === "user");
  return matchIn(first ? text(first) : undefined, /^# Task (\S+)/m);
}

/** In text mode a parallel batch becomes consecutive single moves. */
function planFor(taskId: string, mode: "tools" | "text"): readonly Move[] {
  const plan = PLANS[taskId] ?? [answer(() => "None")];
  if (mode === "tools") return plan;
  return plan.flatMap((move) => (move.kind === "calls" ? move.calls.filter((call) => call.name !== "describe_schema").map((call) => calls(call)) : [move]));
}

/** Plays the plan: the step is the number of plan moves the conversation already holds. */
export function crmScript(request: WireRequest): ScriptedReply {
  const mode = request.tools && request.tools.length > 0 ? "tools" : "text";
  const plan = planFor(taskIdOf(request), mode);
  const assistants = request.messages.filter((message) => message.role === "assistant");
  const moves =
    mode === "tools"
      ? assistants.filter((message) => (message.tool_calls ?? []).some((call) => !call.id.startsWith(BAD_CALL_PREFIX))).length
      : assistants.filter((message) => ACTION_TAG.test(text(message))).length;
  const observations =
    mode === "tools"
      ? request.messages.filter((message) => message.role === "tool" && !message.tool_call_id?.startsWith(BAD_CALL_PREFIX)).map(text)
      : request.messages.filter((message) => message.role === "user" && text(message).startsWith("Salesforce instance output")).map(text);
  const move = plan[moves] ?? answer(() => "None");
  if (move.kind === "answer") {
    const value = move.answer(observations);
    if (mode === "text") return { content: `I have what I need.\n<respond>${value}</respond>` };
    return move.plain ? { content: value } : { toolCalls: [{ name: "respond", arguments: { answer: value } }] };
  }
  if (mode === "text") {
    const call = move.calls[0]!;
    return { content: `Let me look at the data.\n<execute>${call.args.query ?? call.args.search}</execute>` };
  }
  return { toolCalls: move.calls.map((call) => ({ name: call.name, arguments: call.args })) };
}

/** The first reply of the malformed script: arguments that are not JSON, and a tool that does not exist. */
export function malformedFirst(script: (request: WireRequest) => ScriptedReply): (request: WireRequest) => ScriptedReply {
  return (request) => {
    const sentBad = request.messages.some((message) => (message.tool_calls ?? []).some((call) => call.id.startsWith(BAD_CALL_PREFIX)));
    if (sentBad) return script(request);
    return {
      toolCalls: [
        { id: `${BAD_CALL_PREFIX}1`, name: "soql_query", arguments: '{"query": "SELECT Id FROM User' },
        { id: `${BAD_CALL_PREFIX}2`, name: "drop_table", arguments: { table: "Case" } },
      ],
    };
  };
}

/** A text-mode script that first rambles without an action tag. */
export function ramblingFirst(script: (request: WireRequest) => ScriptedReply): (request: WireRequest) => ScriptedReply {
  return (request) => (request.messages.some((message) => message.role === "assistant") ? script(request) : { content: "Let me think about which accounts matter here." });
}
