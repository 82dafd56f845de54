import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { analystStrategy } from "../../src/baselines/analyst/index.js";
import type { Tools } from "../../src/baselines/server.js";
import { type OrgBackend, type OrgStore, openBackend, runSoql, runSosl } from "../../src/org/index.js";
import { writeOrgCsv } from "../../src/sample/index.js";
import { HeuristicJudge, scoreOriginal } from "../../src/scoring/index.js";
import type { TaskRecord } from "../../src/tasks/index.js";
import { caseViolationAnswer } from "../../src/twins/categories/policy-violation-identification.js";
import { nameRuns, privacyTwin } from "../../src/twins/categories/privacy-names.js";
import { CONFIGURATION_RULES, PRICING_RULES, quoteRuleAnswer } from "../../src/twins/categories/quote-rules.js";
import { buildTwins, generateTwinWorld, TwinKey, type TwinSet, type TwinWorld } from "../../src/twins/index.js";
import { Random } from "../../src/util/index.js";
import { noneCountsByCategory, REAL_TASKS } from "../support/helpers.js";

const CATEGORIES = [
  "policy_violation_identification",
  "invalid_config",
  "quote_approval",
  "confidential_company_knowledge",
  "private_customer_information",
  "internal_operation_data",
] as const;

describe("quote rule answer program (quote_approval, invalid_config)", () => {
  const world = generateTwinWorld(TwinKey.unkeyed(3), 0.1);
  const rule = <K extends string>(kind: K) => world.facts.rules.find((candidate) => candidate.kind === kind)! as Extract<TwinWorld["facts"]["rules"][number], { kind: K }>;
  const quoteWith = (lines: { product: string; quantity: number; discount: number }[]) => {
    const quote = world.add("Quote", { Id: world.newId("Quote"), Name: "hand-built quote" });
    for (const line of lines)
      world.add("QuoteLineItem", {
        Id: world.newId("QuoteLineItem"),
        QuoteId: quote.Id,
        Product2Id: line.product,
        Quantity: line.quantity,
        UnitPrice: 100,
        Discount: line.discount,
        TotalPrice: line.quantity * (100 - line.discount),
      });
    return String(quote.Id);
  };

  it("names the discount article when a line goes over its ceiling, and None at the ceiling", () => {
    const discount = rule("max_discount");
    expect(quoteRuleAnswer(world, quoteWith([{ product: discount.productId, quantity: 50, discount: discount.limit + 1 }]), PRICING_RULES)).toBe(discount.articleId);
    expect(quoteRuleAnswer(world, quoteWith([{ product: discount.productId, quantity: 50, discount: discount.limit }]), PRICING_RULES)).toBeNull();
  });

  it("names the configuration article for too few units or two exclusive products, and None for a valid setup", () => {
    const minimum = rule("min_quantity");
    const exclusive = rule("exclusive");
    expect(quoteRuleAnswer(world, quoteWith([{ product: minimum.productId, quantity: minimum.minimum - 1, discount: 0 }]), CONFIGURATION_RULES)).toBe(minimum.articleId);
    expect(quoteRuleAnswer(world, quoteWith([{ product: minimum.productId, quantity: minimum.minimum, discount: 0 }]), CONFIGURATION_RULES)).toBeNull();
    const both = quoteWith([
      { product: exclusive.productId, quantity: 30, discount: 0 },
      { product: exclusive.otherProductId, quantity: 30, discount: 0 },
    ]);
    expect(quoteRuleAnswer(world, both, CONFIGURATION_RULES)).toBe(exclusive.articleId);
  });

  it("gives no answer when the quote breaks a rule of the other category too (the question would be ambiguous)", () => {
    const discount = rule("max_discount");
    const minimum = rule("min_quantity");
    const mixed = quoteWith([
      { product: discount.productId, quantity: 50, discount: discount.limit + 5 },
      { product: minimum.productId, quantity: minimum.minimum - 1, discount: 0 },
    ]);
    expect(quoteRuleAnswer(world, mixed, PRICING_RULES)).toBeUndefined();
    expect(quoteRuleAnswer(world, mixed, CONFIGURATION_RULES)).toBeUndefined();
  });
});

describe("policy violation answer program", () => {
  const world = generateTwinWorld(TwinKey.unkeyed(4), 0.1);
  const said = (caseId: string) =>
    [
      ...world.where("EmailMessage", "ParentId", caseId).map((email) => String(email.TextBody)),
      ...world.where("LiveChatTranscript", "CaseId", caseId).map((chat) => String(chat.Body)),
    ].join("\n");

  it("answers the article whose forbidden words the agent wrote, and None for a case without them", () => {
    const cases = world.rows("Case").map((row) => String(row.Id));
    const violated = cases.filter((id) => caseViolationAnswer(world, id));
    const clean = cases.filter((id) => caseViolationAnswer(world, id) === null);
    expect(violated.length).toBeGreaterThan(0);
    expect(clean.length).toBeGreaterThan(0);
    const phraseOf = (articleId: string) => /never say "([^"]+)"/.exec(String(world.byId(articleId)!.FAQ_Answer__c))![1]!;
    const phrases = [...new Set(violated.map((id) => caseViolationAnswer(world, id)!))].map(phraseOf);
    // The program's answer is what the case's messages say: the named article's phrase is in them, no policy phrase is in a clean case's.
    for (const id of violated) expect(said(id)).toContain(phraseOf(caseViolationAnswer(world, id)!));
    for (const id of clean) for (const phrase of phrases) expect(said(id)).not.toContain(phrase);
    expect(caseViolationAnswer(world, "500Wt0000000000AAA")).toBeUndefined();
  });
});

describe("privacy twins", () => {
  it("finds the names in a question, not its first word nor ordinary capitalised words", () => {
    expect(nameRuns("Can you check the order for Jane Doe?").map((run) => run.text)).toEqual(["Jane Doe"]);
    expect(nameRuns("What is crucial for Acme Widget Corp's growth in Q3 of 2021?").map((run) => run.text)).toEqual(["Acme Widget Corp"]);
    expect(nameRuns("Which of 'Budget', 'Authority' or 'Need' is missing for Zed Pro and the PCB Max?").map((run) => run.text)).toEqual(["Zed Pro", "PCB Max"]);
    expect(nameRuns("Who should be assigned to handle this lead?")).toEqual([]);
  });

  it("swaps the names and Ids for the twin org's, keeps every other word, and answers None", () => {
    const world = generateTwinWorld(TwinKey.unkeyed(5), 0.1);
    const source = { query: "Can you check the order for Jane Doe and for 003Wt00000AbCdEFGH?", metadata: { required: "logged in as Id: 003Wt00000ZzZzZAAA." } };
    const draft = privacyTwin(source, world, new Random("privacy-test"), true, () => "person")!;
    const names = new Set(world.rows("Contact").map((row) => `${row.FirstName} ${row.LastName}`));
    const m = /^Can you check the order for (.+) and for (003\w{15})\?$/.exec(draft.query)!;
    expect(m).not.toBeNull();
    expect(names.has(m[1]!)).toBe(true);
    expect(world.byId(m[2]!)?.Id).toBe(m[2]);
    const loggedIn = /Id: (003\w{15})\./.exec(draft.required)![1]!;
    expect(world.byId(loggedIn)).toBeDefined();
    expect(draft.answer).toEqual([null]);
    expect(loggedIn).not.toBe(m[2]);
    expect(privacyTwin(source, world, new Random("privacy-test"), false, () => "person")).toBeUndefined();
  });

  it("fits a possessive to the new name", () => {
    const world = generateTwinWorld(TwinKey.unkeyed(5), 0.1);
    const source = { query: "What is a strength of Acme Widget Systems' team and of Zed Corp's?", metadata: { required: "" } };
    for (let i = 0; i < 10; i++) {
      const draft = privacyTwin(source, world, new Random(`possessive-${i}`), true, () => "company")!;
      const m = /^What is a strength of (.+?)(['’]s?) team and of (.+?)(['’]s?)\?$/.exec(draft.query)!;
      expect(m).not.toBeNull();
      expect(m[2]).toBe(m[1]!.endsWith("s") ? "'" : "'s");
      expect(m[4]).toBe(m[3]!.endsWith("s") ? "'" : "'s");
    }
  });
});

const realTasks = existsSync(REAL_TASKS) ? (JSON.parse(readFileSync(REAL_TASKS, "utf8")) as TaskRecord[]) : undefined;
if (!realTasks) console.warn(`twins-policies: ${REAL_TASKS} is absent; the real-task twin tests are skipped`);

describe.skipIf(!realTasks)("twins of the real tasks (policies and privacy)", () => {
  let one: TwinSet;
  let two: TwinSet;
  let dir: string;
  let org: OrgBackend & OrgStore;

  beforeAll(async () => {
    one = buildTwins(realTasks!, TwinKey.unkeyed(1), { categories: CATEGORIES });
    two = buildTwins(realTasks!, TwinKey.unkeyed(2), { categories: CATEGORIES });
    dir = mkdtempSync(join(tmpdir(), "twins-policies-"));
    await writeOrgCsv(one.world.toOrg(), dir);
    org = (await openBackend(dir)) as OrgBackend & OrgStore;
  }, 240_000);

  afterAll(async () => {
    await org?.close();
    if (dir) rmSync(dir, { recursive: true, force: true });
  });

  it("twins every task of the categories at two seeds, each category's count of None answers kept", () => {
    for (const set of [one, two]) {
      expect(set.missing).toEqual([]);
      const sources = new Map(realTasks!.filter((task) => (CATEGORIES as readonly string[]).includes(task.task)).map((task) => [task.idx, task]));
      expect(set.tasks.length).toBe(sources.size);
      expect(noneCountsByCategory(set.tasks)).toEqual(noneCountsByCategory([...sources.values()]));
    }
    const atTwo = new Map(two.tasks.map((task) => [task.idx, task]));
    for (const category of CATEGORIES) {
      const twins = one.tasks.filter((task) => task.task === category);
      const differ = twins.filter((task) => JSON.stringify(task.answer) !== JSON.stringify(atTwo.get(task.idx)!.answer)).length;
      const textDiffer = twins.filter((task) => task.query + task.metadata.required !== atTwo.get(task.idx)!.query + atTwo.get(task.idx)!.metadata.required).length;
      console.log(`twins-policies: ${category}: answers differ between seeds 1 and 2 in ${differ}/${twins.length}, texts in ${textDiffer}/${twins.length}`);
    }
  });

  it("the analyst passes at least 95% of each category's twins (none/none, in process)", async () => {
    const today = "2024-12-31";
    const tools: Tools = {
      describe: async () => ({ objects: org.schema.objects }) as never,
      soql: async (query) => {
        const outcome = await runSoql(org, query, today);
        if (!outcome.ok) throw new Error(outcome.message);
        return outcome.records;
      },
      sosl: async (search) => {
        const outcome = await runSosl(org, search, today);
        if (!outcome.ok) throw new Error(outcome.message);
        return outcome.records;
      },
      sql: async () => {
        throw new Error("no SQL in this harness");
      },
      call: async () => {
        throw new Error("no other tools in this harness");
      },
    };
    const judge = new HeuristicJudge();
    const rates: Record<string, number> = {};
    for (const category of CATEGORIES) {
      const twins = one.tasks.filter((task) => task.task === category);
      let passed = 0;
      const failures: string[] = [];
      for (const twin of twins) {
        const answer = await analystStrategy({ taskId: String(twin.idx), category: twin.task, prompt: twin.query, requiredContext: twin.metadata.required, data: {} }, tools);
        const score = await scoreOriginal(twin, answer, [answer], judge);
        if (score.passed) passed++;
        else if (failures.length < 3) failures.push(`idx ${twin.idx}: answered ${answer}, truth ${JSON.stringify(twin.answer)}`);
      }
      rates[category] = passed / twins.length;
      console.log(
        `twins-policies: analyst ${category}: ${passed}/${twins.length} (${(100 * rates[category]!).toFixed(1)}%)${failures.length ? `; e.g. ${failures.join("; ")}` : ""}`,
      );
    }
    for (const category of CATEGORIES) expect(rates[category], category).toBeGreaterThanOrEqual(0.95);
  }, 240_000);
});
