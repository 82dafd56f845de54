import { z } from "zod";

const ANSWER = z.union([z.string(), z.number(), z.array(z.union([z.string(), z.number()])), z.null()]);

/** Arguments of each tool the purple agent may call, validated at the boundary. */
export const ToolArgumentSchemas = {
  describe_schema: z.object({ object: z.string().min(1).optional() }).strict(),
  soql_query: z.object({ query: z.string().trim().min(1, "query must not be empty") }).strict(),
  sosl_search: z.object({ search: z.string().trim().min(1, "search must not be empty") }).strict(),
  sql_query: z.object({ query: z.string().trim().min(1, "query must not be empty") }).strict(),
  // `content` is tau2-bench's name for the same argument; purples built on its conventions use it.
  respond: z
    .object({ answer: ANSWER.optional(), content: ANSWER.optional() })
    .strict()
    .refine((args) => "answer" in args || "content" in args, { message: "respond needs 'answer' (or its alias 'content')", path: ["answer"] })
    .transform((args) => ({ answer: "answer" in args ? args.answer : args.content })),
} as const;

export type ToolName = keyof typeof ToolArgumentSchemas;
export const TOOL_NAMES = Object.keys(ToolArgumentSchemas) as ToolName[];

/** A tool call that the org executes (everything but `respond`, which ends the episode). */
export type OrgToolCall =
  | { readonly tool: "describe_schema"; readonly args: z.infer<typeof ToolArgumentSchemas.describe_schema> }
  | { readonly tool: "soql_query"; readonly args: z.infer<typeof ToolArgumentSchemas.soql_query> }
  | { readonly tool: "sosl_search"; readonly args: z.infer<typeof ToolArgumentSchemas.sosl_search> }
  | { readonly tool: "sql_query"; readonly args: z.infer<typeof ToolArgumentSchemas.sql_query> };

/** An OpenAI function-calling tool definition, as sent to the purple agent. */
export interface ToolDefinition {
  readonly type: "function";
  readonly function: { readonly name: ToolName; readonly description: string; readonly parameters: Record<string, unknown> };
}

export const TOOL_DEFINITIONS: readonly ToolDefinition[] = [
  {
    type: "function",
    function: {
      name: "describe_schema",
      description: "Describe the org's objects: fields, types, relationships (references) and row counts. Give `object` for one object, omit it for all.",
      parameters: {
        type: "object",
        properties: { object: { type: "string", description: "Object name, e.g. Case. Omit to list every object." } },
        required: [],
      },
    },
  },
  {
    type: "function",
    function: {
      name: "soql_query",
      description:
        "Run a SOQL query, as on Salesforce: relationship paths (Account.ShippingState, Owner.Name), semi-joins, date literals (LAST_N_DAYS:30, THIS_QUARTER, 2023-01-31, 2023-01-31T00:00:00Z), aggregates with GROUP BY/HAVING, child subqueries. TODAY is the task's date.",
      parameters: {
        type: "object",
        properties: { query: { type: "string", description: "The SOQL query, e.g. SELECT Id, Subject FROM Case WHERE Status = 'Closed' LIMIT 5." } },
        required: ["query"],
      },
    },
  },
  {
    type: "function",
    function: {
      name: "sosl_search",
      description: "Run a SOSL text search, e.g. FIND {network scalability} IN ALL FIELDS RETURNING Knowledge__kav(Id, Title, FAQ_Answer__c).",
      parameters: {
        type: "object",
        properties: { search: { type: "string", description: "The SOSL search." } },
        required: ["search"],
      },
    },
  },
  {
    type: "function",
    function: {
      name: "sql_query",
      description:
        'Run one read-only SQLite SELECT (or WITH) query over the org; one table per object, one column per field. Quote the reserved names "Case", "Order" and "User". Dates are text: YYYY-MM-DD; datetimes YYYY-MM-DDTHH:MM:SS.000+0000.',
      parameters: {
        type: "object",
        properties: { query: { type: "string", description: "The SQL query." } },
        required: ["query"],
      },
    },
  },
  {
    type: "function",
    function: {
      name: "respond",
      description: "Give the final answer and end the task. Only the answer: several values comma-separated, None when nothing matches.",
      parameters: {
        type: "object",
        properties: { answer: { type: "string", description: "The final answer." } },
        required: ["answer"],
      },
    },
  },
];
