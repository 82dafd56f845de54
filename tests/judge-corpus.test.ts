import { describe, expect, it } from "vitest";
import { entityKindFor, extractAnswers, isPrivacyRefusal } from "../src/scoring/index.js";
import { loadTaskFile } from "../src/tasks/load.js";
import { REAL_TASKS } from "./helpers.js";
import { EXTRACTION_CORPUS, type ExtractionCase } from "./judge-corpus.js";
import { PRIVACY_CORPUS } from "./judge-corpus-privacy.js";

/** The heuristic judge must agree with the labels on at least this share of each task type. */
const MIN_AGREEMENT = 0.95;

/** The scorer's comparison: sorted lists, so order is free and repeats count. */
const sameList = (a: readonly string[], b: readonly string[]) => JSON.stringify([...a].sort()) === JSON.stringify([...b].sort());

interface Row {
  readonly type: string;
  readonly total: number;
  readonly agreed: number;
  readonly misses: readonly string[];
}

function extractionRow(type: string, cases: readonly ExtractionCase[]): Row {
  const misses = cases.flatMap(({ category, answer, expected }) => {
    const got = extractAnswers(answer, category);
    return sameList(got, expected) ? [] : [`${JSON.stringify(answer)}: got ${JSON.stringify(got)}, expected ${JSON.stringify(expected)}`];
  });
  return { type, total: cases.length, agreed: cases.length - misses.length, misses };
}

const privacyRow: Row = (() => {
  const misses = PRIVACY_CORPUS.flatMap(({ answer, refusal }) => (isPrivacyRefusal(answer) === refusal ? [] : [`${JSON.stringify(answer)}: expected ${refusal ? "YES" : "NO"}`]));
  return { type: "privacy", total: PRIVACY_CORPUS.length, agreed: PRIVACY_CORPUS.length - misses.length, misses };
})();

const rows: Row[] = [...Object.entries(EXTRACTION_CORPUS).map(([type, cases]) => extractionRow(type, cases)), privacyRow];
const overall: Row = { type: "overall", total: rows.reduce((n, row) => n + row.total, 0), agreed: rows.reduce((n, row) => n + row.agreed, 0), misses: [] };
const share = (row: Row) => row.agreed / row.total;

describe("the heuristic judge against the labelled corpus", () => {
  it("prints the agreement per task type and overall", () => {
    const lines = [...rows, overall].map(
      (row) => `${row.type.padEnd(8)} ${String(row.agreed).padStart(3)}/${String(row.total).padEnd(3)} ${(100 * share(row)).toFixed(1).padStart(5)}%`,
    );
    const misses = rows.flatMap((row) => row.misses.map((miss) => `  ${row.type}: ${miss}`));
    console.log(["heuristic judge agreement with the labelled corpus:", ...lines, ...(misses.length > 0 ? ["disagreements:", ...misses] : [])].join("\n"));
    expect(overall.total).toBeGreaterThanOrEqual(150);
  });

  for (const row of [...rows, overall]) {
    it(`agrees on at least ${100 * MIN_AGREEMENT}% of the ${row.type} answers`, () => {
      expect(share(row), row.misses.join("\n")).toBeGreaterThanOrEqual(MIN_AGREEMENT);
    });
  }

  it("stays fast on a huge answer (a purple may send megabytes)", () => {
    const answer = "The lead meets Budget but fails Authority in March and may; OK, TX and Texas; it should be Quote rather than Closed. 00TWt000002zEpkMAE. ".repeat(4000);
    const started = performance.now();
    for (const category of ["lead_qualification", "monthly_trend_analysis", "best_region_identification", "wrong_stage_rectification", "activity_priority"])
      extractAnswers(answer, category);
    isPrivacyRefusal(`I cannot share that. ${"x".repeat(500_000)}`);
    expect(performance.now() - started).toBeLessThan(5_000);
  });

  it("labels only values the task type's ground truths can hold", () => {
    const vocabulary: Record<string, RegExp> = {
      id: /^(?:[a-zA-Z0-9]{15}|[a-zA-Z0-9]{18}|None)$/,
      state: /^(?:[A-Z]{2}|None)$/,
      month: /^(?:January|February|March|April|May|June|July|August|September|October|November|December|None)$/,
      bant: /^(?:Budget|Authority|Need|Timeline|None)$/,
      stage: /^(?:Qualification|Discovery|Quote|Negotiation|Closed|None)$/,
    };
    for (const [type, cases] of Object.entries(EXTRACTION_CORPUS)) {
      for (const { category, expected } of cases) {
        expect(entityKindFor(category)).toBe(type);
        for (const value of expected) expect(value).toMatch(vocabulary[type]!);
        if (type === "stage") expect(expected).toHaveLength(1);
      }
    }
  });
});

describe("the real ground truths through the heuristic extractor", () => {
  /** Ways a correct answer may be written; each must extract exactly the ground truth. */
  const FORMATS: [string, (values: string[]) => string][] = [
    ["comma-separated", (values) => values.join(", ")],
    ["Python list", (values) => `[${values.map((value) => `'${value}'`).join(", ")}]`],
    ["JSON list", (values) => JSON.stringify(values)],
    ["with 'and'", (values) => (values.length > 1 ? `${values.slice(0, -1).join(", ")} and ${values[values.length - 1]}` : values.join(""))],
    ["bullets", (values) => values.map((value) => `- ${value}`).join("\n")],
    ["in a sentence", (values) => `The answer is ${values.join(", ")}.`],
  ];
  const WORDS = new Set(["best_region_identification", "monthly_trend_analysis", "lead_qualification", "wrong_stage_rectification"]);

  it("extracts every exact_match ground truth back from correct answers in common formats, lower case included for words", () => {
    const failures: string[] = [];
    let checked = 0;
    for (const task of loadTaskFile(REAL_TASKS).tasks) {
      const truth = task.answer.map((value) => value ?? "None");
      // A comma-joined truth ("Authority, Need") passes only on the fast path, as in the original.
      if (task.reward_metric !== "exact_match" || truth.some((value) => value.includes(", "))) continue;
      const formats = [...FORMATS, ...(WORDS.has(task.task) ? ([["lower case", (values: string[]) => values.join(", ").toLowerCase()]] as const) : [])];
      for (const [name, render] of formats) {
        if (name === "in a sentence" && truth[0] === "None") continue;
        checked++;
        const got = extractAnswers(render(truth), task.task);
        if (!sameList(got, truth)) failures.push(`${task.idx} ${name}: ${JSON.stringify(render(truth))} gave ${JSON.stringify(got)}`);
      }
    }
    expect(failures).toEqual([]);
    expect(checked).toBeGreaterThan(10_000);
  });
});
