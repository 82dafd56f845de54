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
});
