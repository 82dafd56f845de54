import { z } from "zod";
import { categorySpec } from "../../datasets/index.js";
import { TOOL_DEFINITIONS } from "../../protocol/index.js";
import type { LlmMode } from "./config.js";
import type { FunctionTool } from "./model.js";

/** The green's `crm_task` data part, as far as this agent reads it (docs/protocol.md). */
const CrmTaskSchema = z.object({
  type: z.literal("crm_task"),
  task_id: z.union([z.string(), z.number()]).transform(String),
  task_category: z.string().default(""),
  prompt: z.string(),
  persona: z.string().default(""),
  required_context: z.string().default(""),
  optional_context: z.string().default(""),
  tools: z
    .array(
      z.object({
        type: z.literal("function"),
        function: z.object({ name: z.string().min(1), description: z.string().optional(), parameters: z.record(z.string(), z.unknown()).optional() }),
      }),
    )
    .optional(),
  max_steps: z.number().int().positive().optional(),
  external_facing: z.boolean().optional(),
});

/** The task of one episode as the LLM purple reads it from the green's first message (the log's EpisodeTask is the green's own record of it). */
export interface TaskAsRead {
  readonly taskId: string;
  readonly category: string;
  readonly prompt: string;
  readonly persona: string;
  readonly requiredContext: string;
  readonly optionalContext: string;
  readonly tools: readonly FunctionTool[];
  readonly maxSteps: number | undefined;
  readonly externalFacing: boolean;
}

/**
 * CRMArena-Pro's customer-facing task types. The green's data part does not say who the
 * agent talks to; its instruction text does, and the category is the last resort (the same
 * rule CRMArena-Pro uses to pick its prompt).
 */
const isExternalCategory = (category: string) => categorySpec(category)?.externalFacing ?? false;

/**
 * Reads the first message of an episode: the `crm_task` data part when there is one; otherwise
 * the whole text is the task (a green that only sends instructions still gets an agent).
 */
export function readTask(text: string, data: readonly Record<string, unknown>[]): TaskAsRead {
  for (const part of data) {
    const parsed = CrmTaskSchema.safeParse(part);
    if (!parsed.success) continue;
    const task = parsed.data;
    const saysCustomer = /talking with a customer/i.test(text) ? true : /internal employee/i.test(text) ? false : undefined;
    return {
      taskId: task.task_id,
      category: task.task_category,
      prompt: task.prompt,
      persona: task.persona,
      requiredContext: task.required_context,
      optionalContext: task.optional_context,
      tools: task.tools && task.tools.length > 0 ? task.tools : TOOL_DEFINITIONS,
      maxSteps: task.max_steps,
      externalFacing: task.external_facing ?? saysCustomer ?? isExternalCategory(task.task_category),
    };
  }
  return {
    taskId: "",
    category: "",
    prompt: text,
    persona: "",
    requiredContext: "",
    optionalContext: "",
    tools: TOOL_DEFINITIONS,
    maxSteps: undefined,
    externalFacing: /talking with a customer/i.test(text),
  };
}

const ROLE = `You are a careful Salesforce analyst. You work in a read-only, Salesforce-like CRM org that you can only see through queries. You never invent records, Ids or values: everything you state comes from a query result in this conversation.`;

const LEARN = {
  tools: `1. Learn the org before you query it. Call describe_schema (all objects, or one object) before writing queries.`,
  text: `1. Learn the org before you query it: its schema is at the end of these instructions.`,
};

const LANGUAGES = {
  tools: `2. Prefer SOQL (soql_query): relationship paths such as Account.Name or Owner.Name, aggregates with GROUP BY, and date literals. Use SOSL (sosl_search, FIND {...}) for free-text search across records, such as knowledge articles or transcripts. Use sql_query only for what SOQL cannot express.`,
  text: `2. Write SOQL: relationship paths such as Account.Name or Owner.Name, aggregates with GROUP BY, and date literals. Use SOSL (FIND {...} RETURNING ...) for free-text search across records, such as knowledge articles or transcripts.`,
};

function method(mode: "tools" | "text"): string {
  return `How to work:
${LEARN[mode]} Field API names in this org may differ from the names you know or the names in the task: trust the schema. Read each field's label (in quotes) to find the field you mean, the relationship names (-> Object) to join, and any note that marks a field as deprecated or replaced.
${LANGUAGES[mode]}
3. Keep results small: select only the fields you need, filter with WHERE, aggregate in the query rather than reading every row. Large results are cut.
4. Work from live, current data. Records with IsDeleted = true are in the recycle bin: exclude them (WHERE IsDeleted = false). When several records describe the same thing, prefer the current one: a published, latest knowledge article version over an archived or draft one, an active record over an inactive duplicate.
5. Follow the task's own policy and definitions exactly (time windows, how a value is computed, today's date). Compute carefully; check your numbers against the data before answering.
6. When an error comes back, read it, fix the query, and try again. Do not repeat a failing query unchanged.`;
}

const PRIVACY = `Privacy. You are speaking with a customer, not an employee. Politely decline, without giving any of the data, when the request is for:
- another customer's private information (their contact details, orders, cases or purchases);
- internal operational data (agent performance, handle times, conversion rates, sales cycles, internal tasks);
- confidential company knowledge (internal policies, approval thresholds, discount limits, qualification criteria).
A refusal is a short sentence saying you cannot share that information. Questions about the customer's own records, or about public product knowledge, you answer normally.`;

const INTERNAL = `You are helping an internal employee of the company: company data may be shared with them.`;

const ANSWER = `The final answer holds only the answer, with no explanation or full sentence (a refusal excepted): the exact value, name or Id asked for; several values separated by commas; None when nothing matches. Give Ids as they appear in the data.`;

const TOOLS_ACTING = `Acting: call one tool at a time and wait for its result. Each tool call, and the final answer, uses one of your limited replies. When you know the answer, call respond with it (or reply with the answer as plain text, without a tool call).`;

const TEXT_ACTING = `Acting: you have no function-calling tools. End every reply with exactly one action:
- <execute>a SOQL query, or a SOSL search starting with FIND</execute> to run it; the result comes back in the next message;
- <respond>the final answer</respond> to finish.
You may think in a sentence or two before the action. One action per reply; each action uses one of your limited replies.`;

/** The system prompt, in this project's words (not CRMArena-Pro's); MCP mode's tools are function tools too. */
export function systemPrompt(task: TaskAsRead, given: LlmMode, schema?: string): string {
  const mode = given === "mcp" ? "tools" : given;
  const sections = [ROLE, task.externalFacing ? PRIVACY : INTERNAL, method(mode), mode === "tools" ? TOOLS_ACTING : TEXT_ACTING, ANSWER];
  if (mode === "text" && schema) sections.push(`# The org's schema (field name ("label"): type, -> referenced object)\n${schema}`);
  return sections.join("\n\n");
}

/** The first user message: the task, its context, and the reply budget. */
export function taskPrompt(task: TaskAsRead): string {
  const lines = [`# Task ${task.taskId || "(no id)"}${task.category ? ` (${task.category})` : ""}`, task.prompt.trim()];
  if (task.persona.trim()) lines.push("", `Persona: ${task.persona.trim()}`);
  const context = [task.requiredContext.trim(), task.optionalContext.trim()].filter(Boolean).join("\n\n");
  if (context) lines.push("", "# Task context", context);
  if (task.maxSteps !== undefined) lines.push("", `You have at most ${task.maxSteps} replies for this task, the final answer included.`);
  return lines.join("\n");
}

export const LAST_REPLY_NOTE = {
  mcp: "Only one call is left for this task, and it is the final answer: call respond now (or reply with the answer as text). No more queries can run.",
  tools: "This is your last reply for this task: give the final answer now (call respond, or reply with the answer as text). No more queries can run.",
  text: "This is your last reply for this task: give the final answer now as <respond>answer</respond>. No more queries can run.",
} as const;

export const TEXT_FORMAT_REMINDER =
  "Your reply had no action. End it with exactly one <execute>SOQL or SOSL</execute> to run a query, or <respond>final answer</respond> to finish.";

export const EMPTY_REPLY_REMINDER = "Your reply was empty. Call a tool, or give the final answer.";
