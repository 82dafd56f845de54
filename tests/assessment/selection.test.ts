import { describe, expect, it } from "vitest";
import { ConfigError, parseConfig, selectTasks } from "../../src/assessment/index.js";
import { loadTaskFile } from "../../src/tasks/load.js";
import { PythonRandom } from "../../src/util/python-random.js";
import { REAL_TASKS } from "../support/helpers.js";

const real = loadTaskFile(REAL_TASKS);

describe("CPython-compatible sampling", () => {
  it("reproduces random.seed(42); random.random() and sample() from CPython 3.11", () => {
    const rng = new PythonRandom(42);
    expect(rng.random()).toBe(0.6394267984578837);
    expect(rng.random()).toBe(0.025010755222666936);
    expect(new PythonRandom(7).sample([...Array(30).keys()], 5)).toEqual([10, 4, 12, 20, 1]);
    expect(new PythonRandom(123456789012345678901234567890n).random()).toBe(0.7275084571578186);
  });

  it("task_limit 10 selects exactly the predecessor's tasks", () => {
    const { config } = parseConfig({ task_limit: 10 });
    const selection = selectTasks(real, config);
    expect(selection.mode).toBe("task_limit");
    expect(selection.tasks.map((task) => task.idx)).toEqual([456, 102, 1126, 1003, 914, 571, 419, 356, 1728, 130]);
  });
});

describe("task selection", () => {
  it("task_ids keep the given order", () => {
    const { config } = parseConfig({ task_ids: "880, 0,100" });
    expect(selectTasks(real, config).tasks.map((task) => task.idx)).toEqual([880, 0, 100]);
  });

  it("task_categories take dataset order, cut by task_limit", () => {
    const { config } = parseConfig({ task_categories: ["handle_time", "knowledge_qa"], task_limit: 3 });
    const selection = selectTasks(real, config);
    expect(selection.mode).toBe("task_categories");
    expect(selection.tasks.map((task) => task.idx)).toEqual([680, 681, 682]);
  });

  it("no filter selects all tasks", () => {
    expect(selectTasks(real, parseConfig({}).config).tasks).toHaveLength(2140);
  });

  it("shards round-robin after selection and cover every task exactly once", () => {
    const seen: number[] = [];
    for (let shard = 0; shard < 3; shard++) {
      const { config } = parseConfig({ task_limit: 10, shard_index: shard, num_shards: 3 });
      const selection = selectTasks(real, config);
      expect(selection.selectedBeforeSharding).toBe(10);
      seen.push(...selection.tasks.map((task) => task.idx));
    }
    expect(seen).toEqual([456, 1003, 419, 130, 102, 914, 356, 1126, 571, 1728]);
  });

  it("names unknown ids and categories", () => {
    expect(() => selectTasks(real, parseConfig({ task_ids: [1, 5000] }).config)).toThrow(/unknown task index 5000; this task set has indices 0-2139/);
    expect(() => selectTasks(real, parseConfig({ task_categories: ["handle_time", "nope"] }).config)).toThrow(ConfigError);
  });
});

describe("config", () => {
  it("fills the defaults and keeps unknown keys aside", () => {
    const { config, ignoredKeys } = parseConfig({ shard_count: 2, extra: "x" });
    expect(config).toMatchObject({
      drift_level: "none",
      rot_level: "none",
      max_steps: 10,
      timeout: 300,
      org_type: "b2b",
      seed: 42,
      concurrency: 4,
      skip_original: false,
      shard_index: 0,
      num_shards: 1,
    });
    expect(ignoredKeys).toEqual(["shard_count", "extra"]);
  });

  it("honours num_instances as the tasks of all shards together: the task_limit sample, then sharded", () => {
    const tenAsLimit = selectTasks(real, parseConfig({ task_limit: 10 }).config).tasks.map((task) => task.idx);
    expect(selectTasks(real, parseConfig({ num_instances: 10 }).config).tasks.map((task) => task.idx)).toEqual(tenAsLimit);
    const shards = [0, 1].map((shard_index) => selectTasks(real, parseConfig({ num_instances: 10, num_shards: 2, shard_index }).config));
    expect(shards.map((shard) => shard.selectedBeforeSharding)).toEqual([10, 10]);
    expect([...shards[0]!.tasks, ...shards[1]!.tasks].map((task) => task.idx).sort((a, b) => a - b)).toEqual([...tenAsLimit].sort((a, b) => a - b));
    expect(selectTasks(real, parseConfig({ task_limit: 50, num_instances: 10 }).config).tasks).toHaveLength(10);
    expect(selectTasks(real, parseConfig({ task_categories: ["handle_time"], num_instances: 3 }).config).tasks.map((task) => task.idx)).toEqual([880, 881, 882]);
  });

  it("refuses a sample larger than the task set, as CPython's random.sample does", () => {
    expect(() => selectTasks(real, parseConfig({ task_limit: 1e12 }).config)).toThrow(/config\.task_limit: 1000000000000 is more than the 2140 tasks/);
    expect(() => selectTasks(real, parseConfig({ num_instances: 3000 }).config)).toThrow(/config\.num_instances: 3000 is more than the 2140 tasks/);
  });

  it("reports every bad field at once", () => {
    expect(() => parseConfig({ max_steps: 1.5, seed: -1, skip_original: "yes" })).toThrow(
      /config\.max_steps: max_steps must be a whole number \(got 1\.5\); config\.seed: seed must be at least 0 \(got -1\); config\.skip_original: skip_original must be true or false \(got "yes"\)/,
    );
  });

  it("rejects task ids that are not whole numbers", () => {
    expect(() => parseConfig({ task_ids: ["12a"] })).toThrow(/task_ids must hold whole numbers >= 0 \(got "12a"\)/);
    expect(() => parseConfig({ task_ids: [] })).toThrow(/task_ids must not be empty/);
  });
});
