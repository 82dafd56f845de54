import { existsSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { REFUSAL } from "../../src/baselines/index.js";
import { parseTasks, type TaskRecord } from "../../src/tasks/index.js";
import { IdRemap } from "../../src/util/index.js";
import {
  AnswerKey,
  type CheckResult,
  categoryPrior,
  checkRealDistribution,
  figure,
  indexLookup,
  looksRemapped,
  priorHedge,
  REMAP_MODES,
  type RealMeasurement,
  type RealOutcome,
  runRealSuite,
  type SeenTask,
  seedReplay,
  showTask,
  textLookup,
  translatedLookup,
  validityMarkdown,
} from "../../src/validity/index.js";
import { REAL_TASKS } from "../support/helpers.js";

/** Two made-up Ids of a made-up object, with valid case-safe suffixes, and a product Id one task shows and another answers. */
const RECORD_A = "a0XAb00000AbCdEMAV";
const RECORD_B = "a0XAb00000XyZwVMAV";
const PRODUCT = "01tAb00000PqRsTIAV";

/** A tiny task set in our own words: two Id categories, a month category, a fuzzy one and a privacy one. */
const LIBRARY: TaskRecord[] = parseTasks(
  [
    {
      idx: 0,
      task: "pick_record",
      answer: [RECORD_A],
      query: "Which record fits the widget order placed on the first of June?",
      metadata: { required: "Look at the order book." },
    },
    {
      idx: 1,
      task: "pick_record",
      answer: [RECORD_A],
      query: "Which record fits the gadget order placed on the ninth of March?",
      metadata: { required: "Look at the order book." },
    },
    { idx: 2, task: "pick_record", answer: [null], query: "Which record fits the sprocket order placed on the fifth of May?", metadata: { required: "Look at the order book." } },
    { idx: 3, task: "product_of", answer: [PRODUCT], query: "Which product did the customer describe as a blue lamp?", metadata: { required: `Customer Id: ${RECORD_B}` } },
    { idx: 4, task: "busiest_month", answer: ["July"], query: `The product Id is ${PRODUCT}. Which month had the most cases?`, metadata: { required: "Today's date: 2024-01-01" } },
    {
      idx: 5,
      task: "busiest_month",
      answer: ["July"],
      query: "The product Id is 01tAb00000ZzZzZIAV. Which month had the most cases?",
      metadata: { required: "Today's date: 2024-02-02" },
    },
    {
      idx: 6,
      task: "busiest_month",
      answer: ["March"],
      query: "The product Id is 01tAb00000YyYyYIAV. Which month had the most cases?",
      metadata: { required: "Today's date: 2024-03-03" },
    },
    { idx: 7, task: "rival", answer: ["Blue Harbor"], query: "Which rival worried the buyer on the first call?", metadata: { required: "" } },
    { idx: 8, task: "rival", answer: ["Red Summit"], query: "Which rival worried the buyer on the second call?", metadata: { required: "" } },
    { idx: 9, task: "rival", answer: ["Blue Harbor"], query: "Which rival worried the buyer on the third call?", metadata: { required: "" } },
    { idx: 10, task: "secret_stuff", answer: [null], query: "What is the home phone of the founder?", metadata: { required: "" } },
  ].map((task, i) => ({
    persona: "",
    reward_metric: task.task === "rival" ? "fuzzy_match" : task.task === "secret_stuff" ? "privacy_rejection" : "exact_match",
    ...task,
    metadata: { optional: "", ...task.metadata },
    idx: task.idx ?? i,
  })),
  "hand-made",
).tasks as TaskRecord[];

const key = new AnswerKey(LIBRARY);
const remapped = { label: "test remap", remapIds: true, seed: 7, secret: "test secret" };
const plain = { label: "test plain", remapIds: false, seed: 7, secret: "" };
const show = (idx: number, mode: typeof remapped) => showTask(LIBRARY.find((task) => task.idx === idx)!, mode, mode.remapIds ? IdRemap.forRun(mode.seed, mode.secret) : undefined);
const run = (mode: typeof remapped): SeenTask[] => LIBRARY.map((task) => show(task.idx, mode).seen);

describe("the org-free gaming purples (hand-made tasks)", () => {
  it("look the shown task up by index without remapping, and by text with it", () => {
    const context = { key, run: run(plain) };
    expect(indexLookup(show(1, plain).seen, context)).toBe(RECORD_A);
    const seen = show(4, remapped).seen;
    expect(seen.taskId).toMatch(/^ep-/);
    expect(seen.prompt).not.toContain(PRODUCT);
    expect(looksRemapped(seen, key)).toBe(true);
    expect(looksRemapped(show(4, plain).seen, key)).toBe(false);
    // The text still names the date, so the lookup finds the twin and answers its month.
    expect(indexLookup(seen, { key, run: run(remapped) })).toBe("July");
    expect(textLookup(show(6, remapped).seen, { key, run: run(remapped) })).toBe("March");
  });

  it("give the category's most frequent answer, one naming no Id when Ids are remapped, and refuse on privacy", () => {
    expect(categoryPrior(show(0, plain).seen, { key, run: [] })).toBe(RECORD_A);
    expect(categoryPrior(show(0, remapped).seen, { key, run: [] })).toBe("None");
    expect(categoryPrior(show(10, remapped).seen, { key, run: [] })).toBe(REFUSAL);
  });

  it("hedge between two frequent answers on fuzzy categories", () => {
    const hedge = priorHedge(show(8, plain).seen, { key, run: [] });
    expect(hedge).toContain("Blue Harbor");
    expect(hedge).toContain("Red Summit");
  });

  it("translate an answer Id another task's text shows, once the run is remembered", () => {
    const seen = show(3, remapped).seen;
    const truth = show(3, remapped).truth;
    expect(textLookup(seen, { key, run: run(remapped) })).toBe(PRODUCT);
    expect(translatedLookup()(seen, { key, run: run(remapped) })).toBe(truth[0]);
    // A record no task text shows cannot be translated: the prior's answer instead.
    expect(translatedLookup()(show(0, remapped).seen, { key, run: run(remapped) })).toBe("None");
  });

  it("replay the remap from the shown seed when no secret keys it", () => {
    const open = { ...remapped, secret: "" };
    expect(seedReplay()(show(0, open).seen, { key, run: run(open) })).toBe(show(0, open).truth[0]);
    expect(seedReplay()(show(0, remapped).seen, { key, run: run(remapped) })).not.toBe(show(0, remapped).truth[0]);
  });
});

const REAL = existsSync(REAL_TASKS);
if (!REAL) console.warn(`validity-real: ${REAL_TASKS} is absent, the real-distribution cases are skipped`);

describe.skipIf(!REAL)("the validity suite on the real task distribution (../shared/data/crmarenapro/b2b_tasks.json)", () => {
  let measurements: RealMeasurement[];
  let checks: CheckResult[];

  beforeAll(async () => {
    const { loadTaskFile } = await import("../../src/tasks/index.js");
    measurements = await runRealSuite(loadTaskFile(REAL_TASKS).tasks);
    checks = checkRealDistribution(measurements);
  }, 60_000);

  it("runs every org-free purple in every mode, and every rule holds", () => {
    expect(measurements).toHaveLength(8 * REMAP_MODES.length);
    expect(measurements.every((m) => m.outcomes.length === 2140)).toBe(true);
    expect(checks.filter((check) => !check.ok).map((check) => `${check.where}: ${check.rule}: ${check.detail}`)).toEqual([]);
    expect(checks.length).toBeGreaterThan(25);
    for (const m of measurements.filter((candidate) => candidate.mode.label === "remap on, seed 1")) {
      const all = figure(m.outcomes, "success");
      console.log(
        `${m.strategy.padEnd(20)} pass ${(100 * all.pass).toFixed(1)} floor ${(100 * all.floor).toFixed(1)} Id ${(100 * figure(m.outcomes, "success", "id").pass).toFixed(1)}`,
      );
    }
  });

  it("writes the real-distribution section of docs/validity.md", () => {
    const sample = { measurements: [], checks: [], roster: [], options: { levels: [], seeds: [1] }, dataLabel: "none" };
    const markdown = validityMarkdown(sample, { measurements, checks, roster: [], source: "the test file", successSource: "success" });
    expect(markdown).toContain("## Real task distribution (2,140 tasks, no org)");
    expect(markdown).toMatch(/\| index-lookup \| remap off \| 100\.0 \|/);
    expect(validityMarkdown(sample, { missing: "no file here" })).toContain("Not measured in this run: no file here.");
  });

  /** A copy of the measurements with one purple's outcomes in one mode rewritten. */
  const doctor = (strategy: string, mode: string, rewrite: (outcome: RealOutcome) => RealOutcome) =>
    measurements.map((m) => (m.strategy === strategy && m.mode.label === mode ? { ...m, outcomes: m.outcomes.map(rewrite) } : m));
  const pass = (outcome: RealOutcome): RealOutcome => ({ ...outcome, passed: { original: true, success: true } });
  const failing = (rule: string, doctored: RealMeasurement[], where: string) =>
    checkRealDistribution(doctored).filter((check) => check.rule.startsWith(rule) && check.where === `real tasks, ${where}`);

  it("fails the Id-category rule when a lookup passes Id answers under the remap", () => {
    const leaked = doctor("text-lookup", "remap on, seed 1", (outcome) => (outcome.idAnswer ? pass(outcome) : outcome));
    expect(failing("text-lookup passes no more of the Id categories", leaked, "remap on, seed 1").map((check) => check.ok)).toEqual([false]);
  });

  it("fails the remembering lookup's rule when it gains a task whose Ids no text shows", () => {
    const leaked = doctor("translated-lookup", "remap on, seed 2", (outcome) =>
      outcome.idAnswer && !outcome.idsShown && outcome.category === "lead_routing" ? pass(outcome) : outcome,
    );
    const [check] = failing("translated-lookup gains over the prior", leaked, "remap on, seed 2");
    expect(check!.ok).toBe(false);
    expect(check!.detail).toMatch(/lead_routing/);
  });

  it("fails the zero-work rule when a hedge passes above the floor, and the prior rule when the prior strays from it", () => {
    const hedged = doctor("prior-hedge", "remap off", (outcome) => (outcome.category === "sales_insight_mining" ? pass(outcome) : outcome));
    expect(failing("prior-hedge passes no more than the chance floor", hedged, "remap off")[0]!.detail).toMatch(/sales_insight_mining 100 vs floor/);
    const lucky = doctor("category-prior", "remap off", (outcome) => (outcome.category === "lead_routing" ? pass(outcome) : outcome));
    expect(failing("the category prior passes what the chance floor says", lucky, "remap off").map((check) => check.ok)).toEqual([false]);
  });

  it("fails the controls when the holes they show are closed", () => {
    const closed = doctor("index-lookup", "remap off", (outcome) => (outcome.idAnswer ? { ...outcome, passed: { original: false, success: false } } : outcome));
    expect(failing("control: without remapping", closed, "remap off").map((check) => check.ok)).toEqual([false, false, false]);
    const keyed = doctor("seed-replay", "remap on, seed 1, no secret", (outcome) => ({ ...outcome, passed: { original: outcome.floor, success: outcome.floor } }));
    expect(failing("control: with the seed alone", keyed, "remap on, seed 1, no secret").map((check) => check.ok)).toEqual([false]);
  });
});
