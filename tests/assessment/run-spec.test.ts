import { copyFileSync, mkdtempSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import {
  type AssessmentConfig,
  assess,
  CONFIG_KEYS,
  ConfigError,
  configKeyFlags,
  episodePlan,
  journalPath,
  laterEpisode,
  parseConfig,
  runChains,
  runPool,
  runSpecFor,
  taskChains,
} from "../../src/assessment/index.js";
import { buildProgram } from "../../src/cli/index.js";
import { configFromOptions } from "../../src/cli/options.js";
import { loadCalibration } from "../../src/data/index.js";
import type { TaskRecord } from "../../src/tasks/index.js";
import { sampleData } from "../support/helpers.js";

const SAMPLE_TASKS = "data/sample/tasks.json";
const spec = (raw: Record<string, unknown>, participantUrl = "http://purple.example/", purpleIdentity?: string) =>
  runSpecFor({ participantUrl, config: parseConfig(raw).config, tasksSource: SAMPLE_TASKS, ...(purpleIdentity ? { purpleIdentity } : {}) });

describe("the run spec", () => {
  it("is named once, the same for every shard of a run and for a repeat, and by config.run_id when given", () => {
    const first = spec({ task_limit: 4, num_shards: 2, shard_index: 0 });
    expect(first).toMatchObject({ specVersion: 1, participantUrl: "http://purple.example/", ignoredConfigKeys: [] });
    expect(first.runId).toMatch(/^run-[0-9a-f]{16}$/);
    expect(spec({ task_limit: 4, num_shards: 2, shard_index: 1 }).runId).toBe(first.runId);
    expect(spec({ task_limit: 4, num_shards: 2, shard_index: 0, concurrency: 9 }).runId).toBe(first.runId);
    expect(spec({ task_limit: 5, num_shards: 2, shard_index: 0 }).runId).not.toBe(first.runId);
    // The purple's card names it, not where it is reached.
    expect(spec({ task_limit: 4 }, "http://127.0.0.1:1/", "card-a").runId).toBe(spec({ task_limit: 4 }, "http://127.0.0.1:2/", "card-a").runId);
    expect(spec({ task_limit: 4, run_id: "mine" }).runId).toBe("mine");
  });

  it("holds a valid config only: a config that did not go through the schema is refused, naming the field", () => {
    const config = { ...parseConfig({}).config, max_steps: 0 } as AssessmentConfig;
    expect(() => runSpecFor({ participantUrl: "http://purple.example/", config, tasksSource: SAMPLE_TASKS })).toThrow(ConfigError);
    expect(() => runSpecFor({ participantUrl: "http://purple.example/", config, tasksSource: SAMPLE_TASKS })).toThrow(/field 'config\.max_steps'/);
  });
});

const everyCommand = await buildProgram();

describe("the command line's config flags", () => {
  const assess = everyCommand.commands.find((command) => command.name() === "assess")!;
  const longFlags = assess.options.map((option) => option.long);

  it("come from the config schema: each flag is a config key, and a key is flagged or set in a --config file only", () => {
    const flagged = configKeyFlags().map((entry) => entry.key);
    expect(CONFIG_KEYS.filter((key) => !flagged.includes(key))).toEqual(["weights", "perturbations"]);
    // The flags `assess --help` offered before they were generated, by the same names.
    for (const flag of [
      "--task-ids",
      "--task-categories",
      "--task-limit",
      "--num-instances",
      "--drift-level",
      "--rot-level",
      "--max-steps",
      "--timeout",
      "--org-type",
      "--seed",
      "--concurrency",
      "--shard-index",
      "--num-shards",
      "--run-id",
      "--first-message",
      "--config",
      "--skip-original",
      "--allow-data-mismatch",
      "--no-remap-ids",
    ])
      expect(longFlags).toContain(flag);
  });

  it("set the keys they name over the --config file, read as the schema reads them", async () => {
    const dir = mkdtempSync(join(tmpdir(), "run-spec-"));
    const file = join(dir, "config.json");
    writeFileSync(file, JSON.stringify({ seed: 1, drift_level: "low", remap_ids: true, skip_original: false }));
    const program = await buildProgram();
    const command = program.commands.find((candidate) => candidate.name() === "assess")!;
    command.action(() => undefined);
    program.parse(
      [
        "assess",
        "--agent",
        "http://purple.example/",
        "--config",
        file,
        "--task-ids",
        "0,18",
        "--seed",
        "7",
        "--timeout",
        "2.5",
        "--first-message",
        "json",
        "--skip-original",
        "--no-remap-ids",
      ],
      { from: "user" },
    );
    const raw = configFromOptions(command.opts());
    expect(raw).toEqual({ seed: 7, drift_level: "low", remap_ids: false, skip_original: true, task_ids: "0,18", timeout: 2.5, first_message: "json" });
    expect(parseConfig(raw).config).toMatchObject({ seed: 7, task_ids: [0, 18], timeout: 2.5, remap_ids: false, skip_original: true, first_message: "json" });
  });

  it("refuse a number flag that is not one, naming the flag", async () => {
    const program = (await buildProgram()).exitOverride();
    const command = program.commands.find((candidate) => candidate.name() === "assess")!;
    command.exitOverride().configureOutput({ writeErr: () => undefined });
    command.action(() => undefined);
    expect(() => program.parse(["assess", "--agent", "http://purple.example/", "--max-steps", "ten"], { from: "user" })).toThrow(/--max-steps must be a whole number/);
  });
});

describe("the run's pool", () => {
  const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

  it("works on `concurrency` items at once, in order, each follow-up while the worker's next item runs", async () => {
    let inFlight = 0;
    let most = 0;
    const started: number[] = [];
    const followed: number[] = [];
    await runPool([1, 2, 3, 4, 5, 6, 7], { concurrency: 3 }, async (item) => {
      started.push(item);
      inFlight++;
      most = Math.max(most, inFlight);
      await tick();
      inFlight--;
      return async () => {
        followed.push(item);
      };
    });
    expect(started).toEqual([1, 2, 3, 4, 5, 6, 7]);
    expect(most).toBe(3);
    expect([...followed].sort()).toEqual([1, 2, 3, 4, 5, 6, 7]);
  });

  it("starts nothing new once drained, and finishes what is in flight", async () => {
    const drain = new AbortController();
    const done: number[] = [];
    await runPool([1, 2, 3, 4, 5], { concurrency: 2, drain: drain.signal }, async (item) => {
      if (item === 2) drain.abort("stop");
      await tick();
      done.push(item);
      return undefined;
    });
    expect(done.sort()).toEqual([1, 2]);
  });

  it("stops at a failed follow-up and throws its error once the items in flight are done", async () => {
    const started: number[] = [];
    await expect(
      runPool([1, 2, 3, 4, 5, 6], { concurrency: 1 }, async (item) => {
        started.push(item);
        await tick();
        return async () => {
          if (item === 2) throw new Error("disk full");
        };
      }),
    ).rejects.toThrow("disk full");
    expect(started.length).toBeLessThan(6);
  });
});

describe("the run's task chains", () => {
  const tick = () => new Promise((resolve) => setTimeout(resolve, 1));

  it("work a chain's items one after another and different chains `concurrency` at a time", async () => {
    const chains = [["a1", "a2", "a3"], ["b1", "b2"], ["c1"], ["d1", "d2", "d3"]];
    const inFlight = new Map<string, number>();
    let total = 0;
    let most = 0;
    let mostOfOneChain = 0;
    const order: string[] = [];
    await runChains(chains, { concurrency: 3 }, async (item) => {
      const chain = item[0]!;
      order.push(item);
      inFlight.set(chain, (inFlight.get(chain) ?? 0) + 1);
      mostOfOneChain = Math.max(mostOfOneChain, inFlight.get(chain)!);
      most = Math.max(most, ++total);
      await tick();
      inFlight.set(chain, inFlight.get(chain)! - 1);
      total--;
      return undefined;
    });
    expect(mostOfOneChain).toBe(1);
    expect(most).toBe(3);
    // Each chain in its own order; every item once.
    for (const chain of chains) expect(order.filter((item) => item[0] === chain[0]![0])).toEqual(chain);
    expect(order).toHaveLength(9);
  });

  it("start nothing new once drained, not even the rest of a chain begun", async () => {
    const drain = new AbortController();
    const done: string[] = [];
    await runChains([["a1", "a2"], ["b1", "b2"], ["c1"]], { concurrency: 2, drain: drain.signal }, async (item) => {
      // Drained once both chains are begun: a2 and b2 wait, c1 was never begun.
      if (item === "b1") drain.abort("stop");
      await tick();
      done.push(item);
      return undefined;
    });
    expect(done.sort()).toEqual(["a1", "b1"]);
  });

  it("group the episodes left to play by task, each chain from its first unrecorded episode, in plan order", () => {
    const tasks = [{ idx: 5 }, { idx: 9 }, { idx: 2 }] as TaskRecord[];
    const plan = episodePlan(tasks, { trials: 2, paired: true });
    const recorded = new Set([1, 2, 9]);
    const chains = taskChains(plan.filter((item) => !recorded.has(item.position)));
    expect(chains.map((chain) => chain.map((item) => item.position))).toEqual([
      [3, 4],
      [5, 6, 7, 8],
      [10, 11, 12],
    ]);
    expect(chains.map((chain) => chain.map((item) => `${item.trial}:${item.condition}`))).toEqual([
      ["2:perturbed", "2:clean"],
      ["1:perturbed", "1:clean", "2:perturbed", "2:clean"],
      ["1:clean", "2:perturbed", "2:clean"],
    ]);
    // Only a task's first episode (trial 1, its first view) keeps the run's task id and Ids.
    expect(plan.filter((item) => laterEpisode(item) === undefined).map((item) => item.position)).toEqual([1, 5, 9]);
    expect(episodePlan(tasks, {}).every((item) => laterEpisode(item) === undefined)).toBe(true);
    expect(laterEpisode({ trial: 3 })).toEqual({ trial: 3 });
  });
});

describe("resuming a journal", () => {
  it("refuses to continue a journal of version 1 (it would mix two layouts in one file), saying how to start over", async () => {
    const dir = mkdtempSync(join(tmpdir(), "run-spec-resume-"));
    const runSpec = spec({ task_ids: "0,18,40", drift_level: "medium", concurrency: 1, run_id: "golden-v1" });
    copyFileSync(fileURLToPath(new URL("../fixtures/logs/golden-v1.jsonl", import.meta.url)), journalPath(dir, "golden-v1"));
    const data = await sampleData();
    try {
      const purple = { url: "stub://never", send: () => Promise.reject(new Error("not reached")) };
      await expect(assess(data, purple, { spec: runSpec, calibration: loadCalibration(), logDir: dir, resume: true })).rejects.toThrow(
        /written in log version 1 by an older green agent; it cannot be continued \(it still reads for rescore, report and show\): start the run over with --force \(assess\), or give the request another config.run_id \(serve\)/,
      );
    } finally {
      await data.org.close();
    }
  });
});
