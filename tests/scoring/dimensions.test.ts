import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterEach, describe, expect, it } from "vitest";
import { rescore } from "../../src/assessment/index.js";
import { asAssessmentLog, readLog } from "../../src/log/index.js";
import { buildResults, episodeViews, parseReportResults, showText, summaryText } from "../../src/report/index.js";
import {
  type DimensionEvidence,
  type DimensionSpec,
  defaultWeights,
  dimensionNames,
  dimensionSpecs,
  HeuristicJudge,
  measureSignals,
  registerDimension,
  scoreDimensions,
} from "../../src/scoring/index.js";
import { calibration } from "../support/helpers.js";
import { queryPrecision } from "../support/toy-dimension.js";

const GOLDEN = fileURLToPath(new URL("../fixtures/logs/golden-v1.jsonl", import.meta.url));
const SEVEN = ["FUNCTIONAL", "DRIFT_ADAPTATION", "TOKEN_EFFICIENCY", "QUERY_EFFICIENCY", "ERROR_RECOVERY", "TRAJECTORY_EFFICIENCY", "HALLUCINATION_RATE"];

let unregister: (() => void) | undefined;
afterEach(() => {
  unregister?.();
  unregister = undefined;
});

/** Evidence whose every read is recorded, as `signals.tokens`, `optimum`, ... */
function recordingEvidence(base: DimensionEvidence, seen: Set<string>): DimensionEvidence {
  const signals = new Proxy(base.signals, {
    get: (target, key) => {
      seen.add(`signals.${String(key)}`);
      return Reflect.get(target, key);
    },
  });
  return new Proxy(
    { ...base, signals },
    {
      get: (target, key) => {
        if (key !== "signals") seen.add(String(key));
        return Reflect.get(target, key);
      },
    },
  );
}

/** A log of the golden fixture with each episode (and the weights) naming a dimension this build does not know. */
function goldenWithUnknownDimension(): string {
  const lines = readFileSync(GOLDEN, "utf8")
    .trim()
    .split("\n")
    .map((line) => JSON.parse(line));
  for (const line of lines) {
    if (line.kind === "header") line.weights = { ...line.weights, SPEED: 0.1 };
    if (line.kind === "episode" && line.score) {
      line.score.dimensions = { ...line.score.dimensions, SPEED: 42 };
      line.score.notApplicable = { ...line.score.notApplicable };
    }
  }
  const path = join(mkdtempSync(join(tmpdir(), "dimensions-")), "unknown.jsonl");
  writeFileSync(path, `${lines.map((line) => JSON.stringify(line)).join("\n")}\n`);
  return path;
}

describe("the dimension registry", () => {
  it("holds the seven built-in dimensions in their order, with the predecessor's weights", () => {
    expect(dimensionNames()).toEqual(SEVEN);
    expect(Object.values(defaultWeights())).toEqual([0.3, 0.2, 0.12, 0.12, 0.08, 0.1, 0.08]);
    expect(
      dimensionSpecs()
        .filter((spec) => spec.whereNotApplicable === "success")
        .map((spec) => spec.name),
    ).toEqual(["ERROR_RECOVERY", "HALLUCINATION_RATE"]);
  });

  it("lets each built-in dimension read only the evidence it declares", async () => {
    const stored = await readLog(GOLDEN);
    for (const record of stored.episodes) {
      const signals = measureSignals(record.trajectory);
      for (const passed of [true, false]) {
        const base: DimensionEvidence = {
          signals,
          verdict: { reward: passed ? 1 : 0, passed },
          optimum: record.score!.optimum,
          firstMessageTokens: record.trajectory.firstMessageTokens,
          driftExposure: record.trajectory.entropy.driftExposure,
          driftInRun: true,
        };
        for (const spec of dimensionSpecs()) {
          const seen = new Set<string>();
          spec.score(recordingEvidence(base, seen));
          expect(
            [...seen].filter((name) => !spec.reads.includes(name as never)),
            spec.name,
          ).toEqual([]);
        }
      }
    }
  });

  it("scores every registered dimension, a new one after the seven, and removes it again", async () => {
    const stored = await readLog(GOLDEN);
    const record = stored.episodes[0]!;
    unregister = registerDimension(queryPrecision);
    const { dimensions } = scoreDimensions(record.trajectory, measureSignals(record.trajectory), { reward: 1, passed: true }, record.score!.optimum, false);
    expect(Object.keys(dimensions)).toEqual([...SEVEN, "QUERY_PRECISION"]);
    expect(defaultWeights().QUERY_PRECISION).toBe(0.1);
    unregister();
    expect(dimensionNames()).toEqual(SEVEN);
  });

  it("refuses a registration that would be ambiguous, naming the field", () => {
    const bad = (change: Partial<DimensionSpec>) => () => registerDimension({ ...queryPrecision, ...change });
    expect(bad({ name: "query precision" })).toThrow(/field 'name': a dimension name is UPPER_SNAKE_CASE \(got "query precision"\)/);
    expect(bad({ name: "FUNCTIONAL" })).toThrow(/a dimension named FUNCTIONAL is registered already/);
    expect(bad({ columns: { report: "TOKEN", validity: "PREC", leaderboard: "Query Precision" } })).toThrow(/its report column title "TOKEN" is TOKEN_EFFICIENCY's already/);
    expect(bad({ defaultWeight: -1 })).toThrow(/field 'defaultWeight'/);
    expect(dimensionNames()).toEqual(SEVEN);
  });
});

describe("a log naming a dimension this build does not know", () => {
  it("is read: results, summary and show keep its values, after the dimensions this build knows", async () => {
    const stored = await readLog(goldenWithUnknownDimension());
    const results = buildResults(asAssessmentLog(stored));
    for (const entry of results.results) if ("entropic" in entry) expect(Object.keys(entry.dimension_scores)).toEqual([...SEVEN, "SPEED"]);
    expect(Object.keys(results.dimension_averages)).toEqual([...SEVEN, "SPEED"]);
    expect(results.dimension_averages.SPEED).toBe(42);
    expect(results.aggregates.dimensions.SPEED).toEqual({ sum: 42 * 3, count: 3 });
    expect(summaryText(results)).toMatch(/HALLUCINATION_RATE 100, SPEED 42\n/);
    const parsed = parseReportResults(JSON.parse(JSON.stringify(results)), "unknown.results.json");
    const episode = episodeViews(parsed, stored.episodes)[0]!;
    expect(episode.dimensions.map((dimension) => dimension.name)).toEqual([...SEVEN, "SPEED"]);
    expect(showText(episode, { source: "log", weights: parsed.weights })).toMatch(/SPEED +42\.0 {2}weight 0\.10/);
  });

  it("is re-scored with this build's dimensions: the unknown one is dropped and the total renormalised over the others", async () => {
    const original = buildResults(asAssessmentLog(await readLog(GOLDEN)));
    const rescored = buildResults(await rescore(await readLog(goldenWithUnknownDimension()), new HeuristicJudge(), calibration));
    for (const [i, entry] of rescored.results.entries()) {
      expect(Object.keys(entry.dimension_scores)).toEqual("entropic" in entry ? SEVEN : []);
      expect(entry.total_score).toBe(original.results[i]!.total_score);
    }
    // The run set a weight for it, so it is listed, but this build measured it nowhere.
    expect(rescored.dimension_averages.SPEED).toBeNull();
    expect(rescored.aggregates.dimensions.SPEED).toEqual({ sum: 0, count: 0 });
  });
});

describe("a version-1 log re-scored by a build with one more dimension", () => {
  it("keeps its totals (the run's weights do not name the new one) and shows the new dimension", async () => {
    const original = buildResults(asAssessmentLog(await readLog(GOLDEN)));
    unregister = registerDimension(queryPrecision);
    const rescored = buildResults(await rescore(await readLog(GOLDEN), new HeuristicJudge(), calibration));
    expect(rescored.results.map((entry) => entry.total_score)).toEqual(original.results.map((entry) => entry.total_score));
    expect(rescored.summary).toEqual(original.summary);
    for (const entry of rescored.results) if ("entropic" in entry) expect(Object.keys(entry.dimension_scores)).toEqual([...SEVEN, "QUERY_PRECISION"]);
    expect(Object.keys(rescored.dimension_averages)).toEqual([...SEVEN, "QUERY_PRECISION"]);
    expect(rescored.weights).toEqual(original.weights);
  });
});
