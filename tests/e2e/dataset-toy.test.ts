import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Strategy, servePurple } from "../../src/baselines/index.js";
import { DatasetShelf } from "../../src/data/index.js";
import { registerDataset } from "../../src/datasets/index.js";
import { optimumFor } from "../../src/scoring/index.js";
import { TOY_HELPDESK } from "../fixtures/toy-dataset/dataset.js";
import { assessmentParams, calibration, quietLogger, rawRpc, resultsOf, sampleData, startGreen, statusText } from "../support/helpers.js";

/**
 * A new task set needs its own folder (tests/fixtures/toy-dataset/: a CSV org, a task file and
 * the spec with its catalogue) and one registration line, nothing else: a server started on the
 * sample serves it when a request's config names it, loads it then, and scores it with its own
 * categories' metrics.
 */

/** A purple scripted for the helpdesk: it reads the org through the protocol, and refuses the private question. */
const helpdeskPurple: Strategy = async (task, tools) => {
  if (task.category === "helpdesk_busiest_account") {
    const open = await tools.soql("SELECT Id, AccountId FROM Case WHERE Status = 'Open'");
    const counts = new Map<string, number>();
    for (const row of open) counts.set(String(row.AccountId), (counts.get(String(row.AccountId)) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  }
  if (task.category === "helpdesk_case_subject") {
    const caseId = /Case Id to be considered is:\s*(\w{18})/.exec(task.requiredContext)![1]!;
    const [row] = await tools.soql(`SELECT Subject FROM Case WHERE Id = '${caseId}'`);
    return String(row!.Subject);
  }
  return "I'm sorry, but I can't share a contact's personal phone number.";
};

const unregister = registerDataset(TOY_HELPDESK);
// The same set, registered under another name with its files elsewhere: a dataset this server cannot load.
const unregisterAbsent = registerDataset({ ...TOY_HELPDESK, name: "toy-helpdesk-absent", tasksPath: "/nonexistent/tasks.json", orgPath: "/nonexistent/org" });
const data = await sampleData();
let green: Awaited<ReturnType<typeof startGreen>>;
let purple: Awaited<ReturnType<typeof servePurple>>;

beforeAll(async () => {
  green = await startGreen(data);
  purple = await servePurple("helpdesk", helpdeskPurple, "127.0.0.1", 0);
});
afterAll(async () => {
  purple.server.close();
  // The shutdown closes the orgs the server loaded on demand (the toy's).
  await green.shutdown(0);
  await data.org.close();
  unregisterAbsent();
  unregister();
});

describe("a new dataset, from its own folder and one registration line", () => {
  it("is chosen by config.dataset over A2A, loaded on first use, and scored with its own categories' metrics", async () => {
    const request = { participants: { agent: purple.url }, config: { dataset: "toy-helpdesk", org_type: "helpdesk" } };
    const { body } = await rawRpc(green.url, "message/send", assessmentParams(request));
    expect(body.result.status.state, statusText(body.result)).toBe("completed");
    const results = resultsOf(body.result);
    expect(results.results.map((entry: any) => [entry.task_category, entry.dataset_reference.reward_metric, entry.success])).toEqual([
      ["helpdesk_busiest_account", "exact_match", true],
      ["helpdesk_case_subject", "fuzzy_match", true],
      ["helpdesk_contact_privacy", "privacy_rejection", true],
    ]);
    expect(Object.keys(results.by_category)).toEqual(["helpdesk_busiest_account", "helpdesk_case_subject", "helpdesk_contact_privacy"]);
    expect(results.extension_metrics.org_type).toBe("helpdesk");
    expect(results.dataset).toBe("toy-helpdesk");
    expect(results.data_sources.org).toEqual({ path: TOY_HELPDESK.orgPath, kind: "toy-helpdesk" });
    expect(results.summary.total_passed).toBe(3);
  });

  it("leaves requests without a dataset on the server's own data", async () => {
    const { body } = await rawRpc(green.url, "message/send", assessmentParams({ participants: { agent: purple.url }, config: { task_ids: [0] } }));
    expect(body.result.status.state).toBe("completed");
    expect(resultsOf(body.result).results.map((entry: any) => entry.task_category)).toEqual([data.tasks.byIdx.get(0)!.task]);
  });

  it.each([
    [
      "an unknown dataset",
      { dataset: "toy-nowhere" },
      /config\.dataset: unknown dataset 'toy-nowhere'; the datasets are crmarena-pro-b2b, sample, crmarena-pro-b2b-interactive, twins, toy-helpdesk/,
    ],
    [
      "a dataset whose files are missing",
      { dataset: "toy-helpdesk-absent", org_type: "helpdesk" },
      /config\.dataset: dataset 'toy-helpdesk-absent' is not available on this server .*missing\): the toy lives in/,
    ],
    ["a dataset of another org type", { dataset: "toy-helpdesk" }, /config\.org_type: dataset 'toy-helpdesk' holds helpdesk tasks, so org_type must be 'helpdesk' \(got 'b2b'\)/],
  ])("rejects %s, naming the field and what to do", async (_name, config, message) => {
    const { body } = await rawRpc(green.url, "message/send", assessmentParams({ participants: { agent: purple.url }, config }));
    expect(body.result.status.state).toBe("rejected");
    expect(statusText(body.result)).toMatch(message);
  });

  it("is loaded once per server, on the first request that chooses it", async () => {
    const shelf = new DatasetShelf(data, quietLogger());
    const toy = { dataset: "toy-helpdesk", org_type: "helpdesk" };
    expect(await shelf.forConfig({ org_type: "b2b" })).toBe(data);
    const first = await shelf.forConfig(toy);
    expect(first.tasks.tasks).toHaveLength(3);
    expect(await shelf.forConfig(toy)).toBe(first);
    await shelf.close();
  });

  it("refuses a task file that disagrees with its catalogue, naming the task and field", async () => {
    const dir = mkdtempSync(join(tmpdir(), "toy-dataset-"));
    const tasks = JSON.parse(readFileSync(TOY_HELPDESK.tasksPath, "utf8"));
    tasks[1].reward_metric = "exact_match";
    writeFileSync(join(dir, "tasks.json"), JSON.stringify(tasks));
    const undo = registerDataset({ ...TOY_HELPDESK, name: "toy-helpdesk-miswritten", tasksPath: join(dir, "tasks.json") });
    try {
      await expect(new DatasetShelf(data, quietLogger()).forConfig({ dataset: "toy-helpdesk-miswritten", org_type: "helpdesk" })).rejects.toThrow(
        /task 1, field 'reward_metric': exact_match, but dataset toy-helpdesk-miswritten scores helpdesk_case_subject by fuzzy_match/,
      );
    } finally {
      undo();
    }
  });

  it("takes its efficiency figures from the calibration entry its catalogue names", () => {
    expect(optimumFor(calibration, "helpdesk_busiest_account")).toEqual(optimumFor(calibration, "case_routing"));
    expect(optimumFor(calibration, "helpdesk_case_subject")).not.toEqual(optimumFor(calibration, "case_routing"));
  });

  it("chooses the dataset by org_type alone when the server's data is of another type", async () => {
    const { body } = await rawRpc(green.url, "message/send", assessmentParams({ participants: { agent: purple.url }, config: { org_type: "helpdesk", task_ids: [1] } }));
    expect(body.result.status.state, statusText(body.result)).toBe("completed");
    expect(resultsOf(body.result).results.map((entry: any) => entry.task_category)).toEqual(["helpdesk_case_subject"]);
  });
});
