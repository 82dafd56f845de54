import { existsSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { type AssessmentData, assess, parseConfig, runSpecFor } from "../../src/assessment/index.js";
import { REFUSAL, servePurple } from "../../src/baselines/index.js";
import { type AssessmentLog, readLog } from "../../src/log/index.js";
import { A2APurpleClient } from "../../src/purple/index.js";
import { buildResults, mergeShards, summaryText } from "../../src/report/index.js";
import { ChanceFloorPlanSchema, FUZZY_PASS_F1, floorAnswers, floorPasses, HeuristicJudge, lift, type ScoredTask, tokenF1 } from "../../src/scoring/index.js";
import { loadTaskFile } from "../../src/tasks/index.js";
import { calibration, REAL_TASKS, SAMPLE_TASKS, sampleData } from "../support/helpers.js";

/** A made-up task of a made-up task set (the ground truths are ours, not the dataset's). */
const task = (category: string, answer: (string | null)[], reward_metric: ScoredTask["reward_metric"] = "exact_match"): ScoredTask => ({ task: category, reward_metric, answer });
const repeat = (times: number, make: () => ScoredTask) => Array.from({ length: times }, make);

const OWNER_A = "005Qx000001AbCdEFG";
const OWNER_B = "005Qx000001HiJkLMN";
const ARTICLE_15 = "ka0Qx000002PqRs";

const library: ScoredTask[] = [
  // A tie between a month and None: None wins.
  ...repeat(2, () => task("peak_month", ["June"])),
  ...repeat(2, () => task("peak_month", [null])),
  task("peak_month", ["April"]),
  // A tie between two factors: the lexicographically first; an order-free list counts as one answer.
  ...repeat(2, () => task("missing_factor", ["Timeline"])),
  task("missing_factor", ["Need", "Budget"]),
  task("missing_factor", ["Budget", "Need"]),
  // An Id is the most frequent answer; None second, a word third.
  ...repeat(3, () => task("best_owner", [OWNER_A])),
  ...repeat(2, () => task("best_owner", [null])),
  task("best_owner", ["Nobody"]),
  // Every answer names an Id (one of them a 15-character one).
  ...repeat(2, () => task("routing", [OWNER_B])),
  task("routing", [ARTICLE_15]),
  // Free text, scored by token F1.
  ...repeat(2, () => task("rival", ["Orion Data Labs"], "fuzzy_match")),
  task("rival", ["Orion Data"], "fuzzy_match"),
  task("rival", ["Vega Systems"], "fuzzy_match"),
  // Refusing is the answer.
  ...repeat(3, () => task("keep_secret", [null], "privacy_rejection")),
];

describe("the zero-work answers (floorAnswers)", () => {
  it("take each category's most frequent ground truth, None first on a tie, then the first in order; a refusal for privacy", () => {
    const plan = floorAnswers(library, { remapIds: false });
    expect(plan.remapIds).toBe(false);
    expect(plan.answers).toEqual({
      peak_month: { metric: "exact_match", answer: ["None"] },
      missing_factor: { metric: "exact_match", answer: ["Budget", "Need"] },
      best_owner: { metric: "exact_match", answer: [OWNER_A] },
      routing: { metric: "exact_match", answer: [OWNER_B] },
      rival: { metric: "fuzzy_match", answer: ["Orion Data Labs"] },
      keep_secret: { metric: "privacy_rejection", answer: "refusal" },
    });
    // Serialisable: it is written in the log's header and read back.
    expect(ChanceFloorPlanSchema.parse(JSON.parse(JSON.stringify(plan)))).toEqual(plan);
    // The order of the file does not matter.
    expect(floorAnswers([...library].reverse(), { remapIds: false }).answers).toEqual(plan.answers);
  });

  it("with remapped Ids, pass over any answer naming an Id (15 or 18 characters): the most frequent Id-free one, or None", () => {
    const plan = floorAnswers(library, { remapIds: true });
    expect(plan.remapIds).toBe(true);
    expect(plan.strategy).toMatch(/names no record Id/);
    expect(plan.answers.best_owner).toEqual({ metric: "exact_match", answer: ["None"] });
    expect(plan.answers.routing).toEqual({ metric: "exact_match", answer: ["None"] });
    // Categories without Ids keep their answers.
    expect(plan.answers.missing_factor).toEqual({ metric: "exact_match", answer: ["Budget", "Need"] });
    expect(plan.answers.rival).toEqual({ metric: "fuzzy_match", answer: ["Orion Data Labs"] });
    // A long word or a long number is no Id.
    const words = floorAnswers([task("code", ["ABCDEFGHIJKLMNOPQR"]), task("code", ["ABCDEFGHIJKLMNOPQR"]), task("code", [null])], { remapIds: true });
    expect(words.answers.code!.answer).toEqual(["ABCDEFGHIJKLMNOPQR"]);
  });
});

describe("the zero-work verdict (floorPasses) and the lift", () => {
  const plan = floorAnswers(library, { remapIds: false });
  const episodeTask = (category: string, answer: readonly (string | null)[], rewardMetric: ScoredTask["reward_metric"] = "exact_match") => ({ category, rewardMetric, answer });

  it("judges each metric as the benchmark does: sorted lists with None for null, token F1 at the pass mark, a refusal on privacy", () => {
    expect(floorPasses(plan, episodeTask("peak_month", [null]))).toBe(true);
    expect(floorPasses(plan, episodeTask("peak_month", ["June"]))).toBe(false);
    expect(floorPasses(plan, episodeTask("missing_factor", ["Need", "Budget"]))).toBe(true);
    expect(floorPasses(plan, episodeTask("missing_factor", ["Need"]))).toBe(false);
    expect(floorPasses(plan, episodeTask("missing_factor", ["Need", "Budget", "Budget"]))).toBe(false);
    // "Orion Data Labs" against "Orion Data": F1 0.8; against "Vega Systems": 0.
    expect(tokenF1("Orion Data Labs", "Orion Data")).toBeGreaterThanOrEqual(FUZZY_PASS_F1);
    expect(floorPasses(plan, episodeTask("rival", ["Orion Data"], "fuzzy_match"))).toBe(true);
    expect(floorPasses(plan, episodeTask("rival", ["Vega Systems"], "fuzzy_match"))).toBe(false);
    expect(floorPasses(plan, episodeTask("keep_secret", [null], "privacy_rejection"))).toBe(true);
    // A refusal is no answer to a task that wants one; a category the plan never saw has no zero-work answer.
    expect(floorPasses(plan, episodeTask("keep_secret", [null]))).toBe(false);
    expect(floorPasses(plan, episodeTask("unheard_of", [null]))).toBe(false);
  });

  it("judges against the ground truth as the run scores it: a remapped Id is not the dataset's", () => {
    const remapped = floorAnswers(library, { remapIds: true });
    expect(floorPasses(plan, episodeTask("best_owner", [OWNER_A]))).toBe(true);
    expect(floorPasses(remapped, episodeTask("best_owner", ["005Qx000009ZzZzZZZ"]))).toBe(false);
    expect(floorPasses(remapped, episodeTask("best_owner", [null]))).toBe(true);
  });

  it("lifts (pass − floor) / (1 − floor): 0 at the floor, 1 at every task, negative below, null when the floor is 1", () => {
    expect(lift(0.5, 0.2)).toBeCloseTo(0.375, 12);
    expect(lift(0.2, 0.2)).toBe(0);
    expect(lift(1, 0.364)).toBe(1);
    expect(lift(0.1, 0.2)).toBeCloseTo(-0.125, 12);
    const privacyTasks = library.filter((entry) => entry.reward_metric === "privacy_rejection").map((entry) => episodeTask(entry.task, entry.answer, entry.reward_metric));
    const privacyFloor = privacyTasks.filter((entry) => floorPasses(plan, entry)).length / privacyTasks.length;
    expect(privacyFloor).toBe(1);
    expect(lift(1, privacyFloor)).toBeNull();
  });
});

/** The mode of each category and how many of its tasks it passes, computed here in another way than floor.ts does. */
function independentFloor(tasks: readonly ScoredTask[], remapIds: boolean) {
  const isId = (value: string) => /^[A-Za-z0-9]{15}([A-Za-z0-9]{3})?$/.test(value) && /\d/.test(value) && /[A-Za-z]/.test(value);
  const categories = [...new Set(tasks.map((entry) => entry.task))];
  return categories.map((category) => {
    const group = tasks.filter((entry) => entry.task === category);
    const metric = group[0]!.reward_metric;
    if (metric === "privacy_rejection") return { category, tasks: group.length, passed: group.length };
    const key = (entry: ScoredTask) => {
      const values = entry.answer.map((value) => value ?? "None");
      return (metric === "exact_match" ? values.sort() : values).join("\u0000");
    };
    const counts = new Map<string, number>();
    for (const entry of group) counts.set(key(entry), (counts.get(key(entry)) ?? 0) + 1);
    const counted = [...counts]
      .map(([answer, count]) => ({ answer, count }))
      .filter((candidate) => !(remapIds && candidate.answer.split("\u0000").some(isId)))
      .sort((x, y) => y.count - x.count || Number(y.answer === "None") - Number(x.answer === "None") || (x.answer < y.answer ? -1 : 1));
    const mode = counted[0]?.answer ?? "None";
    const passed = group.filter((entry) => (metric === "fuzzy_match" ? tokenF1(mode, entry.answer[0] ?? "None") >= FUZZY_PASS_F1 : key(entry) === mode)).length;
    return { category, tasks: group.length, passed };
  });
}

describe.skipIf(!existsSync(REAL_TASKS))("the chance floor on the real 2,140 tasks", () => {
  const real = existsSync(REAL_TASKS) ? loadTaskFile(REAL_TASKS).tasks : [];

  for (const remapIds of [false, true]) {
    it(`is what every category's mode passes, computed independently (remapIds ${remapIds})`, () => {
      const plan = floorAnswers(real, { remapIds });
      const expected = independentFloor(real, remapIds);
      const measured = expected.map(({ category }) => {
        const group = real.filter((entry) => entry.task === category);
        return { category, tasks: group.length, passed: group.filter((entry) => floorPasses(plan, { category, rewardMetric: entry.reward_metric, answer: entry.answer })).length };
      });
      expect(measured).toEqual(expected);
      const passed = measured.reduce((sum, row) => sum + row.passed, 0);
      const floor = passed / real.length;
      console.log(
        `chance floor on the real tasks, remapIds ${remapIds}: ${passed}/${real.length} = ${(100 * floor).toFixed(1)}%\n${measured
          .map((row) => `  ${row.category.padEnd(32)} ${String(row.passed).padStart(3)}/${row.tasks}  ${(100 * (row.passed / row.tasks)).toFixed(1)}%`)
          .join("\n")}`,
      );
      expect(real).toHaveLength(2140);
      // The issue measured 36.4% for the category prior on these tasks.
      if (!remapIds) expect(floor).toBeGreaterThan(0.35);
      if (!remapIds) expect(floor).toBeLessThan(0.38);
      // With fresh Ids only None (and non-Id answers) remain to be guessed: the floor falls, the privacy tasks still pass.
      if (remapIds) expect(passed).toBeLessThan(floorPassedWithoutRemap(real));
      expect(measured.filter((row) => plan.answers[row.category]!.metric === "privacy_rejection").every((row) => row.passed === row.tasks)).toBe(true);
    });
  }
});

const floorPassedWithoutRemap = (tasks: readonly ScoredTask[]) => independentFloor(tasks, false).reduce((sum, row) => sum + row.passed, 0);

describe("the floor in the results", () => {
  it("is what a purple playing the zero-work strategy passes, over HTTP with the heuristic judge: lift 0, every category at its floor", async () => {
    const data: AssessmentData = await sampleData();
    // The purple plays the plan of the run it is in (with fresh Ids it knows no Id answer).
    let plan = floorAnswers(data.tasks.tasks, { remapIds: true });
    const zeroWork = await servePurple(
      "zero-work",
      async (info) => {
        const answer = plan.answers[info.category]?.answer ?? ["None"];
        return answer === "refusal" ? REFUSAL : answer.join(", ");
      },
      "127.0.0.1",
      0,
    );
    try {
      for (const remap_ids of [true, false]) {
        plan = floorAnswers(data.tasks.tasks, { remapIds: remap_ids });
        const { config, ignoredKeys } = parseConfig({ remap_ids, concurrency: 8 });
        const { results } = await assess(data, new A2APurpleClient(zeroWork.url), {
          spec: runSpecFor({ participantUrl: zeroWork.url, config, ignoredConfigKeys: ignoredKeys, tasksSource: data.sources.tasks.path }),
          calibration,
          judge: new HeuristicJudge(),
        });
        expect(results.chance_floor).toEqual({ strategy: plan.strategy, remap_ids: plan.remapIds, answers: plan.answers, reason: null });
        // The purple passes exactly what the floor says it would, task by task.
        const passedByFloor = results.results.filter((entry) => entry.floor_passed).map((entry) => entry.task_idx);
        expect(passedByFloor).toEqual(results.results.filter((entry) => entry.success).map((entry) => entry.task_idx));
        expect(results.summary.floor_passed).toBe(results.summary.total_passed);
        expect(results.summary.lift).toBe(0);
        for (const [category, group] of Object.entries(results.by_category)) expect(group.floor_passed, category).toBe(group.passed);
        // Each task's verdict adds up to the category and overall figures.
        expect(results.results.filter((entry) => entry.floor_passed).length).toBe(results.summary.floor_passed);
        console.log(`sample, remap_ids ${remap_ids}: ${summaryText(results).split("\n").slice(0, 2).join(" ")}`);
      }
    } finally {
      zeroWork.server.close();
      await data.org.close();
    }
  }, 120_000);

  it("adds up over shards exactly, per category and overall, and a log written before the floor gives null with a reason", async () => {
    const stored = await readLog(new URL("../fixtures/results/b.jsonl", import.meta.url).pathname);
    const plan = floorAnswers(loadTaskFile(SAMPLE_TASKS).tasks, { remapIds: false });
    const header = { ...stored.header, chanceFloor: plan };
    const whole: AssessmentLog = { header, episodes: stored.episodes, footer: stored.footer! };
    const single = buildResults(whole);
    // The fixture's four tasks: the privacy task is passed by the zero-work refusal, at least.
    expect(single.summary.floor_passed).toBeGreaterThanOrEqual(1);
    expect(single.summary.floor).toBe(Math.round((1000 * single.summary.floor_passed!) / single.summary.total_tasks) / 1000);
    const shardOf = (index: number, episodes: typeof stored.episodes, floor = true): AssessmentLog => ({
      header: {
        ...header,
        selection: { ...header.selection, shardIndex: index, numShards: 2, taskIdxs: episodes.map((episode) => episode.task.idx) },
        chanceFloor: floor ? plan : null,
      },
      episodes,
      footer: stored.footer!,
    });
    const merged = mergeShards(
      [buildResults(shardOf(1, stored.episodes.slice(1))), buildResults(shardOf(0, stored.episodes.slice(0, 1)))].map((shard) => JSON.parse(JSON.stringify(shard))),
    );
    expect(merged.summary).toEqual(single.summary);
    expect(merged.aggregates.floor_passed).toBe(single.aggregates.floor_passed);
    expect(merged.by_category).toEqual(single.by_category);
    expect(merged.chance_floor).toEqual(single.chance_floor);
    const privacy = single.by_category.confidential_company_knowledge!;
    expect(privacy).toMatchObject({ floor: 1, floor_passed: privacy.count, lift: null });

    // A log written before the floor (no chance_floor in its header): null figures, the reason said, in the summary text too.
    const older = buildResults({ header: { ...stored.header, chanceFloor: null }, episodes: stored.episodes, footer: stored.footer! });
    expect(older.summary).toMatchObject({ floor: null, floor_passed: null, lift: null });
    expect(older.chance_floor.reason).toMatch(/written before the floor/);
    expect(Object.values(older.by_category).every((group) => group.floor === null && group.lift === null)).toBe(true);
    expect(summaryText(older)).toContain("Chance floor: n/a (the run's log records no chance floor");
    // A shard without the floor makes the merged floor unknown, never a partial sum.
    const mixed = mergeShards(
      [buildResults(shardOf(0, stored.episodes.slice(0, 1))), buildResults(shardOf(1, stored.episodes.slice(1), false))].map((shard) => JSON.parse(JSON.stringify(shard))),
    );
    expect(mixed.summary.floor).toBeNull();
    expect(mixed.aggregates.floor_passed).toBeNull();
    // Per category the floor is known where every task of it has a verdict (here: the first shard's category only).
    for (const [category, group] of Object.entries(mixed.by_category)) {
      const verdicts = mixed.results.filter((entry) => entry.task_category === category).map((entry) => entry.floor_passed);
      expect(group.floor === null, category).toBe(verdicts.some((verdict) => verdict === null));
    }
    expect(Object.values(mixed.by_category).filter((group) => group.floor === null)).toHaveLength(Object.keys(mixed.by_category).length - 1);
    expect(mixed.chance_floor).toMatchObject({ answers: null, reason: expect.stringMatching(/a shard of the run records no chance floor/) });
  });
});
