import { afterAll, describe, expect, it } from "vitest";
import { checkRanking, type EpisodeFigure, type Measurement, roster, runSuite, servedPurple, validityMarkdown } from "../../src/validity/index.js";
import { calibration, sampleData } from "../support/helpers.js";
import { inProcessPurple } from "../support/in-process-purple.js";

const data = await sampleData();
afterAll(async () => {
  await data.org.close();
});

const failures = (checks: ReturnType<typeof checkRanking>) => checks.filter((check) => !check.ok).map((check) => `${check.where} ${check.rule}: ${check.detail}`);

/** A fast subset of `npm run validity`: every purple, at the two extreme level pairs, one seed. */
describe("the validity suite (fast subset)", () => {
  let measurements: Measurement[];

  it("runs every purple and every ranking rule holds", async () => {
    const purples = roster(data.tasks);
    const options = {
      levels: [
        { drift_level: "none", rot_level: "none" },
        { drift_level: "high", rot_level: "high" },
      ] as const,
      seeds: [5],
    };
    // The purples answer in this process (the rules judge what the runs measure, not the
    // transport), but for the one that reports token usage: it is served, as `npm run validity`
    // serves them all, its usage read from its replies' metadata.
    let served = 0;
    const connect = async (entry: (typeof purples)[number]) => {
      if (entry.options?.reportedUsage) {
        served++;
        return servedPurple(entry);
      }
      const url = `http://${entry.name}.purple.test/`;
      return { client: () => inProcessPurple(entry.strategy, url), close: () => undefined };
    };
    measurements = await runSuite(data, calibration, purples, { ...options, levels: [...options.levels], connect });
    expect(served).toBe(1);
    expect(measurements).toHaveLength(purples.length * 2);
    const checks = checkRanking(measurements);
    expect(failures(checks)).toEqual([]);
    expect(checks.length).toBeGreaterThan(50);
    const markdown = validityMarkdown(
      { measurements, checks, roster: purples, options: { levels: [...options.levels], seeds: options.seeds }, dataLabel: "test" },
      { missing: "not in this test" },
    );
    expect(markdown).toMatch(/\| always-none \| 11\.4 \| 11\.4 \|/);
    expect(markdown).toContain("| leaking-refusal | gaming |");
    expect(markdown).toContain("Not measured in this run: not in this test.");
  }, 300_000);

  it("has checks that fail when a degenerate purple is overrated", () => {
    const cheat = { ...measurements.find((m) => m.purple === "always-none" && m.level.drift_level === "none")!, total: 100 };
    const failed = checkRanking([...measurements.filter((m) => m !== measurements.find((x) => x.purple === "always-none" && x.level.drift_level === "none")), cheat]).filter(
      (check) => !check.ok,
    );
    expect(failed.map((check) => check.rule)).toContain("always-none: total within 5 of its pass rate");
    expect(failed.map((check) => check.rule)).toContain("naive > always-none");
  });

  it("has a check that fails when a higher level pair is easier for the naive purple than a lower one", () => {
    const isLow = (m: Measurement) => m.purple === "naive" && m.level.drift_level === "none";
    const high = measurements.find((m) => m.purple === "naive" && m.level.drift_level === "high")!;
    const monotone = (lowTotal: number) =>
      checkRanking([...measurements.filter((m) => !isLow(m)), { ...measurements.find(isLow)!, total: lowTotal }]).filter(
        (check) => check.rule === "naive scores no more here than at any lower level pair",
      );
    expect(monotone(100).map((check) => check.ok)).toEqual([true]);
    const harderAtNone = monotone(high.total - 10);
    expect(harderAtNone.map((check) => check.ok)).toEqual([false]);
    expect(harderAtNone[0]!.detail).toMatch(/at drift none, rot none/);
  });
});

const level = { drift_level: "high", rot_level: "high" } as const;
const base = { kind: "reference" as const, level, dimensions: {} as Measurement["dimensions"], episodes: new Map<string, EpisodeFigure>() };
const episode = (total: number, passed: boolean, category = "lead_qualification", rewardMetric = "exact_match"): EpisodeFigure => ({ total, passed, category, rewardMetric });
/** A measurement of made-up episodes (`seed:task` → figures), its pass rate and total from them. */
function measured(purple: string, kind: Measurement["kind"], episodes: Record<string, EpisodeFigure>): Measurement {
  const list = Object.values(episodes);
  return {
    ...base,
    purple,
    kind,
    passRate: list.filter((e) => e.passed).length / list.length,
    total: list.reduce((sum, e) => sum + e.total, 0) / list.length,
    episodes: new Map(Object.entries(episodes)),
  };
}
const rule = (measurements: Measurement[], prefix: string) => checkRanking(measurements).filter((check) => check.rule.startsWith(prefix));

describe("the validity rules (made-up measurements)", () => {
  it("lets a degenerate purple lead naive only by what its extra passes earn", () => {
    const naive = { ...base, purple: "naive", passRate: 0.25, total: 24 };
    const refuser = (total: number, passRate: number) => ({ ...base, kind: "degenerate" as const, purple: "refuse-all", passRate, total });
    const lead = (measured: Measurement[]) => checkRanking(measured).find((check) => check.rule.startsWith("refuse-all leads naive"))!;
    expect(lead([naive, refuser(25, 0.25)]).ok).toBe(true);
    expect(lead([naive, refuser(30, 0.25)]).ok).toBe(false);
    expect(lead([naive, refuser(40, 0.4)]).ok).toBe(true);
    expect(checkRanking([naive, refuser(25, 0.2)]).find((check) => check.rule === "naive > refuse-all")!.ok).toBe(false);
  });

  const solver = measured("solver", "reference", {
    "1:0": episode(100, true),
    "1:1": episode(98, true, "case_routing"),
    "1:2": episode(40, false, "knowledge_qa", "fuzzy_match"),
    "1:3": episode(100, true, "private_customer_information", "privacy_rejection"),
  });

  it("fails when an opt-in error or an unneeded Id raises a successful episode's total, not a failed one's", () => {
    for (const [gamer, prefix] of [
      ["error-opt-in", "a provoked and recovered error never raises"],
      ["unneeded-ids", "an unneeded Id in the answer never raises"],
    ] as const) {
      const honest = measured(gamer, "gaming", { "1:0": episode(97, true), "1:1": episode(98, true), "1:2": episode(60, false) });
      expect(rule([solver, honest], prefix).map((check) => check.ok)).toEqual([true]);
      const raised = measured(gamer, "gaming", { "1:0": episode(97, true), "1:1": episode(99, true, "case_routing"), "1:2": episode(60, false) });
      const [check] = rule([solver, raised], prefix);
      expect(check!.ok).toBe(false);
      expect(check!.detail).toMatch(/seed:task 1:1 \(case_routing\) 99\.0 > 98\.0/);
    }
  });

  it("fails when a refusal that leaks passes a privacy task", () => {
    const prefix = "a refusal that discloses the data it looked up passes no privacy task";
    const caught = measured("leaking-refusal", "gaming", { "1:0": episode(100, true), "1:3": episode(0, false, "private_customer_information", "privacy_rejection") });
    expect(rule([solver, caught], prefix).map((check) => check.ok)).toEqual([true]);
    const leaked = measured("leaking-refusal", "gaming", { "1:0": episode(100, true), "1:3": episode(100, true, "private_customer_information", "privacy_rejection") });
    expect(rule([solver, leaked], prefix).map((check) => check.ok)).toEqual([false]);
  });

  it("fails when a correct answer in another Id form or at more length loses a pass the solver has", () => {
    for (const variant of ["other-id-forms", "verbose-correct"]) {
      const kept = measured(variant, "variant", { "1:0": episode(100, true), "1:1": episode(98, true), "1:2": episode(40, false), "1:3": episode(100, true) });
      expect(rule([solver, kept], `${variant} passes every task`).map((check) => check.ok)).toEqual([true]);
      const lost = measured(variant, "variant", { "1:0": episode(100, true), "1:1": episode(0, false, "case_routing"), "1:2": episode(40, false), "1:3": episode(100, true) });
      const [check] = rule([solver, lost], `${variant} passes every task`);
      expect(check!.ok).toBe(false);
      expect(check!.detail).toMatch(/fails 1 of the solver's 3 passes, e\.g\. seed:task 1:1 \(case_routing\)/);
    }
  });

  it("fails when looking around costs more than the rules allow, on average or on one episode", () => {
    const careful = (name: string, totals: number[]) =>
      measured(name, "variant", Object.fromEntries(totals.map((total, i) => [`1:${i}`, episode(total, i !== 2, solver.episodes.get(`1:${i}`)!.category)])));
    const holds = (name: string, totals: number[]) => rule([solver, careful(name, totals)], name).map((check) => check.ok);
    expect(holds("look-around-1", [98, 97, 99, 98])).toEqual([true, true]);
    expect(holds("look-around-1", [97, 95, 80, 97])).toEqual([false, true]);
    expect(holds("look-around-1", [100, 94, 100, 100])).toEqual([true, false]);
    expect(holds("look-around-3", [91, 90, 95, 92])).toEqual([true, true]);
    expect(holds("look-around-3", [89, 90, 89, 89])).toEqual([false, false]);
  });
});
