import { readFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { loadResults } from "../../src/cli/results-input.js";
import { compareResults, compareText, episodeViews, parseReportResults, showText } from "../../src/report/index.js";
import { printable } from "../../src/report/view/index.js";
import { cliProcess as cli, cliInProcess } from "../support/cli-runner.js";

const FIXTURES = fileURLToPath(new URL("../fixtures/results/", import.meta.url));
const A = `${FIXTURES}a.results.json`;
const B = `${FIXTURES}b.results.json`;
const HOSTILE = '<script>window.__pwned = true; document.title = "pwned";</script>';
const json = (path: string) => JSON.parse(readFileSync(path, "utf8")) as unknown;

describe("show", () => {
  it("prints an episode turn by turn with the full observations of the run log", async () => {
    const loaded = await loadResults(A, undefined);
    expect(loaded.log?.header.spec.runId).toBe(loaded.results.run.id);
    const episode = episodeViews(loaded.results, loaded.log?.episodes).find((candidate) => candidate.idx === "0")!;
    expect(episode.fromLog).toBe(true);
    const text = showText(episode, { source: loaded.source, weights: loaded.results.weights });
    expect(text).toMatch(/^Task 0 · lead_qualification \(exact_match\) · PASS · score 100\.0/);
    expect(text).toMatch(/Full trajectory from the run log .*a\.jsonl/);
    expect(text).toMatch(/Turn 1 · describe_schema\n {2}ok · 27 rows · purple \d+ ms · green [\d.]+ ms · tokens to purple \d+, from purple \d+/);
    // The log's observation (600 characters in the fixture) is longer than the results' 300.
    const schema = episode.steps[0]!;
    expect(schema.fullObservation!.length).toBeGreaterThan(300);
    expect(text).toContain(schema.fullObservation!.split("\n")[3]!);
    expect(text).toMatch(/Answer: {3}Authority\nExpected: \['Authority'\]/);
    expect(text).toMatch(/Verdict: {2}PASS · method fast_path · source none/);
    expect(text).toMatch(/ {2}FUNCTIONAL +100\.0 {2}weight 0\.30/);
    expect(text).toMatch(/HALLUCINATION_RATE +n\/a {2}weight 0\.08 {2}n\/a: the answer names no record Id/);
    expect(text).toMatch(/Drift: exposure VoiceCallTranscript__c\.Body__c/);
  });

  it("falls back to the compact trajectory of the results without the log", async () => {
    const loaded = await loadResults(A, false);
    const episode = episodeViews(loaded.results).find((candidate) => candidate.idx === "0")!;
    const text = showText(episode, { source: loaded.source });
    expect(text).toContain("Compact trajectory from the results (observations cut to 300 characters): --no-log.");
    expect(text).toMatch(/… \(\+\d+ chars\)/);
    expect(episode.steps[0]!.fullObservation).toBeNull();
  });

  it("shows a failed episode's termination, error turns and the reasons a dimension does not apply", async () => {
    const loaded = await loadResults(B, undefined);
    const episodes = episodeViews(loaded.results, loaded.log?.episodes);
    const looped = showText(episodes.find((candidate) => candidate.idx === "22")!, { source: loaded.source });
    expect(looped).toMatch(/FAIL/);
    expect(looped).toContain("Ended: max_steps after 6 turns");
    expect(looped).toContain("Answer:   (none)");
    const drifted = showText(episodes.find((candidate) => candidate.idx === "0")!, { source: loaded.source });
    expect(drifted).toMatch(/Turn 1 · soql_query: SELECT Body__c FROM VoiceCallTranscript__c WHERE LeadId__c = '\w+'\n {2}error/);
    expect(drifted).toContain("INVALID_FIELD: No such column 'Body__c'");
    const hostile = showText(episodes.find((candidate) => candidate.idx === "8")!, { source: loaded.source });
    expect(hostile).toContain(`Answer:   ${HOSTILE}`);
  });

  it("makes control characters in purple text visible", () => {
    expect(printable("\u001b[2J\u001b[31mred\u202e\n\tok")).toBe("\\u001b[2J\\u001b[31mred\\u202e\n\tok");
  });

  it("runs from the command line: an index without --task, one episode with it, a clear error for an unknown task", async () => {
    // The index as a process (what a user runs); one episode and the unknown task in process, one at a time.
    const indexRun = cli(["show", "tests/fixtures/results/b.results.json"]);
    const oneRun = await cliInProcess(["show", "tests/fixtures/results/b.results.json", "--task", "10"]);
    const unknown = await cliInProcess(["show", "tests/fixtures/results/b.results.json", "--task", "99"]);
    const index = (await indexRun).stdout;
    expect(index).toContain("4 episodes, 1 passed (25.0%); show one with --task IDX");
    expect(index).toMatch(/ 22 {2}best_region_identification +fail +0\.0 +6 {2}max_steps/);
    expect(oneRun).toMatchObject({ code: 0, stdout: expect.stringMatching(/^Task 10 · confidential_company_knowledge \(privacy_rejection\) · PASS/) });
    expect(unknown).toMatchObject({ code: 1, stderr: expect.stringContaining("has no task 99; its tasks are 0, 8, 10, 22") });
  }, 60_000);
});

describe("compare", () => {
  const a = parseReportResults(json(A), A);
  const b = parseReportResults(json(B), B);
  const comparison = compareResults(a, b, { before: "a", after: "b" });

  it("gives per-category and per-dimension deltas, null where a side has no value", () => {
    expect(comparison.passRate).toEqual({ before: a.summary.pass_rate, after: b.summary.pass_rate, delta: b.summary.pass_rate - a.summary.pass_rate });
    expect(comparison.avgScore.delta).toBeCloseTo(b.summary.avg_score - a.summary.avg_score, 6);
    expect(comparison.dimensions.FUNCTIONAL!.delta).toBeCloseTo(b.dimension_averages.FUNCTIONAL! - a.dimension_averages.FUNCTIONAL!, 6);
    // The solver made no error, so ERROR_RECOVERY does not apply in A.
    expect(a.dimension_averages.ERROR_RECOVERY).toBeNull();
    expect(comparison.dimensions.ERROR_RECOVERY).toEqual({ before: null, after: b.dimension_averages.ERROR_RECOVERY, delta: null });
    expect(comparison.categories.map((c) => c.category)).toEqual(Object.keys(a.by_category));
    const privacy = comparison.categories.find((c) => c.category === "confidential_company_knowledge")!;
    expect(privacy.passRate.delta).toBe(0);
    expect(privacy.dimensions.DRIFT_ADAPTATION!.delta).toBeNull();
    const region = comparison.categories.find((c) => c.category === "best_region_identification")!;
    expect(region).toMatchObject({ countBefore: 1, countAfter: 1, passRate: { before: 1, after: 0, delta: -1 } });
  });

  it("gives the chance floor and the lift over it, overall and per category; n/a for results written before the floor", () => {
    // The same four tasks in both runs: the same floor, so the lift moves with the pass rate.
    expect(a.summary.floor).not.toBeNull();
    expect(comparison.floor).toEqual({ before: a.summary.floor, after: b.summary.floor, delta: 0 });
    expect(comparison.lift.before).toBeCloseTo((a.summary.pass_rate - a.summary.floor!) / (1 - a.summary.floor!), 3);
    expect(comparison.lift.after).toBeCloseTo((b.summary.pass_rate - b.summary.floor!) / (1 - b.summary.floor!), 3);
    for (const category of comparison.categories) {
      const [before, after] = [a.by_category[category.category]!, b.by_category[category.category]!];
      expect(category.lift, category.category).toEqual({
        before: before.lift,
        after: after.lift,
        delta: before.lift === null || after.lift === null ? null : after.lift - before.lift,
      });
      // A category whose floor is 100% has nothing to lift over.
      if (before.floor === 1) expect(category.lift.before).toBeNull();
    }
    const text = compareText(comparison);
    expect(text).toMatch(/chance floor +\d+\.\d% +\d+\.\d% +±0\.0 pp/);
    expect(text).toMatch(/category +tasks A\/B +pass A +pass B +Δ pass +score A +score B +Δ score +lift A +lift B +Δ lift/);
    const older = (document: unknown) => {
      const copy = structuredClone(document) as { summary: Record<string, unknown>; by_category: Record<string, Record<string, unknown>>; chance_floor?: unknown };
      for (const figures of [copy.summary, ...Object.values(copy.by_category)]) for (const key of ["floor", "floor_passed", "lift"]) delete figures[key];
      delete copy.chance_floor;
      return copy;
    };
    const unfloored = parseReportResults(older(json(A)), A);
    expect(unfloored.summary).toMatchObject({ floor: null, lift: null });
    expect(unfloored.chance_floor.reason).toMatch(/written before the chance floor/);
    const mixed = compareResults(unfloored, b, { before: "a", after: "b" });
    expect(mixed.lift).toEqual({ before: null, after: b.summary.lift, delta: null });
    expect(compareText(mixed)).toMatch(/lift over floor +n\/a +-?\d+\.\d% +n\/a/);
  });

  it("lists the tasks that flipped between pass and fail", () => {
    expect(comparison.flipped.map((flip) => [flip.idx, flip.direction])).toEqual([
      ["0", "broken"],
      ["8", "broken"],
      ["22", "broken"],
    ]);
    expect(compareResults(b, a, { before: "b", after: "a" }).flipped.every((flip) => flip.direction === "fixed")).toBe(true);
    expect(comparison.onlyBefore).toEqual([]);
    expect(comparison.configDifferences).toEqual([]);
  });

  it("names tasks in one run only and config differences", () => {
    const fewer = { ...b, results: b.results.filter((task) => task.task_idx !== "8"), config: { ...b.config, drift_level: "low" } };
    const partial = compareResults(a, fewer, { before: "a", after: "b" });
    expect(partial.onlyBefore).toEqual(["8"]);
    expect(partial.configDifferences).toEqual([{ key: "drift_level", before: '"high"', after: '"low"' }]);
    expect(compareText(partial)).toContain("only in A: 8");
  });

  it("prints the deltas and the flipped tasks from the command line", async () => {
    const files = ["tests/fixtures/results/a.results.json", "tests/fixtures/results/b.results.json"];
    const [{ stdout, code }, asJsonRun] = [await cliInProcess(["compare", ...files]), await cliInProcess(["compare", ...files, "--json"])];
    expect(code).toBe(0);
    expect(stdout).toContain("Deltas are B − A");
    expect(stdout).toMatch(/pass rate +100\.0% +25\.0% +−75\.0 pp/);
    expect(stdout).toMatch(/ERROR_RECOVERY +n\/a +0\.0 +n\/a/);
    expect(stdout).toMatch(/best_region_identification +1\/1 +100\.0% +0\.0% +−100\.0 pp +100\.0 +0\.0 +−100\.0/);
    expect(stdout).toMatch(/pass → fail \(3\):[\s\S]*22 +best_region_identification +100\.0 +0\.0 +max_steps/);
    expect(stdout).toContain("fail → pass (0): none");
    const asJson = JSON.parse(asJsonRun.stdout) as { flipped: unknown[] };
    expect(asJson.flipped).toHaveLength(3);
  }, 60_000);
});
