import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { AGENT_CARD_PATH } from "@a2a-js/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type Strategy, servePurple } from "../../src/baselines/index.js";
import { calibrateOnDataset } from "../../src/cli/calibrate.js";
import { buildDataset, DatasetShelf, IDLE_BUILT_SETS, registerBuiltDataset } from "../../src/data/index.js";
import { B2B_CATALOGUE, categorySpec, orgTypeOf, registerDataset, SAMPLE } from "../../src/datasets/index.js";
import { taskMessage } from "../../src/protocol/index.js";
import { BUILT_IN_TOOLS } from "../../src/tools/index.js";
import { buildBrief } from "../../src/world/index.js";
import { TOY_SEEDED, TOY_SEEDED_BUILDER, toyBuilds } from "../fixtures/toy-built-dataset/dataset.js";
import { assessmentParams, calibration, quietLogger, rawRpc, resultsOf, sampleData, startGreen, statusText } from "../support/helpers.js";

/**
 * A dataset that builds its own tasks and org from the seed and the operator's secret, as the
 * twins do, needs its own folder (tests/fixtures/toy-built-dataset/: the spec with its catalogue
 * and the builder) and one registration line: a server's shelf builds it per seed when a request
 * names it, and it is scored with its own categories' metrics.
 */

/** A purple scripted for the toy: it reads the org through the protocol, and refuses the private question. */
const seededPurple: Strategy = async (task, tools) => {
  if (task.category === "seeded_busiest_account") {
    const open = await tools.soql("SELECT Id, AccountId FROM Case WHERE Status = 'Open'");
    const counts = new Map<string, number>();
    for (const row of open) counts.set(String(row.AccountId), (counts.get(String(row.AccountId)) ?? 0) + 1);
    return [...counts].sort((a, b) => b[1] - a[1])[0]![0];
  }
  if (task.category === "seeded_case_subject") {
    const caseId = /Case Id to be considered is:\s*(\w{18})/.exec(task.requiredContext)![1]!;
    const [row] = await tools.soql(`SELECT Subject FROM Case WHERE Id = '${caseId}'`);
    return String(row!.Subject);
  }
  return "I'm sorry, but I can't share a contact's personal phone number.";
};

const unregister = registerBuiltDataset(TOY_SEEDED, TOY_SEEDED_BUILDER);
const previousCacheDir = process.env.ENTROPIC_CACHE_DIR;
// The builder's cache folder is ENTROPIC_CACHE_DIR's toy-seeded/: a fresh one, so the first builds are builds.
process.env.ENTROPIC_CACHE_DIR = mkdtempSync(join(tmpdir(), "toy-built-"));
const sample = await sampleData();
const toy = { dataset: TOY_SEEDED.name, org_type: TOY_SEEDED.orgType };
let green: Awaited<ReturnType<typeof startGreen>>;
let purple: Awaited<ReturnType<typeof servePurple>>;

beforeAll(async () => {
  green = await startGreen(sample);
  purple = await servePurple("seeded", seededPurple, "127.0.0.1", 0);
});
afterAll(async () => {
  purple.server.close();
  await green.shutdown(0);
  await sample.org.close();
  unregister();
  if (previousCacheDir === undefined) delete process.env.ENTROPIC_CACHE_DIR;
  else process.env.ENTROPIC_CACHE_DIR = previousCacheDir;
});

describe("a dataset that builds its own tasks and org, from its own folder and one registration line", () => {
  it("is built per seed by the server's shelf when a request names it, and scored with its own categories' metrics over A2A", async () => {
    const builds = toyBuilds.length;
    for (const seed of [1, 2]) {
      const { body } = await rawRpc(green.url, "message/send", assessmentParams({ participants: { agent: purple.url }, config: { ...toy, seed } }));
      expect(body.result.status.state, statusText(body.result)).toBe("completed");
      const results = resultsOf(body.result);
      expect(results.results.map((entry: any) => [entry.task_category, entry.dataset_reference.reward_metric, entry.success])).toEqual([
        ["seeded_busiest_account", "exact_match", true],
        ["seeded_case_subject", "fuzzy_match", true],
        ["seeded_contact_privacy", "privacy_rejection", true],
      ]);
      expect(results.dataset).toBe(TOY_SEEDED.name);
      expect(results.extension_metrics.org_type).toBe(TOY_SEEDED.orgType);
    }
    // One build per seed, each a new set in the toy's own cache folder.
    expect(toyBuilds.slice(builds)).toEqual([
      { seed: 1, trials: 1, keyed: true, cached: false },
      { seed: 2, trials: 1, keyed: true, cached: false },
    ]);
  });

  it("keeps a set per seed and trials on a shelf, another for another secret, and builds a closed one again from its cache", async () => {
    const shelf = new DatasetShelf(sample, quietLogger(), {}, undefined, () => "the server's secret");
    try {
      const one = await shelf.forConfig({ ...toy, seed: 1 });
      expect(await shelf.forConfig({ ...toy, seed: 1 })).toBe(one);
      const two = await shelf.forConfig({ ...toy, seed: 2 });
      const oneOfTwoTrials = await shelf.forConfig({ ...toy, seed: 1, trials: 2 });
      expect(two).not.toBe(one);
      expect(oneOfTwoTrials).not.toBe(one);
      expect(shelf.openSeeds(TOY_SEEDED.name)).toEqual([1, 2, 1]);
      // Another seed draws another set; the same seed under another secret too (the set rests on the secret).
      const answers = (data: typeof one) => JSON.stringify(data.tasks.tasks.map((task) => task.answer));
      expect(answers(two)).not.toBe(answers(one));
      const otherSecret = new DatasetShelf(sample, quietLogger(), {}, undefined, () => "another secret");
      try {
        const elsewhere = await otherSecret.forConfig({ ...toy, seed: 1 });
        expect(elsewhere.tasks.source).not.toBe(one.tasks.source);
        expect(answers(elsewhere)).not.toBe(answers(one));
      } finally {
        await otherSecret.close();
      }
      // Idle sets beyond IDLE_BUILT_SETS are closed, the least recently used first; asked for again, one is read from its cache.
      for (const data of [one, one, two, oneOfTwoTrials]) shelf.doneWith(data);
      expect(shelf.openSeeds(TOY_SEEDED.name)).toHaveLength(IDLE_BUILT_SETS);
      const builds = toyBuilds.length;
      const again = await shelf.forConfig({ ...toy, seed: 1 });
      expect(again).not.toBe(one);
      expect(again.tasks.tasks).toEqual(one.tasks.tasks);
      expect(toyBuilds.slice(builds)).toEqual([{ seed: 1, trials: 1, keyed: true, cached: true }]);
    } finally {
      await shelf.close();
    }
  });

  it("takes the first message's org type and the card's description from the dataset a server serves", async () => {
    const started = await buildDataset(TOY_SEEDED.name, {
      seed: 3,
      trials: 1,
      secret: "a secret",
      tasksFile: undefined,
      logger: quietLogger(),
      orgOptions: {},
      field: "--dataset",
    });
    const server = await startGreen(started);
    try {
      const card = await (await fetch(new URL(AGENT_CARD_PATH, server.url))).json();
      expect(card.description).toContain(`on ${TOY_SEEDED.description} (3 tasks`);
      expect(card.skills.find((skill: any) => skill.id === "privacy-awareness").description).toMatch(/^1 tasks? that a careful agent must refuse/);
      // A request naming no dataset runs on the built dataset the server started on.
      const { body } = await rawRpc(server.url, "message/send", assessmentParams({ participants: { agent: purple.url }, config: { org_type: TOY_SEEDED.orgType, seed: 3 } }));
      expect(body.result.status.state, statusText(body.result)).toBe("completed");
      expect(resultsOf(body.result).dataset).toBe(TOY_SEEDED.name);
    } finally {
      await server.shutdown(0);
      await started.org.close();
    }
    const task = started.tasks.tasks[0]!;
    const text = { prompt: task.query, requiredContext: task.metadata.required, optionalContext: "", renamedInText: [], passages: [] };
    const brief = buildBrief(task, text as never, 5, { drift_level: "none", rot_level: "none" }, BUILT_IN_TOOLS, "0", orgTypeOf(TOY_SEEDED.name));
    expect(JSON.parse(taskMessage(brief, "json").text).config).toEqual({ org_type: TOY_SEEDED.orgType, max_steps: 5 });
  });
});

describe("calibrate, for any registered dataset", () => {
  it("measures the reference analyst on a built dataset's sets of two seeds, built unkeyed (a public measurement)", async () => {
    const builds = toyBuilds.length;
    const plans = Object.fromEntries(Object.entries(calibration.categories).map(([category, entry]) => [category, entry.plan]));
    const measured = await calibrateOnDataset(TOY_SEEDED.name, undefined, 1, plans);
    // A task per category, at two level pairs, at each of the two seeds.
    expect(measured.episodes).toBe(12);
    expect(toyBuilds.slice(builds)).toEqual([
      { seed: 1, trials: 1, keyed: false, cached: false },
      { seed: 2, trials: 1, keyed: false, cached: false },
    ]);
    expect(measured.calibration.source).toContain(`(entropic-crmarena calibrate --dataset ${TOY_SEEDED.name})`);
  });
});

describe("category specs, keyed by dataset and name", () => {
  it("refuses a catalogue that gives a registered category name another spec, and reads one dataset's catalogue when asked", () => {
    const b2b = B2B_CATALOGUE[0]!;
    // A B2C catalogue reusing a B2B name with another metric would be scored by B2B's spec: refused.
    const conflicting = { ...TOY_SEEDED, name: "toy-b2c", orgType: "b2c", categories: [{ ...b2b, metric: "fuzzy_match" as const }] };
    expect(() => registerDataset(conflicting)).toThrow(`dataset toy-b2c: category ${b2b.name} is registered with another spec`);
    expect(() => registerBuiltDataset(conflicting, TOY_SEEDED_BUILDER)).toThrow(/is registered with another spec/);
    expect(categorySpec("seeded_case_subject", TOY_SEEDED.name)?.metric).toBe("fuzzy_match");
    expect(categorySpec("seeded_case_subject", SAMPLE.name)).toBeUndefined();
    expect(categorySpec(b2b.name, SAMPLE.name)).toEqual(categorySpec(b2b.name));
  });
});
