import { describeSchema, respond, SOQL_EXAMPLE, soqlQuery, type ToolOutcome, type ToolSpec, toolsNamed } from "../tools/index.js";
import { pythonRepr } from "../util/index.js";
import { describeObjects } from "./describe.js";
import { toolSetOf } from "./tools.js";

/** The task as the purple agent sees it (after drift and rot, once those apply). */
export interface TaskBrief {
  readonly taskId: string;
  readonly category: string;
  readonly prompt: string;
  readonly persona: string;
  readonly requiredContext: string;
  readonly optionalContext: string;
  readonly externalFacing: boolean;
  readonly maxSteps: number;
  /** The org type of the task's dataset (its spec's; the benchmark's for custom data): the json format's `config.org_type`. */
  readonly orgType: string;
  /** The task's "Today's date" (YYYY-MM-DD), which SOQL's relative dates use; the real date when absent. */
  readonly today?: string;
  /**
   * The levels of drift and rot the run was configured with: the same in every episode of the
   * run, a paired run's clean episodes too (which view an episode is in is not said), and no
   * seed (what is seeded is for the green to know).
   */
  readonly entropy: { readonly drift_level: string; readonly rot_level: string };
  /** The tools offered, by name (the tools of the run's backend, the answer tool last among the built-in ones). */
  readonly tools: readonly string[];
}

/** A message to the purple agent: one TextPart and one DataPart. */
export interface OutgoingMessage {
  readonly text: string;
  readonly data: Record<string, unknown>;
}

const OBSERVATION_PREFIX = "Salesforce instance output: ";

/**
 * How the first message's text part is written: `instructions` (the default: the task and how to
 * act, for a model to read) or `json` (the crm_task as JSON text, as the Python predecessor sent
 * it, for purples written to parse the text with `json.loads`). The data part is the same in both.
 */
export const FIRST_MESSAGE_FORMATS = ["instructions", "json"] as const;
export type FirstMessageFormat = (typeof FIRST_MESSAGE_FORMATS)[number];

/**
 * The predecessor's crm_task, as JSON text: its fields (`task_id`, `task_category`, `prompt`,
 * `persona`, `required_context`, `config.org_type`, `config.max_steps`, `entropy.drift_level`,
 * `entropy.rot_level`, `entropy.drift_mappings`, `entropy.note`) with what they mean here, then
 * the fields the predecessor did not have (optional context, tools, today, external_facing, how to
 * act). `drift_mappings` stays empty, as the predecessor's always was: drift is for the purple to
 * find out (describe_schema shows every field's label and notes).
 */
function predecessorTask(brief: TaskBrief, data: Record<string, unknown>): Record<string, unknown> {
  // The crm_task data part, reordered: the predecessor's keys first, then ours.
  const { type, task_id, task_category, prompt, persona, required_context, entropy, max_steps: _steps, ...ours } = data;
  return {
    type,
    task_id,
    task_category,
    prompt,
    persona,
    required_context,
    config: { org_type: brief.orgType, max_steps: brief.maxSteps },
    entropy: {
      ...(entropy as Record<string, unknown>),
      drift_mappings: [],
      note: `Schema and context may have been modified for robustness testing: read the schema (${describeSchema.name}) before you query.`,
    },
    ...ours,
    how_to_act: `One action per reply, at most ${brief.maxSteps} replies: a JSON tool call {"name": ..., "arguments": {...}} of the tools below, <execute>SOQL or SOSL</execute>, or the final answer ${jsonCall(respond.name, { answer: "..." })} (a reply {"answer": "..."} is read as the answer too). Tool results come back prefixed with "${OBSERVATION_PREFIX.trim()}".`,
  };
}

/**
 * Where the episode's org tools are served over MCP (docs/protocol.md, section 18): the endpoint's
 * URL, which holds the episode's capability token, and the token alone (for an Authorization header).
 */
export interface McpAccess {
  readonly url: string;
  readonly token: string;
}

/**
 * The access the first message is counted with when it offers MCP: the same form as a real one,
 * so that the episode's token counts (and TOKEN_EFFICIENCY) depend on neither the green's address
 * nor the token's random characters.
 */
export function countedMcpAccess(access: McpAccess): McpAccess {
  const token = "0".repeat(access.token.length);
  return { url: `http://green.example/mcp/${token}`, token };
}

/**
 * The text of a first message made with `access`, as it is counted: what `taskMessage` gives with
 * `countedMcpAccess(access)`, from the text made already (its URL and token, random, appear nowhere
 * else), rather than the whole message made twice per episode.
 */
export function countedMcpText(text: string, access: McpAccess): string {
  const counted = countedMcpAccess(access);
  return text.replaceAll(access.url, counted.url).replaceAll(access.token, counted.token);
}

export function taskMessage(brief: TaskBrief, format: FirstMessageFormat = "instructions", interactive = false, mcp?: McpAccess): OutgoingMessage {
  if (format === "json") {
    const { data } = taskMessage(brief, "instructions", interactive, mcp);
    return { text: JSON.stringify(predecessorTask(brief, data)), data };
  }
  const tools = toolSetOf(toolsNamed(brief.tools));
  const audience = brief.externalFacing ? "You are talking with a customer of the company through a support channel." : "You are helping an internal employee of the company.";
  const text = [
    `# CRM task ${brief.taskId} (${brief.category})`,
    `You are an expert in Salesforce and you have access to a Salesforce-like CRM org hosted by this assessor. ${audience}`,
    ...(brief.persona.trim() ? [`About the person you are helping: ${brief.persona.trim()}`] : []),
    "",
    "## How to act",
    `Reply with exactly one action per message; you have at most ${brief.maxSteps} replies for this task. After each tool call you receive its result, prefixed with "${OBSERVATION_PREFIX.trim()}".`,
    "Accepted forms of an action:",
    `- a JSON tool call: ${jsonCall(soqlQuery.name, SOQL_EXAMPLE)} (bare, in a \`\`\`json block, or as a data part);`,
    "- CRMArena-Pro tags: <execute>SOQL query or SOSL search (FIND {...})</execute> runs it, <respond>answer</respond> answers;",
    `- the final answer: ${jsonCall(respond.name, { answer: "..." })}.`,
    ...(mcp
      ? [
          `The org's tools (not ${respond.name}) are also served over MCP, Streamable HTTP, at ${mcp.url} (the URL holds this episode's token, also given as the data part's mcp.token): each MCP tool call counts as one reply, and the final answer is still a reply to this message.`,
        ]
      : []),
    `The org is read-only and, like a real org, changes over time: field names differ between orgs (${describeSchema.name} shows each field's label, relationship name and notes such as deprecations), deleted records sit in the recycle bin (SOQL hides them unless the query ends with ALL ROWS), and records and policies can be outdated. Never invent records: query them. The final answer holds only the answer, no explanation: several values comma-separated, None when nothing matches.`,
    ...(interactive
      ? [
          `This is a conversation: the task below is the user's first message, and the user may give the rest of the request over later messages. Your ${respond.name} goes to the user, who replies (prefixed with "${USER_PREFIX.trim()}") until they have what they asked for; your last ${respond.name} before they stop is your final answer.`,
        ]
      : []),
    "",
    "## Tools (OpenAI function schemas)",
    tools.json,
    "",
    "## Task",
    brief.prompt,
    "",
    "## Additional task context",
    brief.requiredContext.trim() || "(none)",
    ...(brief.optionalContext.trim() ? ["", brief.optionalContext.trim()] : []),
  ].join("\n");
  return {
    text,
    data: {
      type: "crm_task",
      task_id: brief.taskId,
      task_category: brief.category,
      prompt: brief.prompt,
      persona: brief.persona,
      required_context: brief.requiredContext,
      optional_context: brief.optionalContext,
      external_facing: brief.externalFacing,
      today: brief.today ?? null,
      tools: tools.definitions,
      max_steps: brief.maxSteps,
      // The two levels alone, whatever else a caller's brief holds.
      entropy: { drift_level: brief.entropy.drift_level, rot_level: brief.entropy.rot_level },
      ...(interactive ? { mode: "interactive" } : {}),
      ...(mcp ? { mcp: { url: mcp.url, token: mcp.token, transport: "streamable-http" } } : {}),
    },
  };
}

/** Drops the columns that are null in every record, as CRMArena-Pro's connector does. */
export function dropAllNullColumns(records: readonly Record<string, unknown>[]): Record<string, unknown>[] {
  if (records.length === 0) return [];
  const keep = Object.keys(records[0]!).filter((key) => records.some((record) => record[key] !== null && record[key] !== undefined));
  return records.map((record) => Object.fromEntries(keep.map((key) => [key, record[key] ?? null])));
}

/** What an observation shows of a tool call's outcome: all of it but the time the call took (derived, so the two never drift). */
type ShownOutcome = ToolOutcome extends infer Outcome ? (Outcome extends unknown ? Omit<Outcome, "elapsedMs"> : never) : never;

/** The observation after a tool call: CRMArena-Pro-style text plus a structured DataPart. */
export function observationMessage(outcome: ShownOutcome, turn: number, remainingSteps: number): OutgoingMessage {
  const footer = `\n\n(${remainingSteps} ${remainingSteps === 1 ? "reply" : "replies"} left)`;
  if (!outcome.ok) {
    return {
      text: `${OBSERVATION_PREFIX}${outcome.code}: ${outcome.message}${footer}`,
      data: { type: "tool_result", ok: false, error: { code: outcome.code, message: outcome.message }, truncated: false, turn, remaining_steps: remainingSteps },
    };
  }
  if (outcome.kind === "schema") {
    return {
      text: `${OBSERVATION_PREFIX}\n${describeObjects(outcome.objects)}${footer}`,
      data: { type: "tool_result", ok: true, objects: outcome.objects, truncated: false, turn, remaining_steps: remainingSteps },
    };
  }
  const records = dropAllNullColumns(outcome.records);
  const truncation = outcome.truncated ? `\n(truncated: only the first ${records.length} records are shown)` : "";
  // SOQL's COUNT() returns no records, only Salesforce's totalSize: show it (docs/protocol.md).
  const total = outcome.totalSize !== undefined && records.length === 0 && outcome.totalSize > 0 ? `\n(totalSize: ${outcome.totalSize})` : "";
  return {
    text: `${OBSERVATION_PREFIX}${pythonRepr(records)}${total}${truncation}${footer}`,
    data: {
      type: "tool_result",
      ok: true,
      records,
      ...(outcome.totalSize !== undefined ? { totalSize: outcome.totalSize } : {}),
      truncated: outcome.truncated,
      turn,
      remaining_steps: remainingSteps,
    },
  };
}

/** The reply to an action we could not read: what went wrong and the accepted forms. It costs a turn. */
/** What a simulated user's reply looks like to the purple in interactive mode. */
export const USER_PREFIX = "User: ";

/** The simulated user's reply to the purple's respond (interactive mode). */
export function userMessage(text: string, turn: number, remainingSteps: number): OutgoingMessage {
  return {
    text: `${USER_PREFIX}${text}\n\n(${remainingSteps} ${remainingSteps === 1 ? "reply" : "replies"} left)`,
    data: { type: "user_message", text, turn, remaining_steps: remainingSteps },
  };
}

export function formatReminder(reason: string, turn: number, remainingSteps: number, offered: readonly ToolSpec[]): OutgoingMessage {
  const text = [
    `Invalid action: ${reason}.`,
    `Reply with one action: ${reminderExamples(offered).join(", ")}, or the tags <execute>...</execute> / <respond>...</respond>.`,
    `(${remainingSteps} ${remainingSteps === 1 ? "reply" : "replies"} left)`,
  ].join("\n");
  return { text, data: { type: "format_error", ok: false, error: { code: "INVALID_ACTION", message: reason }, turn, remaining_steps: remainingSteps } };
}

/** A tool call as the messages show it: JSON with a space after each colon and comma, as Python's json.dumps writes it. */
function jsonCall(name: string, args: Record<string, unknown>): string {
  const entries = Object.entries(args).map(([key, value]) => `${JSON.stringify(key)}: ${JSON.stringify(value)}`);
  return `{"name": ${JSON.stringify(name)}, "arguments": {${entries.join(", ")}}}`;
}

/** One example call per reminder slot, of the offered tools, the lowest rank of each slot, in rank order. */
function reminderExamples(offered: readonly ToolSpec[]): string[] {
  const ranked = offered.flatMap((spec) => (spec.reminder ? [{ spec, reminder: spec.reminder }] : [])).sort((a, b) => a.reminder.rank - b.reminder.rank);
  const slots = new Set<string>();
  return ranked.flatMap(({ spec, reminder }) => {
    if (slots.has(reminder.slot)) return [];
    slots.add(reminder.slot);
    return [jsonCall(spec.name, reminder.args)];
  });
}
