import { existsSync, readFileSync } from "node:fs";
import { beforeAll, describe, expect, it } from "vitest";
import { categorySpec, isPrivacyCategory } from "../../src/datasets/index.js";
import type { TaskRecord } from "../../src/tasks/index.js";
import { buildTwins, TwinKey, type TwinSet } from "../../src/twins/index.js";
import {
  answerChanges,
  categoryPassRates,
  FLAKY_WRONG_ANSWER,
  flakes,
  flakyStrategy,
  majorityShare,
  memorisationOnTwins,
  runTwinsSuite,
  spliceTwinKeys,
  standardDeviation,
  TWIN_LOOKUP_SLACK_POINTS,
  type TwinKeysReport,
  twinKeysBlock,
  twinKeysSection,
  validityMarkdown,
} from "../../src/validity/index.js";
import { calibration, REAL_TASKS } from "../support/helpers.js";

/**
 * Memorisation on twins, over the categories whose twin makers exist (the others are listed
 * and skipped): two seeds give different twins of the same source task, and the public answer
 * file (the lookups of src/validity/answer-key.ts holding the real task file) is worth no more
 * on twins than the category prior (the best zero-work purple, or the twins' own most common
 * answer) plus TWIN_LOOKUP_SLACK_POINTS (which twins are None is placed by the seed, so the file
 * does not tell it).
 */
const hasReal = existsSync(REAL_TASKS);
let real: TaskRecord[] = [];
const sets = new Map<number, TwinSet>();
let twinned: string[] = [];

beforeAll(() => {
  if (!hasReal) return;
  real = JSON.parse(readFileSync(REAL_TASKS, "utf8")) as TaskRecord[];
  for (const seed of [1, 2]) sets.set(seed, buildTwins(real, TwinKey.unkeyed(seed)));
  const categories = [...new Set(real.map((task) => task.task))];
  twinned = categories.filter((category) => [1, 2].every((seed) => sets.get(seed)!.tasks.some((task) => task.task === category)));
  const placeholders = categories.filter((category) => !twinned.includes(category));
  process.stdout.write(`[twins] categories with twins at both seeds: ${twinned.join(", ") || "none"}\n`);
  if (placeholders.length > 0) process.stdout.write(`[twins] skipped (no twin at some seed: a placeholder or failing maker): ${placeholders.join(", ")}\n`);
}, 120_000);

describe.skipIf(!hasReal)("memorisation on twins", () => {
  it("gives different twins of the same source task at two seeds", (context) => {
    if (twinned.length === 0) context.skip();
    const [a, b] = [sets.get(1)!.tasks, sets.get(2)!.tasks];
    const other = new Map(b.map((task) => [task.idx, task]));
    // A privacy task's answer is a refusal whatever its entities: nothing to memorise, so its texts may stay alike.
    const exempt = twinned.filter((category) => isPrivacyCategory(categorySpec(category)!));
    if (exempt.length > 0) process.stdout.write(`[twins] text change not required (privacy: the answer is a refusal): ${exempt.join(", ")}\n`);
    const alike: string[] = [];
    for (const category of twinned) {
      if (exempt.includes(category)) continue;
      const pairs = a.filter((task) => task.task === category && other.has(task.idx));
      const textOf = (task: TaskRecord) => `${task.query}\n${task.metadata.required}`;
      const answerOf = (task: TaskRecord) => JSON.stringify(task.answer);
      const textDiffers = pairs.filter((task) => textOf(task) !== textOf(other.get(task.idx)!));
      const differs = pairs.filter((task) => textOf(task) !== textOf(other.get(task.idx)!) || answerOf(task) !== answerOf(other.get(task.idx)!));
      const change = answerChanges(
        a.filter((task) => task.task === category),
        b,
      )[0]!;
      const share = differs.length / pairs.length;
      process.stdout.write(
        `[twins] ${category}: ${pairs.length} pairs, text differs ${((100 * textDiffers.length) / pairs.length).toFixed(1)}%, answer differs ${((100 * change.differ) / change.compared).toFixed(1)}%, text or answer ${(100 * share).toFixed(1)}%\n`,
      );
      // A twin the same at both seeds (text and answer) is what a memorising purple can learn; None twins of entity-free wordings may be, most others not.
      if (share < 0.5) alike.push(`${category}: only ${(100 * share).toFixed(1)}% of its twins differ between seeds`);
    }
    expect(alike).toEqual([]);
  });

  it(`lets a purple holding the public answer file pass no more than the category prior + ${TWIN_LOOKUP_SLACK_POINTS} points`, async (context) => {
    if (twinned.length === 0) context.skip();
    const over: string[] = [];
    for (const seed of [1, 2]) {
      const twins = sets.get(seed)!.tasks.filter((task) => twinned.includes(task.task));
      for (const entry of await memorisationOnTwins(real, twins, seed)) {
        const line = `seed ${seed} ${entry.category}: ${entry.lookup.name} ${(100 * entry.lookup.pass).toFixed(1)}% vs ${entry.prior.name} ${(100 * entry.prior.pass).toFixed(1)}%, most common answer ${(100 * entry.majority).toFixed(1)}% (${entry.tasks} twins)`;
        process.stdout.write(`[twins] ${line}\n`);
        if (entry.lookup.pass > Math.max(entry.prior.pass, entry.majority) + TWIN_LOOKUP_SLACK_POINTS / 100) over.push(line);
      }
    }
    expect(over).toEqual([]);
  }, 120_000);
});

describe("the twin part of the validity suite", () => {
  it("the twins' own category prior: the share of their most common answer, an exact_match list in any order", () => {
    expect(
      majorityShare([task(0, "c", [null]), task(1, "c", ["Quote"]), task(2, "c", ["Quote"]), task(3, "c", ["a", "b"]), task(4, "c", ["b", "a"]), task(5, "c", ["b", "a"])]),
    ).toBe(0.5);
    expect(majorityShare([])).toBe(0);
  });

  const task = (idx: number, category: string, answer: (string | null)[], query = `question ${idx}`): TaskRecord => ({
    idx,
    answer,
    task: category,
    persona: "p",
    metadata: { required: "", optional: "" },
    reward_metric: "exact_match",
    query,
  });

  it("gives a measurement's pass rate per category, over all seeds or one", () => {
    const figure = (category: string, passed: boolean) => ({ total: passed ? 100 : 0, passed, category, rewardMetric: "exact_match" });
    const episodes = new Map([
      ["1:5", figure("handle_time", true)],
      ["1:6", figure("handle_time", false)],
      ["2:5", figure("handle_time", true)],
      ["2:7", figure("lead_routing", true)],
    ]);
    const m = {
      purple: "analyst",
      kind: "reference" as const,
      level: { drift_level: "none" as const, rot_level: "none" as const },
      passRate: 0.75,
      total: 75,
      dimensions: {},
      episodes,
    };
    expect(categoryPassRates(m)).toEqual(
      new Map([
        ["handle_time", 2 / 3],
        ["lead_routing", 1],
      ]),
    );
    expect(categoryPassRates(m, 1)).toEqual(new Map([["handle_time", 0.5]]));
    expect(categoryPassRates(m, 2)).toEqual(
      new Map([
        ["handle_time", 1],
        ["lead_routing", 1],
      ]),
    );
  });

  it("counts, per category, the twins whose answer differs between the seeds (order does not count for exact_match)", () => {
    const a = [task(1, "handle_time", ["x"]), task(2, "handle_time", ["a", "b"]), task(3, "lead_routing", ["None"]), task(4, "lead_routing", ["y"])];
    const b = [task(1, "handle_time", ["z"]), task(2, "handle_time", ["b", "a"]), task(3, "lead_routing", ["None"])];
    expect(answerChanges(a, b)).toEqual([
      { category: "handle_time", metric: "exact_match", compared: 2, differ: 1 },
      { category: "lead_routing", metric: "exact_match", compared: 1, differ: 0 },
    ]);
  });

  it("says clearly when no twin set can be built, and the doc says it was not measured", async () => {
    const report = await runTwinsSuite([task(1, "handle_time", ["x"])], "the test file", () => Promise.reject(new Error("no twin could be made")), calibration);
    expect(report).toEqual({ missing: "no twin set at seed 1: no twin could be made" });
    const sample = { measurements: [], checks: [], roster: [], options: { levels: [], seeds: [1] }, dataLabel: "none" };
    const markdown = validityMarkdown(sample, { missing: "no file" }, report);
    expect(markdown).toContain("## Twins (full size, with their org)\n\nNot measured in this run: no twin set at seed 1: no twin could be made.");
    expect(validityMarkdown(sample, { missing: "no file" })).toContain("Not measured in this run: not asked for (`npm run validity -- --twins`).");
  });

  it("a flaky purple misses the share of episodes a hash of each chooses, and answers as its strategy in the others", async () => {
    const episodes = Array.from({ length: 2000 }, (_, i) => `ep-${i}\0task text ${i}`);
    const missed = episodes.filter((episode) => flakes(episode, 0.3)).length;
    expect(missed / episodes.length).toBeGreaterThan(0.27);
    expect(missed / episodes.length).toBeLessThan(0.33);
    const flaky = flakyStrategy(async () => "the answer", 0.3);
    const answers = await Promise.all(
      Array.from({ length: 200 }, (_, i) => flaky({ taskId: `ep-${i}`, category: "handle_time", prompt: "p", requiredContext: "", data: {} }, {} as never)),
    );
    expect(new Set(answers)).toEqual(new Set(["the answer", FLAKY_WRONG_ANSWER]));
    const again = await flaky({ taskId: "ep-7", category: "handle_time", prompt: "p", requiredContext: "", data: {} }, {} as never);
    expect(again).toBe(answers[7]);
  });

  it("writes the between-key spread into its own section of the doc, which a full run keeps", () => {
    expect(standardDeviation([1, 2, 3, 4])).toBeCloseTo(1.291, 3);
    expect(standardDeviation([5])).toBe(0);
    const report: TwinKeysReport = {
      seed: 1,
      level: { drift_level: "none", rot_level: "none" },
      keys: ["aaaa", "bbbb"],
      seconds: 12,
      spreads: [
        {
          purple: "analyst",
          description: "the analyst",
          perKey: [
            { key: "aaaa", twins: 10, passRate: 0.9 },
            { key: "bbbb", twins: 9, passRate: 0.8 },
          ],
          meanPoints: 85,
          sdPoints: standardDeviation([90, 80]),
        },
      ],
    };
    const section = twinKeysSection(report);
    expect(section).toContain("| analyst | 90.0 | 80.0 | 85.0 | 7.07 |");
    expect(section).toContain("| (twins) | 10 | 9 | | |");
    expect(section).toContain("NOT met by every purple");
    const doc = "# Validity\n\n## Twins\n\ntext\n\n## Sample (with its org)\n\nrows\n";
    const once = spliceTwinKeys(doc, section);
    expect(once.indexOf(section)).toBeLessThan(once.indexOf("## Sample (with its org)"));
    expect(once.indexOf(section)).toBeGreaterThan(once.indexOf("## Twins"));
    // Written again, the section is replaced, not repeated; a freshly written doc gets the kept block back.
    const twice = spliceTwinKeys(once, twinKeysSection({ ...report, seconds: 99 }));
    expect(twice.split("### Between twin keys").length).toBe(2);
    expect(twice).toContain("Measured in 99 s.");
    expect(spliceTwinKeys(doc, twinKeysBlock(twice)!)).toBe(twice);
  });
});
