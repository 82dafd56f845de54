import { describe, expect, it } from "vitest";
import type { TaskRecord } from "../../src/tasks/index.js";
import { buildTwins, defineTwinCategory, generateTwinWorld, placeNones, readDaysAgo, readPeriod, TwinKey, withYear } from "../../src/twins/index.js";

describe("the twins' reading of time windows", () => {
  const today = "2023-05-17";
  it.each([
    ["over the last 6 quarters", "2021-11-17", today],
    ["in the past three months", "2023-02-17", today],
    ["during the previous 2 weeks", "2023-05-03", today],
    ["in the last month", "2023-04-17", today],
    ["over the past year", "2022-05-17", today],
    ["in the third quarter of 2020", "2020-07-01", "2020-09-30"],
    ["in Q4 of 2021", "2021-10-01", "2021-12-31"],
    ["during the winter of 2020", "2020-12-01", "2021-02-28"],
    ["in fall 2021", "2021-09-01", "2021-11-30"],
    ["in November 2020", "2020-11-01", "2020-11-30"],
    ["in February 2024", "2024-02-01", "2024-02-29"],
    ["in the 2020 Winter season", "2020-12-01", "2021-02-28"],
    ["over the preceding 5 months", "2022-12-17", today],
  ])("%s is [%s, %s]", (phrase, start, end) => {
    const period = readPeriod(`Which agent did best ${phrase}?`, today);
    expect(period).toMatchObject({ start, end });
  });

  it("finds no window where the text names none", () => {
    expect(readPeriod("Which agent closed the most cases?", today)).toBeUndefined();
  });

  it("moves a named period's year and leaves the rest of the text", () => {
    const text = "Which state closed cases fastest in the fall of 2021? Answer briefly.";
    const period = readPeriod(text, today)!;
    expect(withYear(text, period, 2023)).toBe("Which state closed cases fastest in the fall of 2023? Answer briefly.");
    const relative = readPeriod("over the last 4 months", today)!;
    expect(withYear("over the last 4 months", relative, 2023)).toBe("over the last 4 months");
  });

  it.each([
    ["that I bought three days prior", "2023-05-14"],
    ["purchased a week back", "2023-05-10"],
    ["ordered 2 months ago", "2023-03-17"],
    ["bought last week", "2023-05-10"],
  ])("'%s' points at %s", (phrase, day) => {
    expect(readDaysAgo(phrase, today)?.day).toBe(day);
  });
});

describe("the twin world and builder", () => {
  it("issues fresh Ids that collide with no generated record", () => {
    const world = generateTwinWorld(TwinKey.unkeyed(3), 0.1);
    const ids = new Set(Object.values(world.tables).flatMap((rows) => rows.map((row) => String(row.Id))));
    for (let i = 0; i < 500; i++) {
      const id = world.newId("Case");
      expect(id).toMatch(/^500Wt[0-9A-Za-z]{13}$/);
      expect(ids.has(id)).toBe(false);
      ids.add(id);
    }
  });

  it("indexes records by field and sees the ones added later", () => {
    const world = generateTwinWorld(TwinKey.unkeyed(3), 0.1);
    const account = world.rows("Account")[0]!;
    const before = world.where("Contact", "AccountId", String(account.Id)).length;
    world.add("Contact", { Id: world.newId("Contact"), FirstName: "Ada", LastName: "Quill", Email: "ada@example.test", AccountId: account.Id });
    expect(world.where("Contact", "AccountId", String(account.Id))).toHaveLength(before + 1);
    expect(world.byId(String(account.Id))).toBe(account);
  });

  it("reports a task of a category with no twin maker as missing instead of dropping it silently", () => {
    const task = { idx: 7, answer: ["x"], task: "no_such_category", persona: "p", metadata: { required: "", optional: "" }, reward_metric: "exact_match" as const, query: "q" };
    const set = buildTwins([task], TwinKey.unkeyed(1), { scale: 0.1 });
    expect(set.tasks).toEqual([]);
    expect(set.missing).toEqual([{ idx: 7, category: "no_such_category" }]);
  });

  // 40 handle_time tasks, the first 8 of them None; a toy maker answers None or "005 Id" as asked.
  const source: TaskRecord[] = Array.from({ length: 40 }, (_, idx) => ({
    idx,
    answer: idx < 8 ? ["None"] : [`005Source${idx}`],
    task: "handle_time",
    persona: "p",
    metadata: { required: "", optional: "" },
    reward_metric: "exact_match" as const,
    query: `question ${idx}`,
  }));
  const noneOf = (tasks: readonly TaskRecord[]) => tasks.filter((task) => task.answer[0] === "None").map((task) => task.idx);
  // Task 3's wording has no non-None answer on any draw, task 5's has no twin at all.
  const toy = defineTwinCategory({
    name: "handle_time",
    twin: ({ source: task, rng, wantNone }) =>
      task.idx === 5 || (task.idx === 3 && !wantNone) ? undefined : { query: task.query, required: "", answer: wantNone ? ["None"] : [`005Twin${rng.int(0, 9)}`] },
  });

  it("places a category's None twins by the seed: as many as its source has, not on the None sources", () => {
    const one = [...placeNones(source, TwinKey.unkeyed(1))].sort((a, b) => a - b);
    const two = [...placeNones(source, TwinKey.unkeyed(2))].sort((a, b) => a - b);
    expect(one).toHaveLength(8);
    expect(two).toHaveLength(8);
    expect(one).not.toEqual(two);
    expect(one).not.toEqual([0, 1, 2, 3, 4, 5, 6, 7]);
    expect([...placeNones(source, TwinKey.unkeyed(1))].sort((a, b) => a - b)).toEqual(one);
  });

  it("swaps None-ness between two twins of a category when a wording has no twin at its placed None-ness, keeping the count", () => {
    const seed = [...Array(50).keys()].find((s) => !placeNones(source, TwinKey.unkeyed(s)).has(3) && !placeNones(source, TwinKey.unkeyed(s)).has(5))!;
    const set = buildTwins(source, TwinKey.unkeyed(seed), { scale: 0.1, makers: [toy] });
    // Task 5 can have no twin: reported. Task 3 was placed non-None, has none, so it became None and another None twin took its place.
    expect(set.missing).toEqual([{ idx: 5, category: "handle_time" }]);
    expect(set.tasks.map((task) => task.idx)).toEqual(source.map((task) => task.idx).filter((idx) => idx !== 5));
    expect(noneOf(set.tasks)).toContain(3);
    expect(noneOf(set.tasks)).toHaveLength(8);
    const placed = placeNones(source, TwinKey.unkeyed(seed));
    const moved = set.tasks.filter((task) => placed.has(task.idx) !== (task.answer[0] === "None")).map((task) => task.idx);
    expect(moved).toHaveLength(2);
    expect(moved).toContain(3);
    expect(buildTwins(source, TwinKey.unkeyed(seed), { scale: 0.1, makers: [toy] }).tasks).toEqual(set.tasks);
  });
});
