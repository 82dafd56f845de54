import { readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { parseOrgSpec } from "../../src/org/index.js";
import { formatReminder, TOOL_DEFINITIONS } from "../../src/protocol/index.js";
import { BUILT_IN_TOOLS, offeredTools, registerTool, runTool, soqlQuery, type ToolPort } from "../../src/tools/index.js";

/** The definitions the purple was sent when they were written by hand, before they were generated from the tools' zod. */
const HAND_WRITTEN = JSON.parse(readFileSync(new URL("../fixtures/tool-definitions.json", import.meta.url), "utf8"));

/** A port that answers every query with one record naming what it was asked, so a test sees what ran. */
const echoPort = (capabilities: ToolPort["capabilities"]): ToolPort => ({
  schema: { objects: [{ name: "Case", keyPrefix: "500", rowCount: 1, fields: [{ name: "Id", label: "Case ID", type: "id", references: [] }] }] },
  capabilities,
  soql: async (query) => ({ ok: true, kind: "records", records: [{ soql: query }], truncated: false, elapsedMs: 0 }),
  sosl: async (search) => ({ ok: true, kind: "records", records: [{ sosl: search }], truncated: false, elapsedMs: 0 }),
  sql: async (query) => ({ ok: true, kind: "records", records: [{ sql: query }], truncated: false, elapsedMs: 0 }),
});

describe("the tools registry", () => {
  it("generates, from the tools' zod, exactly the definitions that were written by hand", () => {
    expect(JSON.stringify(TOOL_DEFINITIONS)).toBe(JSON.stringify(HAND_WRITTEN));
  });

  it("offers the tools a backend's capabilities allow, and the reminder shows only those", () => {
    expect(offeredTools(new Set(["soql", "sosl", "sql"])).map((tool) => tool.name)).toEqual(BUILT_IN_TOOLS.map((tool) => tool.name));
    const withoutSql = offeredTools(new Set(["soql", "sosl"]));
    expect(withoutSql.map((tool) => tool.name)).toEqual(["describe_schema", "soql_query", "sosl_search", "respond"]);
    expect(formatReminder("x", 1, 2, withoutSql).text).toContain(
      'Reply with one action: {"name": "soql_query", "arguments": {"query": "..."}}, {"name": "describe_schema", "arguments": {}}',
    );
    expect(formatReminder("x", 1, 2, BUILT_IN_TOOLS).text).toContain('Reply with one action: {"name": "sql_query", "arguments": {"query": "..."}}, {"name": "describe_schema"');
  });

  it("runs a call by its tool's spec, and answers an unknown tool, a missing capability or bad arguments with an error", async () => {
    const port = echoPort(new Set(["soql", "sosl"]));
    const today = { today: "2024-01-01" };
    expect(await runTool(port, { tool: "soql_query", query: "  SELECT Id FROM Case " }, today)).toMatchObject({ ok: true, records: [{ soql: "SELECT Id FROM Case" }] });
    expect(await runTool(port, { tool: "describe_schema", object: "case" }, today)).toMatchObject({ ok: true, kind: "schema", objects: [{ name: "Case" }] });
    expect(await runTool(port, { tool: "rm" }, today)).toMatchObject({
      ok: false,
      code: "INVALID_TOOL",
      message: expect.stringMatching(/^unknown tool "rm"; the org's tools are describe_schema, soql_query/),
    });
    expect(await runTool(port, { tool: "respond", answer: "x" }, today)).toMatchObject({ ok: false, code: "INVALID_TOOL" });
    expect(await runTool(port, { tool: "sql_query", query: "SELECT 1" }, today)).toEqual({
      ok: false,
      code: "INVALID_TOOL",
      message: "sql_query is not available on this org (it has no sql)",
      elapsedMs: 0,
    });
    expect(await runTool(port, { tool: "soql_query", sql: "SELECT 1" }, today)).toMatchObject({
      ok: false,
      code: "INVALID_ARGUMENTS",
      message: expect.stringMatching(/^bad argument 'query' for soql_query/),
    });
  });

  it("refuses a second tool of a name already registered", () => {
    expect(() => registerTool({ ...soqlQuery })).toThrow("a tool named soql_query is registered already");
  });
});

describe("org specs", () => {
  it("reads a URI, a bare path (SQLite) or an object, and names the field of a bad one", () => {
    expect(parseOrgSpec("data/sample/org")).toEqual({ backend: "sqlite", location: "data/sample/org" });
    expect(parseOrgSpec("sqlite:/orgs/b2b.db")).toEqual({ backend: "sqlite", location: "/orgs/b2b.db" });
    expect(parseOrgSpec("C:\\orgs\\b2b.db")).toEqual({ backend: "sqlite", location: "C:\\orgs\\b2b.db" });
    expect(parseOrgSpec({ backend: "memory", location: "x", workers: 2 })).toEqual({ backend: "memory", location: "x", workers: 2 });
    expect(() => parseOrgSpec("sqlite:")).toThrow("bad org spec: field 'location': location must name the org");
    expect(() => parseOrgSpec({ location: "x", workers: 0 } as never)).toThrow(/^bad org spec: field 'workers'/);
  });
});
