import { mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { B2B_CATALOGUE } from "../../src/datasets/index.js";
import { loadTaskFile, parseTasks, TaskFileError } from "../../src/tasks/load.js";
import { parsePythonList, pythonRepr } from "../../src/util/python-literal.js";
import { REAL_TASKS, SAMPLE_TASKS } from "../support/helpers.js";

const record = (overrides: Record<string, unknown> = {}) => ({
  idx: 1,
  answer: ["x"],
  task: "handle_time",
  persona: "p",
  metadata: { required: "r", optional: "o" },
  reward_metric: "exact_match",
  query: "q",
  ...overrides,
});

const B2B_CATEGORIES = B2B_CATALOGUE.map((category) => category.name);

describe("task files", () => {
  it("loads the 2,140 real tasks in 22 categories", () => {
    const tasks = loadTaskFile(REAL_TASKS);
    expect(tasks.tasks).toHaveLength(2140);
    expect(tasks.categories).toEqual([...B2B_CATEGORIES]);
    expect(tasks.byIdx.get(200)!.answer).toHaveLength(6);
    expect(tasks.byIdx.get(500)!.answer).toEqual([null]);
  });

  it("agree with the B2B catalogue: each category's metric and None rate are the real file's", () => {
    const tasks = loadTaskFile(REAL_TASKS).tasks;
    for (const category of B2B_CATALOGUE) {
      const own = tasks.filter((task) => task.task === category.name);
      expect(new Set(own.map((task) => task.reward_metric)), category.name).toEqual(new Set([category.metric]));
      const none = own.filter((task) => task.answer.length === 1 && task.answer[0] === null).length / own.length;
      expect(none, category.name).toBeCloseTo(category.noneRate, 2);
    }
  });

  it("loads the sample tasks: at least two per category", () => {
    const tasks = loadTaskFile(SAMPLE_TASKS);
    for (const category of B2B_CATEGORIES) expect(tasks.tasks.filter((task) => task.task === category).length).toBeGreaterThanOrEqual(2);
  });

  it("accepts answer as the string form of a list", () => {
    const tasks = parseTasks([record({ answer: "['Authority, Need']" }), record({ idx: 2, answer: "[None]" }), record({ idx: 3, answer: '["a", "b"]' })], "inline");
    expect(tasks.tasks.map((task) => task.answer)).toEqual([["Authority, Need"], [null], ["a", "b"]]);
  });

  it("names the record and field of a broken file", () => {
    expect(() => parseTasks([record(), record({ idx: 7, reward_metric: "vibes" })], "f.json")).toThrow(/f\.json: record #1 \(idx 7\), field 'reward_metric'/);
    expect(() => parseTasks([record(), record({ idx: 8, metadata: { optional: "" } })], "f.json")).toThrow(/record #1 \(idx 8\), field 'metadata\.required'/);
    expect(() => parseTasks([record(), record()], "f.json")).toThrow(/record #1 repeats idx 1/);
    expect(() => parseTasks({ tasks: [] }, "f.json")).toThrow(TaskFileError);
    const dir = mkdtempSync(join(tmpdir(), "tasks-"));
    writeFileSync(join(dir, "bad.json"), "[{");
    expect(() => loadTaskFile(join(dir, "bad.json"))).toThrow(/is not JSON/);
    expect(() => loadTaskFile(join(dir, "missing.json"))).toThrow(/cannot read task file/);
  });
});

describe("Python literals", () => {
  it("parses and prints Python lists as CRMArena-Pro files and the predecessor do", () => {
    expect(parsePythonList(`['it\\'s', "b", None, 3]`)).toEqual(["it's", "b", null, "3"]);
    expect(pythonRepr(["Adaptive Design Solutions"])).toBe("['Adaptive Design Solutions']");
    expect(pythonRepr([null])).toBe("[None]");
    expect(pythonRepr([{ Id: "500x", Amount: 5.5, ClosedDate: null, Ok: true }])).toBe("[{'Id': '500x', 'Amount': 5.5, 'ClosedDate': None, 'Ok': True}]");
    expect(pythonRepr("it's")).toBe(`"it's"`);
  });
});
