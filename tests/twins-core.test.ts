import { describe, expect, it } from "vitest";
import { buildTwins, generateTwinWorld, readDaysAgo, readPeriod, withYear } from "../src/twins/index.js";

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
    const world = generateTwinWorld(3, 0.1);
    const ids = new Set(Object.values(world.tables).flatMap((rows) => rows.map((row) => String(row.Id))));
    for (let i = 0; i < 500; i++) {
      const id = world.newId("Case");
      expect(id).toMatch(/^500Wt[0-9A-Za-z]{13}$/);
      expect(ids.has(id)).toBe(false);
      ids.add(id);
    }
  });

  it("indexes records by field and sees the ones added later", () => {
    const world = generateTwinWorld(3, 0.1);
    const account = world.rows("Account")[0]!;
    const before = world.where("Contact", "AccountId", String(account.Id)).length;
    world.add("Contact", { Id: world.newId("Contact"), FirstName: "Ada", LastName: "Quill", Email: "ada@example.test", AccountId: account.Id });
    expect(world.where("Contact", "AccountId", String(account.Id))).toHaveLength(before + 1);
    expect(world.byId(String(account.Id))).toBe(account);
  });

  it("reports a task of a category with no twin maker as missing instead of dropping it silently", () => {
    const task = { idx: 7, answer: ["x"], task: "no_such_category", persona: "p", metadata: { required: "", optional: "" }, reward_metric: "exact_match" as const, query: "q" };
    const set = buildTwins([task], 1, { scale: 0.1 });
    expect(set.tasks).toEqual([]);
    expect(set.missing).toEqual([{ idx: 7, category: "no_such_category" }]);
  });
});
