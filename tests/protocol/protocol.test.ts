import { describe, expect, it } from "vitest";
import {
  countedMcpAccess,
  countedMcpText,
  dropAllNullColumns,
  FIRST_MESSAGE_FORMATS,
  observationMessage,
  parseAction,
  type TaskBrief,
  taskMessage,
} from "../../src/protocol/index.js";
import { usageFrom } from "../../src/purple/index.js";
import { BUILT_IN_TOOLS } from "../../src/tools/index.js";

const reply = (text: string, data: Record<string, unknown>[] = []) => ({ texts: [text], data });

describe("parsing purple actions", () => {
  it("reads JSON tool calls: bare, fenced, embedded, and as a data part", () => {
    const expected = { kind: "tool", tool: "sql_query", args: { query: "SELECT Id FROM Account" } };
    expect(parseAction(reply('{"name": "sql_query", "arguments": {"query": "SELECT Id FROM Account"}}'))).toMatchObject({ ...expected, source: "json" });
    expect(parseAction(reply('```json\n{"name": "sql_query", "arguments": {"query": "SELECT Id FROM Account"}}\n```'))).toMatchObject(expected);
    expect(parseAction(reply('I will look it up.\n{"name": "sql_query", "arguments": "{\\"query\\": \\"SELECT Id FROM Account\\"}"}'))).toMatchObject(expected);
    expect(parseAction(reply("", [{ name: "sql_query", arguments: { query: "SELECT Id FROM Account" } }]))).toMatchObject({ ...expected, source: "data_part" });
    expect(parseAction(reply("", [{ tool_calls: [{ tool_name: "describe_schema", arguments: { object: "Case" } }] }]))).toMatchObject({
      kind: "tool",
      tool: "describe_schema",
      args: { object: "Case" },
    });
  });

  it("reads CRMArena-Pro tags: FIND is SOSL, anything else SOQL, fences unwrapped", () => {
    expect(parseAction(reply("<thought>count</thought>\n<execute>```sql\nSELECT COUNT()\n  FROM Lead\n```</execute>"))).toMatchObject({
      kind: "tool",
      tool: "soql_query",
      args: { query: "SELECT COUNT() FROM Lead" },
      source: "tag",
    });
    expect(parseAction(reply("<execute>FIND {Joe Smith} IN NAME FIELDS RETURNING Lead(Name, Phone)</execute>"))).toMatchObject({
      kind: "tool",
      tool: "sosl_search",
      args: { search: "FIND {Joe Smith} IN NAME FIELDS RETURNING Lead(Name, Phone)" },
    });
    expect(parseAction(reply('{"action": "execute", "query": "SELECT Id FROM Case"}'))).toMatchObject({ kind: "tool", tool: "soql_query" });
    expect(parseAction(reply('{"name": "sosl_search", "arguments": {"search": "FIND {x1}"}}'))).toMatchObject({ kind: "tool", tool: "sosl_search", args: { search: "FIND {x1}" } });
    expect(parseAction(reply("<respond> 005Wt000003NDqDIAW </respond>"))).toEqual({ kind: "answer", answer: "005Wt000003NDqDIAW", source: "tag" });
  });

  it("takes answers from respond calls, answer objects and plain text", () => {
    expect(parseAction(reply('{"name": "respond", "arguments": {"answer": ["a", "b"]}}'))).toMatchObject({ kind: "answer", answer: "a, b" });
    expect(parseAction(reply('The answer is below.\n{"task_id": "5", "answer": "MI", "metrics": {}}'))).toMatchObject({ kind: "answer", answer: "MI" });
    expect(parseAction(reply("", [{ answer: null }]))).toMatchObject({ kind: "answer", answer: "None" });
    expect(parseAction(reply("November"))).toEqual({ kind: "answer", answer: "November", source: "text" });
  });

  it("explains what it cannot use", () => {
    expect(parseAction(reply("   "))).toMatchObject({ kind: "invalid", reason: "the reply has no text and no usable data part" });
    expect(parseAction(reply('{"name": "sql_query", "arguments": {"query": ""}}'))).toMatchObject({
      kind: "invalid",
      reason: "bad argument 'query' for sql_query: query must not be empty",
    });
    expect(parseAction(reply('{"name": "sql_query", "arguments": {"sql": "SELECT 1"}}'))).toMatchObject({
      kind: "invalid",
      reason: expect.stringMatching(/^bad argument 'query' for sql_query/),
    });
    expect(parseAction(reply('{"name": "rm", "arguments": {}}'))).toMatchObject({
      kind: "invalid",
      reason: 'unknown tool "rm"; the tools are describe_schema, soql_query, sosl_search, sql_query, respond',
    });
    expect(parseAction(reply('{"name": "sql_query", "arguments": {"query": "SELECT 1"'))).toMatchObject({
      kind: "invalid",
      reason: expect.stringMatching(/^the reply looks like JSON but does not parse/),
    });
    expect(parseAction(reply("<execute>  </execute>"))).toMatchObject({ kind: "invalid", reason: "the <execute> tag is empty" });
  });
});

describe("messages to the purple agent", () => {
  const brief: TaskBrief = {
    taskId: "7",
    category: "handle_time",
    prompt: "Who?",
    persona: "You are careful.",
    requiredContext: "## Today's date: 2023-01-01",
    optionalContext: "# Domain",
    externalFacing: false,
    maxSteps: 5,
    orgType: "b2b",
    entropy: { drift_level: "none", rot_level: "none" },
    tools: BUILT_IN_TOOLS.map((tool) => tool.name),
  };

  it("sends the task as text and as a crm_task data part with the tools", () => {
    const message = taskMessage(brief);
    expect(message.text).toContain("Who?");
    expect(message.text).toContain("## Today's date: 2023-01-01");
    expect(message.text).toContain("at most 5 replies");
    expect(message.data).toMatchObject({ type: "crm_task", task_id: "7", task_category: "handle_time", max_steps: 5 });
    // The levels the run was configured with, and no seed (docs/protocol.md, section 5).
    expect(message.data.entropy).toEqual({ drift_level: "none", rot_level: "none" });
    expect((message.data.tools as { function: { name: string } }[]).map((tool) => tool.function.name)).toEqual([
      "describe_schema",
      "soql_query",
      "sosl_search",
      "sql_query",
      "respond",
    ]);
  });

  it("counts a first message that offers MCP as if made with the standard access (countedMcpText)", () => {
    const access = { url: "http://127.0.0.1:9009/green/mcp/Zk3_x-0aB9Zk3_x-0aB9Zk3_x-0aB9Zk", token: "Zk3_x-0aB9Zk3_x-0aB9Zk3_x-0aB9Zk" };
    for (const format of FIRST_MESSAGE_FORMATS)
      for (const interactive of [false, true]) {
        const made = taskMessage(brief, format, interactive, access).text;
        expect(made).toContain(access.url);
        expect(countedMcpText(made, access)).toBe(taskMessage(brief, format, interactive, countedMcpAccess(access)).text);
      }
  });

  it("renders observations as CRMArena-Pro does, dropping all-null columns", () => {
    const records = [
      { Id: "500A", ClosedDate: null, Amount: 5.5 },
      { Id: "500B", ClosedDate: null, Amount: null },
    ];
    expect(dropAllNullColumns(records)).toEqual([
      { Id: "500A", Amount: 5.5 },
      { Id: "500B", Amount: null },
    ]);
    const message = observationMessage({ ok: true, kind: "records", records, truncated: false }, 2, 3);
    expect(message.text).toBe("Salesforce instance output: [{'Id': '500A', 'Amount': 5.5}, {'Id': '500B', 'Amount': None}]\n\n(3 replies left)");
    expect(message.data).toMatchObject({ type: "tool_result", ok: true, truncated: false, turn: 2, remaining_steps: 3 });
    const error = observationMessage({ ok: false, code: "SQL_ERROR", message: "no such column: Foo" }, 1, 1);
    expect(error.text).toBe("Salesforce instance output: SQL_ERROR: no such column: Foo\n\n(1 reply left)");
    expect(observationMessage({ ok: true, kind: "records", records: [], truncated: false }, 1, 1).text).toMatch(/^Salesforce instance output: \[\]/);
    expect(observationMessage({ ok: true, kind: "records", records: [], truncated: false, totalSize: 100 }, 1, 1).text).toBe(
      "Salesforce instance output: []\n(totalSize: 100)\n\n(1 reply left)",
    );
  });
});

describe("reported token usage", () => {
  it("is read from metadata.usage or a usage data part, in OpenAI or Anthropic names", () => {
    expect(usageFrom({ usage: { input_tokens: 120, output_tokens: 30 } }, [])).toEqual({ inputTokens: 120, outputTokens: 30 });
    expect(usageFrom(undefined, [{ type: "usage", prompt_tokens: 50, completion_tokens: 5 }])).toEqual({ inputTokens: 50, outputTokens: 5 });
    expect(usageFrom(undefined, [{ usage: { input_tokens: 7, output_tokens: 1 } }])).toEqual({ inputTokens: 7, outputTokens: 1 });
    expect(usageFrom({ usage: { input_tokens: -1, output_tokens: 2 } }, [{ name: "respond" }])).toBeUndefined();
  });
});

describe("tool calls in the shapes models write them", () => {
  it("reads OpenAI's raw tool_calls shape and tau2-bench's respond with content", () => {
    const raw = { tool_calls: [{ id: "call_1", type: "function", function: { name: "soql_query", arguments: '{"query": "SELECT Id FROM Case"}' } }] };
    expect(parseAction({ texts: [], data: [raw] })).toMatchObject({ kind: "tool", tool: "soql_query", args: { query: "SELECT Id FROM Case" }, source: "data_part" });
    expect(parseAction({ texts: [JSON.stringify({ name: "respond", arguments: { content: "005Wt000003NDqDIAW" } })], data: [] })).toMatchObject({
      kind: "answer",
      answer: "005Wt000003NDqDIAW",
    });
  });
});
