import { afterAll, afterEach, describe, expect, it } from "vitest";
import { assess, parseConfig, runSpecFor } from "../../src/assessment/index.js";
import { type Strategy, servePurple } from "../../src/baselines/index.js";
import { A2APurpleClient } from "../../src/purple/index.js";
import { registeredTools, registerTool } from "../../src/tools/index.js";
import { getRecord } from "../fixtures/extensions/get-record.js";
import { calibration, sampleData } from "../support/helpers.js";

/**
 * A new purple tool needs one module and its registration, nothing else: the module is
 * fixtures/extensions/get-record.ts, the registration the line in the test. The purple is
 * offered it (with its JSON schema generated from its zod), calls it over A2A, and the call is
 * checked, run, observed, counted as a query, logged and shown in the results.
 */
const data = await sampleData();
let unregister: (() => void) | undefined;
afterEach(() => unregister?.());
afterAll(async () => {
  await data.org.close();
});

describe("a new tool, from its own file", () => {
  it("is offered, run against the view, observed, counted, logged and shown", async () => {
    unregister = registerTool(getRecord);
    const seen: { tools?: unknown; id?: string; observation?: Record<string, unknown>; bad?: Record<string, unknown> } = {};
    const probe: Strategy = async (task, tools) => {
      seen.tools = task.data.tools;
      const [account] = await tools.soql("SELECT Id FROM Account ORDER BY Id LIMIT 1");
      seen.id = String(account!.Id);
      seen.observation = await tools.call("get_record", { id: seen.id });
      seen.bad = await tools.call("get_record", { id: "not an id" });
      return "None";
    };
    const purple = await servePurple("probe", probe, "127.0.0.1", 0);
    try {
      const { config } = parseConfig({ task_ids: [0] });
      const { results, log } = await assess(data, new A2APurpleClient(purple.url), {
        spec: runSpecFor({ participantUrl: purple.url, config, tasksSource: data.sources.tasks.path }),
        calibration,
      });
      expect(seen.tools).toContainEqual({
        type: "function",
        function: {
          name: "get_record",
          description: "Read one record by its Id, with every field of its object.",
          parameters: { type: "object", properties: { id: expect.objectContaining({ type: "string", description: "The record's Id." }) }, required: ["id"] },
        },
      });
      const account = data.org.schema.objects.find((object) => object.name === "Account")!;
      const record = (seen.observation!.records as Record<string, unknown>[])[0]!;
      expect(seen.observation).toMatchObject({ type: "tool_result", ok: true, truncated: false });
      expect(record.Id).toBe(seen.id);
      expect(Object.keys(record).length).toBeGreaterThan(account.fields.length / 2);
      expect(seen.bad).toMatchObject({ type: "format_error", error: { message: "bad argument 'id' for get_record: id must be a 15- or 18-character record Id" } });

      const steps = log.episodes[0]!.trajectory.steps;
      expect(steps[1]!.action).toEqual({ kind: "tool", tool: "get_record", args: { id: seen.id }, source: "json" });
      expect(steps[1]!.observation).toMatchObject({ ok: true, rowCount: 1 });
      const entry = results.results[0] as { metrics: { queries: number }; trajectory: { steps: { action: string }[] } };
      expect(entry.trajectory.steps.map((step) => step.action.split(":")[0])).toEqual(["soql_query", "get_record", "invalid", "respond"]);
      expect(entry.trajectory.steps[1]!.action).toBe(`get_record: ${seen.id}`);
      // SOQL and get_record both read data: two queries (the invalid call is no query).
      expect(entry.metrics.queries).toBe(2);
    } finally {
      purple.server.close();
    }
    unregister();
    unregister = undefined;
    expect(registeredTools().map((tool) => tool.name)).not.toContain("get_record");
  });
});
