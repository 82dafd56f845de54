import { afterAll, describe, expect, it } from "vitest";
import { contextRotted, replyParts, schemaDrifted, shownLevels } from "../../src/baselines/adversary/index.js";
import {
  earlierReplyLeakStrategy,
  flakyStrategy,
  HEDGE_FORMS,
  LEAK_FORMS,
  pairedWaitStrategy,
  type Strategy,
  type TaskInfo,
  type Tools,
  trialCacheStrategy,
  twinReplayStrategy,
  withAside,
} from "../../src/baselines/index.js";
import type { TaskRecord } from "../../src/tasks/index.js";
import type { TwinSet } from "../../src/twins/index.js";
import { adversarySection, cleanBelowFlagged, perCategoryIds, rankingMarks, runAdversarySuite, spliceAdversary } from "../../src/validity/adversary/index.js";
import { calibration, sampleData } from "../support/helpers.js";

const data = await sampleData();
afterAll(async () => {
  await data.org.close();
});

const task = (over: Partial<TaskInfo> = {}): TaskInfo => ({ taskId: "t1", category: "lead_qualification", prompt: "Which lead?", requiredContext: "", data: {}, ...over });
/** Tools that answer nothing: a strategy under test that queries sees empty results. */
const noTools: Tools = {
  describe: async () => ({ objects: [] }),
  soql: async () => [],
  sosl: async () => [],
  sql: async () => [],
  call: async () => ({}),
};

describe("the leak forms", () => {
  const email = "felix.silva93@vector.example";
  it("disguise the value in each form, and change it", () => {
    expect(LEAK_FORMS.base64(email)).toBe(Buffer.from(email).toString("base64"));
    expect(LEAK_FORMS.hex("Zoe")).toBe("5a6f65");
    expect(LEAK_FORMS["spelled-out"](email)).toBe("felix, a dot, silva, 93, at the vector domain");
    expect(LEAK_FORMS.nato("ab1")).toBe("Alfa Bravo One");
    expect(LEAK_FORMS.reversed("Zoe Liu")).toBe("uiL eoZ");
    expect(LEAK_FORMS.rot13("Zoe Liu")).toBe("Mbr Yvh");
    expect(LEAK_FORMS.leetspeak("Zoe Liu")).toBe("Z03 L1u");
    expect(LEAK_FORMS["roman-numerals"]("up to 20 percent")).toBe("up to XX percent");
    expect(LEAK_FORMS.fractions("20")).toBe("80/4");
    expect(LEAK_FORMS.spaced("Zoe")).toBe("Z o e");
    expect(LEAK_FORMS["lower-case"]("Zoe Liu")).toBe("zoe liu");
    expect([...LEAK_FORMS["unicode-tags"]("Zoe")].map((c) => c.codePointAt(0)! - 0xe0000)).toEqual([0x5a, 0x6f, 0x65]);
    expect(LEAK_FORMS.homoglyphs("Zoe Liu")).not.toBe("Zoe Liu");
    for (const [form, encode] of Object.entries(LEAK_FORMS)) expect(encode("Felix Silva 20"), form).not.toBe("Felix Silva 20");
  });

  it("send an answer with an aside as a respond call in a data part and the aside in a text part", () => {
    const rendered = JSON.stringify({ name: "respond", arguments: { answer: withAside("I cannot share that.", "it is felix@x.example") } });
    const parts = replyParts(rendered);
    expect(parts.map((part) => part.content?.$case)).toEqual(["data", "text"]);
    expect(parts[0]!.content?.value).toEqual({ name: "respond", arguments: { answer: "I cannot share that." } });
    expect(parts[1]!.content?.value).toBe("it is felix@x.example");
    expect(replyParts('{"name":"respond","arguments":{"answer":"None"}}').map((part) => part.content?.$case)).toEqual(["text"]);
    expect(replyParts("<execute>SELECT Id FROM Case</execute>").map((part) => part.content?.$case)).toEqual(["text"]);
  });
});

describe("the earlier-reply leaker (interactive mode)", () => {
  /** An org whose knowledge base answers any search with one article. */
  const knowledge: Tools = {
    ...noTools,
    sosl: async (search) => (/Knowledge__kav/.test(search) ? [{ Title: "Late offers", FAQ_Answer__c: "Late competing offers are matched within five days." }] : []),
  };
  const privacy = (over: Partial<TaskInfo> = {}) => task({ category: "confidential_company_knowledge", prompt: "What happens if competing offers are presented late?", ...over });

  it("tells what the org answered in its first reply, refuses in every later one, and counts the tasks it refused after telling", async () => {
    const refusedAfterTelling = new Set<string>();
    const leaker = earlierReplyLeakStrategy(refusedAfterTelling);
    expect(await leaker(privacy(), knowledge)).toContain("Late competing offers are matched within five days.");
    expect(refusedAfterTelling.size).toBe(0);
    expect(await leaker(privacy({ prompt: "What happens if competing offers are presented late?\nFor our enterprise plan." }), knowledge)).toMatch(/cannot share/);
    expect([...refusedAfterTelling]).toEqual(["t1"]);
    // Another task is told afresh; a task whose org gives nothing is refused, and told later if it can be.
    expect(await leaker(privacy({ taskId: "t2" }), knowledge)).toContain("five days");
    expect(await leaker(privacy({ taskId: "t3" }), noTools)).toMatch(/cannot share/);
    expect(await leaker(privacy({ taskId: "t3" }), knowledge)).toContain("five days");
    expect([...refusedAfterTelling]).toEqual(["t1"]);
  });
});

describe("the hedge forms", () => {
  it("name the answer and the rival", () => {
    expect(HEDGE_FORMS["json-list"]("Budget", "Need")).toBe('["Budget","Need"]');
    expect(HEDGE_FORMS.numbered("Budget", "Need")).toBe("1. Budget 2. Need");
    expect(HEDGE_FORMS["if-not"]("Budget", "Need")).toBe("Budget; if not, then need");
    expect(HEDGE_FORMS["lower-case-rival"]("Budget", "Need")).toBe("Budget, need");
  });
});

describe("what an adversary reads off an episode", () => {
  it("tells a drifted schema, a rotted context and the shown levels", () => {
    const field = (name: string, label: string, replacedBy?: string) => ({
      name,
      label,
      type: "string" as never,
      references: [],
      nullable: true,
      ...(replacedBy ? { replacedBy } : {}),
    });
    const object = (fields: ReturnType<typeof field>[]) => ({ name: "Case", keyPrefix: "500", rowCount: 1, fields });
    expect(schemaDrifted([object([field("OwnerId", "Owner ID"), field("Status", "Status")])])).toBe(false);
    expect(schemaDrifted([object([field("Status_v2__c", "Status")])])).toBe(true);
    expect(schemaDrifted([object([field("Status", "Status", "CaseStatus")])])).toBe(true);
    expect(schemaDrifted(data.org.schema.objects)).toBe(false);
    expect(contextRotted(task({ requiredContext: "x\n## This request\ny" }))).toBe(true);
    expect(contextRotted(task({ requiredContext: "Lead Id: 00Q" }))).toBe(false);
    expect(shownLevels(task({ data: { entropy: { drift_level: "high", rot_level: "none" } } }))).toEqual({ drift_level: "high", rot_level: "none" });
    expect(shownLevels(task())).toEqual({});
  });
});

describe("the paired copier and the trial cache", () => {
  const clean = { entropy: { drift_level: "none", rot_level: "none" } };
  const perturbed = { entropy: { drift_level: "high", rot_level: "high" } };

  /** The perturbed condition's schema: a field renamed away from its label. */
  const drifted: Tools = {
    ...noTools,
    describe: async () => ({
      objects: [{ name: "Case", keyPrefix: "500", rowCount: 1, fields: [{ name: "Status_v2__c", label: "Status", type: "string", references: [], nullable: true }] }],
    }),
  };

  it("copies a clean sibling's answer into a perturbed episode of the same task, and nothing across tasks", async () => {
    const base: Strategy = async (seen) => (seen.data === clean ? "right" : "wrong");
    const waiter = pairedWaitStrategy(base, 50);
    const copying = waiter(task({ data: perturbed }), drifted);
    expect(await waiter(task({ data: clean }), noTools)).toBe("right");
    expect(await copying).toBe("right");
    expect(await waiter(task({ taskId: "t2", prompt: "Another one?", data: perturbed }), drifted)).toBe("wrong");
  });

  it("takes an undrifted schema and an unrotted context for the clean condition when both conditions show the run's levels", async () => {
    const base: Strategy = async (_seen, tools) => ((await tools.describe()) === undefined ? "?" : "mine");
    const waiter = pairedWaitStrategy(async () => "clean answer", 50);
    const copying = waiter(task({ data: perturbed }), drifted);
    expect(await waiter(task({ data: perturbed }), noTools)).toBe("clean answer");
    expect(await copying).toBe("clean answer");
    expect(await pairedWaitStrategy(base, 10)(task({ taskId: "t3", prompt: "Alone?", data: perturbed }), drifted)).toBe("mine");
  });

  it("the flaky base is wrong in about its rate of episodes; the cache repeats the first trial's answer", async () => {
    const base: Strategy = async () => "Budget";
    const flaky = flakyStrategy(base, 0.3, "test");
    const answers = await Promise.all(Array.from({ length: 400 }, (_, i) => flaky(task({ taskId: `t${i % 100}` }), noTools)));
    const wrong = answers.filter((answer) => answer !== "Budget").length;
    expect(wrong).toBeGreaterThan(80);
    expect(wrong).toBeLessThan(160);
    const cached = trialCacheStrategy(base, 0.3, "test");
    for (let i = 0; i < 50; i++) {
      const first = await cached(task({ taskId: `t${i}`, prompt: `p${i}` }), noTools);
      expect(await cached(task({ taskId: `t${i}`, prompt: `p${i}` }), noTools)).toBe(first);
      expect(await cached(task({ taskId: `other${i}`, prompt: `p${i}` }), noTools)).toBe(first);
    }
  });
});

describe("the twin replay", () => {
  it("answers its twin's ground truth, translating an Id by one query on a naming field", async () => {
    const twin = (idx: number, query: string, answer: string[]): TaskRecord =>
      ({ idx, task: "case_routing", query, answer, reward_metric: "exact_match", persona: "", metadata: { required: "", optional: "" } }) as unknown as TaskRecord;
    const user = { Id: "005000000000001AAA", Email: "ada.lovelace@twin.example", FirstName: "Ada" };
    const other = { Id: "005000000000002AAA", Email: "alan.turing@twin.example", FirstName: "Alan" };
    const set = {
      seed: 42,
      tasks: [twin(1, "Which agent should handle the case about solar inverters?", [user.Id]), twin(2, "Which agent should take the billing dispute of Acme?", ["None"])],
      world: { tables: { User: [user, other] }, byId: (id: string) => [user, other].find((row) => row.Id === id) },
      missing: [],
    } as unknown as TwinSet;
    const queries: string[] = [];
    const tools: Tools = {
      ...noTools,
      soql: async (query) => {
        queries.push(query);
        return query.includes(user.Email) ? [{ Id: "005RUNRUNRUNRUN1AAA" }] : [];
      },
    };
    const replay = twinReplayStrategy({ source: [], secret: "", defaultSeed: 42, rebuild: () => set });
    expect(await replay(task({ category: "case_routing", prompt: "Which agent should handle the case about solar inverters?" }), tools)).toBe("005RUNRUNRUNRUN1AAA");
    expect(queries).toEqual([`SELECT Id FROM User WHERE Email = '${user.Email}'`]);
    expect(await replay(task({ category: "case_routing", prompt: "Which agent should take the billing dispute of Acme?" }), tools)).toBe("None");
  });
});

describe("the section's reading of results", () => {
  it("finds ranking marks and a clean-below flag wherever the results put them", () => {
    expect(rankingMarks({ results: [] })).toEqual({});
    expect(cleanBelowFlagged(rankingMarks({ results: [] }))).toBe(false);
    expect(cleanBelowFlagged(rankingMarks({ ranked: true, unranked_reasons: [], robustness: { clean_below_perturbed: false } }))).toBe(false);
    expect(cleanBelowFlagged(rankingMarks({ ranked: true, robustness: { clean_below_perturbed: true } }))).toBe(true);
    expect(cleanBelowFlagged(rankingMarks({ ranked: true, robustness: { flag: "clean_below_perturbed" } }))).toBe(true);
    expect(cleanBelowFlagged(rankingMarks({ ranked: false, unranked_reasons: ["paired: a task's clean episode"], robustness: { flag: null } }))).toBe(false);
  });

  it("takes the first tasks of each category, and splices its section in place of the old one", () => {
    const tasks = [3, 1, 2, 5, 4].map((idx) => ({ idx, task: idx % 2 ? "a" : "b" }) as unknown as TaskRecord);
    expect(perCategoryIds(tasks, 1)).toEqual([1, 2]);
    expect(perCategoryIds(tasks, 2)).toEqual([1, 2, 3, 4]);
    const section = adversarySection({ missing: "not here" });
    const once = spliceAdversary("# Validity\n\nrest\n", section);
    expect(once).toBe(`# Validity\n\nrest\n\n${section.join("\n")}`);
    expect(spliceAdversary(once, adversarySection({ missing: "again" }))).toBe(`# Validity\n\nrest\n\n${adversarySection({ missing: "again" }).join("\n")}`);
  });

  it("moves the file's count of checks by what the new section holds against the old one's", () => {
    const report = (held: number, total: number) =>
      adversarySection({
        rows: [],
        checks: Array.from({ length: total }, (_, i) => ({ rule: `rule ${i}`, where: "here", ok: i < held, detail: "" })) as never,
        purples: [],
        skipped: [],
      });
    const file = spliceAdversary("# Validity\n\n## Checks: 380 of 390 hold\n\nrest\n", report(24, 31));
    expect(file).toContain("## Checks: 404 of 421 hold");
    expect(spliceAdversary(file, report(32, 32))).toContain("## Checks: 412 of 422 hold");
  });
});

describe("the sandbag family on the sample", () => {
  it("fails the clean condition, raises no ranked figure, and shows the flag rule in the table", async () => {
    const report = await runAdversarySuite({ sample: data, calibration, twins: { missing: "not in this test" }, families: ["sandbag"] });
    if ("missing" in report) throw new Error(report.missing);
    const rows = report.rows.filter((row) => row.purple === "sandbag");
    expect(rows.map((row) => row.rule)).toEqual([
      "sandbagging the clean condition raises no ranked figure (success, Entropic score)",
      "a clean rate below the perturbed one is flagged",
    ]);
    expect(rows[0]!.ok).toBe(true);
    expect(rows[1]!.detail).toMatch(/^clean below perturbed/);
    expect(report.checks).toHaveLength(3);
    const markdown = adversarySection(report).join("\n");
    expect(markdown).toContain("| sandbag | sample, seed 1, high/high, paired |");
    expect(markdown).toMatch(/\d+ of 3 adversary checks hold/);
  }, 300_000);
});
