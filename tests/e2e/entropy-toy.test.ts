import { afterAll, afterEach, describe, expect, it } from "vitest";
import { assess, parseConfig, runSpecFor } from "../../src/assessment/index.js";
import { type Strategy, servePurple } from "../../src/baselines/index.js";
import { type PerturbationKind, registerPerturbation } from "../../src/entropy/index.js";
import { A2APurpleClient } from "../../src/purple/index.js";
import { calibration, sampleData } from "../support/helpers.js";

/**
 * A new kind of perturbation needs one module and its registration, nothing else: this file is
 * that module. It renames Account.Industry to Sector__c (label unchanged), adds a line in front of
 * every task's context, and must be seen in describe_schema, in queries, in the task text and in
 * the results.
 */
const toySector: PerturbationKind = {
  name: "drift.toy_sector",
  family: "drift",
  description: "Account.Industry becomes Sector__c",
  plan: (input) =>
    input.level === "none"
      ? { summary: "nothing", changes: [], text: [], distractorIds: [] }
      : {
          summary: "Account.Industry renamed Sector__c",
          changes: [{ op: "rename_field", object: "Account", from: "Industry", to: "Sector__c" }],
          text: input.tasks.map((task) => ({ op: "prefix_context" as const, task: task.idx, text: "(Toy note: Account industries are kept in Sector__c now.)" })),
          distractorIds: [],
        },
};

const data = await sampleData();
let unregister: (() => void) | undefined;
afterEach(() => unregister?.());
afterAll(async () => {
  await data.org.close();
});

describe("a new kind of perturbation, from its own file", () => {
  it("is applied to describe, queries and the task text, and logged in the results", async () => {
    unregister = registerPerturbation(toySector);
    const seen: { describe?: unknown; rows?: unknown; stale?: string; context?: string } = {};
    const probe: Strategy = async (task, tools) => {
      seen.context = task.requiredContext;
      seen.describe = await tools.describe("Account");
      seen.rows = await tools.soql("SELECT Sector__c FROM Account LIMIT 2");
      seen.stale = await tools.soql("SELECT Industry FROM Account LIMIT 1").then(
        () => "no error",
        (error: Error) => error.message,
      );
      return "None";
    };
    const purple = await servePurple("probe", probe, "127.0.0.1", 0);
    try {
      const { config } = parseConfig({ task_ids: [0], drift_level: "low", perturbations: ["drift.toy_sector"] });
      const { results } = await assess(data, new A2APurpleClient(purple.url), {
        spec: runSpecFor({ participantUrl: purple.url, config, tasksSource: data.sources.tasks.path }),
        calibration,
      });
      const fields = (seen.describe as { objects: { fields: { name: string; label: string }[] }[] }).objects[0]!.fields;
      expect(fields.find((field) => field.name === "Sector__c")).toMatchObject({ label: "Industry" });
      expect(fields.some((field) => field.name === "Industry")).toBe(false);
      expect((seen.rows as Record<string, unknown>[])[0]).toHaveProperty("Sector__c");
      expect(seen.stale).toMatch(/INVALID_FIELD: No such column 'Industry' on entity 'Account'/);
      expect(seen.context).toMatch(/^\(Toy note: Account industries are kept in Sector__c now\.\)/);
      expect(results.entropy.kinds).toEqual([
        expect.objectContaining({ kind: "drift.toy_sector", summary: "Account.Industry renamed Sector__c", renamed: ["Account.Industry -> Sector__c"] }),
      ]);
    } finally {
      purple.server.close();
    }
  });
});
