import { afterAll, describe, expect, it } from "vitest";
import { checkRanking, type Measurement, roster, runSuite, validityMarkdown } from "../src/validity/index.js";
import { calibration, sampleData } from "./helpers.js";

const data = sampleData();
afterAll(async () => {
  await data.org.close();
});

/** A fast subset of `npm run validity`: every purple, at the two extreme level pairs, one seed. */
describe("the validity suite (fast subset)", () => {
  let measurements: Measurement[];

  it("runs every purple and every ranking rule holds", async () => {
    const purples = roster(data.tasks);
    const options = {
      levels: [
        { drift: "none", rot: "none" },
        { drift: "high", rot: "high" },
      ] as const,
      seeds: [5],
    };
    measurements = await runSuite(data, calibration, purples, { ...options, levels: [...options.levels] });
    expect(measurements).toHaveLength(purples.length * 2);
    const checks = checkRanking(measurements);
    expect(checks.filter((check) => !check.ok).map((check) => `${check.level.drift}/${check.level.rot} ${check.rule}: ${check.detail}`)).toEqual([]);
    expect(checks.length).toBeGreaterThan(30);
    const markdown = validityMarkdown(measurements, checks, purples, { levels: [...options.levels], seeds: options.seeds }, "test");
    expect(markdown).toMatch(/\| always-none \| 11\.4 \| 11\.4 \|/);
  }, 240_000);

  it("has checks that fail when a degenerate purple is overrated", () => {
    const cheat = { ...measurements.find((m) => m.purple === "always-none" && m.level.drift === "none")!, total: 100 };
    const failed = checkRanking([...measurements.filter((m) => m !== measurements.find((x) => x.purple === "always-none" && x.level.drift === "none")), cheat]).filter(
      (check) => !check.ok,
    );
    expect(failed.map((check) => check.rule)).toContain("always-none: total within 5 of its pass rate");
    expect(failed.map((check) => check.rule)).toContain("naive > always-none");
  });

  it("has a check that fails when a higher level pair is easier for the naive purple than a lower one", () => {
    const isLow = (m: Measurement) => m.purple === "naive" && m.level.drift === "none";
    const high = measurements.find((m) => m.purple === "naive" && m.level.drift === "high")!;
    const monotone = (lowTotal: number) =>
      checkRanking([...measurements.filter((m) => !isLow(m)), { ...measurements.find(isLow)!, total: lowTotal }]).filter(
        (check) => check.rule === "naive scores no more here than at any lower level pair",
      );
    expect(monotone(100).map((check) => check.ok)).toEqual([true]);
    const harderAtNone = monotone(high.total - 10);
    expect(harderAtNone.map((check) => check.ok)).toEqual([false]);
    expect(harderAtNone[0]!.detail).toMatch(/at drift none, rot none/);
  });

  it("lets a degenerate purple lead naive only by what its extra passes earn", () => {
    const level = { drift: "high", rot: "high" } as const;
    const base = { kind: "reference" as const, level, dimensions: {} as Measurement["dimensions"], perTask: new Map<string, number>() };
    const naive = { ...base, purple: "naive", passRate: 0.25, total: 24 };
    const refuser = (total: number, passRate: number) => ({ ...base, kind: "degenerate" as const, purple: "refuse-all", passRate, total });
    const rule = (measured: Measurement[]) => checkRanking(measured).find((check) => check.rule.startsWith("refuse-all leads naive"))!;
    expect(rule([naive, refuser(25, 0.25)]).ok).toBe(true);
    expect(rule([naive, refuser(30, 0.25)]).ok).toBe(false);
    expect(rule([naive, refuser(40, 0.4)]).ok).toBe(true);
    expect(checkRanking([naive, refuser(25, 0.2)]).find((check) => check.rule === "naive > refuse-all")!.ok).toBe(false);
  });
});
