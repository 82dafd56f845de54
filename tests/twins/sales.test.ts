import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { analystStrategy, type Tools } from "../../src/baselines/index.js";
import { type OrgBackend, openBackend, runOrgTool } from "../../src/org/index.js";
import { writeOrgCsv } from "../../src/sample/index.js";
import { HeuristicJudge, scoreOriginal } from "../../src/scoring/index.js";
import type { TaskRecord } from "../../src/tasks/index.js";
import { rankingAnswer } from "../../src/twins/categories/agent-ranking.js";
import { conversionRates } from "../../src/twins/categories/conversion-rate-comprehension.js";
import { routeLead } from "../../src/twins/categories/lead-routing.js";
import { purchasedProduct } from "../../src/twins/categories/named-entity-disambiguation.js";
import { salesAmounts } from "../../src/twins/categories/sales-amount-understanding.js";
import { salesCycles } from "../../src/twins/categories/sales-cycle-understanding.js";
import { buildTwins, generateTwinWorld, TwinKey, type TwinSet, type TwinWorld } from "../../src/twins/index.js";
import { noneCountsByCategory, REAL_TASKS } from "../support/helpers.js";

const CATEGORIES = ["sales_amount_understanding", "conversion_rate_comprehension", "sales_cycle_understanding", "lead_routing", "named_entity_disambiguation"];

/**
 * A small world with hand-made records in 2030, past the generator's timeline (2020-2024), so
 * the base org's own rows never fall in the windows these tests ask about and every expected
 * answer below is checked by hand from the rows written here.
 */
function handWorld(): { world: TwinWorld; agentA: string; agentB: string } {
  const world = generateTwinWorld(TwinKey.unkeyed(7), 0.1);
  const agentA = world.newId("User");
  const agentB = world.newId("User");
  const sale = (agent: string, signed: string, created: string, items: [number, number][]) => {
    const account = world.add("Account", { Id: world.newId("Account"), Name: `Hand ${agent} ${signed}` });
    const contract = world.add("Contract", { Id: world.newId("Contract"), AccountId: account.Id, Status: "Activated", CompanySignedDate: signed });
    world.add("Opportunity", { Id: world.newId("Opportunity"), ContractID__c: contract.Id, AccountId: account.Id, OwnerId: agent, CreatedDate: `${created}T10:00:00.000+0000` });
    const order = world.add("Order", { Id: world.newId("Order"), AccountId: account.Id, Status: "Activated", EffectiveDate: signed });
    for (const [quantity, price] of items) world.add("OrderItem", { Id: world.newId("OrderItem"), OrderId: order.Id, Quantity: quantity, UnitPrice: price });
  };
  // A: 2*100 + 1*50 = 250, signed 10 days after creation. B: 3*100 = 300, signed 19 days after creation.
  sale(agentA, "2030-01-10", "2029-12-31", [
    [2, 100],
    [1, 50],
  ]);
  sale(agentB, "2030-01-20", "2030-01-01", [[3, 100]]);
  const lead = (owner: string, created: string, convertedOn: string | null) =>
    world.add("Lead", { Id: world.newId("Lead"), OwnerId: owner, CreatedDate: `${created}T09:00:00.000+0000`, IsConverted: convertedOn ? 1 : 0, ConvertedDate: convertedOn });
  // January 2030: A converts 1 of 2 (50%); B's one lead converts in February (0% within January).
  lead(agentA, "2030-01-05", "2030-01-20");
  lead(agentA, "2030-01-06", null);
  lead(agentB, "2030-01-07", "2030-02-03");
  return { world, agentA, agentB };
}

const JANUARY_2030 = { start: "2030-01-01", end: "2030-01-31" };
const MARCH_2030 = { start: "2030-03-01", end: "2030-03-31" };

describe("sales answer programs on hand-checked rows", () => {
  const { world, agentA, agentB } = handWorld();

  it("sales amount: the opportunity owner with the largest Quantity*UnitPrice of their accounts' orders; None in an empty window", () => {
    expect(salesAmounts(world, JANUARY_2030)).toEqual(
      new Map([
        [agentA, 250],
        [agentB, 300],
      ]),
    );
    expect(rankingAnswer(salesAmounts(world, JANUARY_2030), "max")).toEqual([agentB]);
    expect(rankingAnswer(salesAmounts(world, JANUARY_2030), "min")).toEqual([agentA]);
    expect(rankingAnswer(salesAmounts(world, MARCH_2030), "max")).toEqual([null]);
  });

  it("sales cycle: days from opportunity creation to company signing, averaged per owner", () => {
    expect(salesCycles(world, JANUARY_2030)).toEqual(
      new Map([
        [agentA, 10],
        [agentB, 19],
      ]),
    );
    expect(rankingAnswer(salesCycles(world, JANUARY_2030), "min")).toEqual([agentA]);
    expect(rankingAnswer(salesCycles(world, MARCH_2030), "min")).toEqual([null]);
  });

  it("conversion rate: converted within the same window over created in it", () => {
    expect(conversionRates(world, JANUARY_2030)).toEqual(
      new Map([
        [agentA, 0.5],
        [agentB, 0],
      ]),
    );
    expect(rankingAnswer(conversionRates(world, JANUARY_2030), "max")).toEqual([agentA]);
    // January and February: A still 1 of 2, B's lead now converts inside the window (1 of 1).
    expect(rankingAnswer(conversionRates(world, { start: "2030-01-01", end: "2030-02-28" }), "max")).toEqual([agentB]);
    expect(rankingAnswer(conversionRates(world, MARCH_2030), "min")).toEqual([null]);
  });

  it("lead routing: territory by state, then accepted quotes, then the fewest open leads", () => {
    const territory = world.add("Territory2", { Id: world.newId("Territory2"), Name: "Hand", Description: "ZZ, YY" });
    const [u1, u2, u3] = [world.newId("User"), world.newId("User"), world.newId("User")];
    for (const user of [u1, u2, u3]) world.add("UserTerritory2Association", { Id: world.newId("UserTerritory2Association"), UserId: user, Territory2Id: territory.Id });
    const accepted = (owner: string, count: number) => {
      const opportunity = world.add("Opportunity", { Id: world.newId("Opportunity"), OwnerId: owner });
      for (let i = 0; i < count; i++) world.add("Quote", { Id: world.newId("Quote"), OpportunityId: opportunity.Id, Status: "Accepted" });
      world.add("Quote", { Id: world.newId("Quote"), OpportunityId: opportunity.Id, Status: "Denied" });
    };
    accepted(u1, 2);
    accepted(u2, 2);
    accepted(u3, 1);
    world.add("Lead", { Id: world.newId("Lead"), OwnerId: u1, IsConverted: 0 });
    world.add("Lead", { Id: world.newId("Lead"), OwnerId: u2, IsConverted: 1 });
    // u1 and u2 tie on 2 accepted quotes; u1 has one open lead, u2 none.
    expect(routeLead(world, "YY")).toBe(u2);
    world.add("Quote", { Id: world.newId("Quote"), OpportunityId: world.where("Opportunity", "OwnerId", u3)[0]!.Id, Status: "Accepted" });
    world.add("Quote", { Id: world.newId("Quote"), OpportunityId: world.where("Opportunity", "OwnerId", u3)[0]!.Id, Status: "Accepted" });
    expect(routeLead(world, "zz")).toBe(u3);
    expect(routeLead(world, "QQ")).toBeUndefined();
  });

  it("named entity: the product of the described kind among the contact's account's orders that day; None for another kind", () => {
    const [bought, other] = world.rows("Product2") as { Id: string }[];
    const kind = world.facts.productKind.get(bought!.Id)!;
    const account = world.add("Account", { Id: world.newId("Account"), Name: "Hand Buyer" });
    const contact = world.add("Contact", { Id: world.newId("Contact"), AccountId: account.Id });
    const order = world.add("Order", { Id: world.newId("Order"), AccountId: account.Id, Status: "Activated", EffectiveDate: "2030-03-05" });
    world.add("OrderItem", { Id: world.newId("OrderItem"), OrderId: order.Id, Product2Id: bought!.Id, Quantity: 1, UnitPrice: 10 });
    expect(purchasedProduct(world, String(contact.Id), "2030-03-05", kind)).toBe(bought!.Id);
    expect(purchasedProduct(world, String(contact.Id), "2030-03-05", world.facts.productKind.get(other!.Id)!)).toBeNull();
    expect(purchasedProduct(world, String(contact.Id), "2030-03-06", kind)).toBeNull();
  });
});

const hasRealTasks = existsSync(REAL_TASKS);

/** Tools over an org opened in-process, as the green would serve them (no server). */
function toolsOver(org: OrgBackend, today: () => string): Tools {
  const records = async (request: Parameters<typeof runOrgTool>[1]) => {
    const outcome = await runOrgTool(org, request, { today: today() });
    if (!outcome.ok) throw new Error(JSON.stringify(outcome));
    return (outcome as unknown as { records: Record<string, unknown>[] }).records;
  };
  return {
    describe: async (object) => (await runOrgTool(org, { tool: "describe_schema", ...(object ? { object } : {}) } as never)) as never,
    soql: (query) => records({ tool: "soql_query", query } as never),
    sosl: (search) => records({ tool: "sosl_search", search } as never),
    sql: () => Promise.reject(new Error("no SQL here")),
    call: () => Promise.reject(new Error("no other tools here")),
  };
}

if (!hasRealTasks) console.warn("twins-sales: ../shared/data/crmarenapro/b2b_tasks.json is absent, the real-task twin tests are skipped");

describe.skipIf(!hasRealTasks)("sales twins of the real tasks", () => {
  const source = hasRealTasks ? (JSON.parse(readFileSync(REAL_TASKS, "utf8")) as TaskRecord[]) : [];
  const sets: TwinSet[] = [];
  const dirs: string[] = [];
  afterAll(() => {
    for (const dir of dirs) rmSync(dir, { recursive: true, force: true });
  });

  it("builds every twin at seeds 1 and 2, each category with its source's count of None answers, and prints how often the answer moves between seeds", () => {
    for (const seed of [1, 2]) {
      // npm run bench (its "timings" part) and npm run bench:twins time the build.
      const set = buildTwins(source, TwinKey.unkeyed(seed), { categories: CATEGORIES });
      expect(set.missing).toEqual([]);
      expect(noneCountsByCategory(set.tasks)).toEqual(noneCountsByCategory(source, CATEGORIES));
      sets.push(set);
    }
    const second = new Map(sets[1]!.tasks.map((task) => [task.idx, task]));
    for (const category of CATEGORIES) {
      const twins = sets[0]!.tasks.filter((task) => task.task === category);
      const moved = twins.filter((task) => JSON.stringify(task.answer) !== JSON.stringify(second.get(task.idx)?.answer)).length;
      console.log(`answers differing between seeds 1 and 2, ${category}: ${((100 * moved) / twins.length).toFixed(1)}%`);
      expect(twins.length).toBe(source.filter((task) => task.task === category).length);
    }
  }, 120_000);

  it("the analyst passes most twins of each category at drift/rot none/none (pass rates printed)", async () => {
    expect(sets.length).toBe(2);
    const judge = new HeuristicJudge();
    const set = sets[0]!;
    const dir = mkdtempSync(join(tmpdir(), "twins-sales-"));
    dirs.push(dir);
    await writeOrgCsv(set.world.toOrg(), join(dir, "org"));
    const org = await openBackend(join(dir, "org"), { workers: 2 });
    let today = "2024-01-01";
    const tools = toolsOver(org, () => today);
    for (const category of CATEGORIES) {
      const twins = set.tasks.filter((task) => task.task === category);
      let passed = 0;
      const failures: string[] = [];
      for (const twin of twins) {
        today = /Today's date:\s*(\d{4}-\d{2}-\d{2})/.exec(twin.metadata.required)?.[1] ?? today;
        const answer = await analystStrategy({ taskId: String(twin.idx), category, prompt: twin.query, requiredContext: twin.metadata.required, data: {} }, tools);
        const score = await scoreOriginal(twin, answer, [], judge);
        if (score.passed) passed++;
        else if (failures.length < 3) failures.push(`idx ${twin.idx}: got ${answer}, want ${JSON.stringify(twin.answer)}`);
      }
      const rate = passed / twins.length;
      console.log(`analyst pass rate none/none, ${category}: ${(100 * rate).toFixed(1)}% (${passed}/${twins.length})${failures.length ? `; e.g. ${failures.join(" | ")}` : ""}`);
      expect(rate).toBeGreaterThanOrEqual(0.8);
    }
    await (org as { close?: () => Promise<void> }).close?.();
  }, 300_000);
});
