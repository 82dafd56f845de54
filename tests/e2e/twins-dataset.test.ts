import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { beforeAll, describe, expect, it } from "vitest";
import { assess, checkDataMatch, parseConfig, runSpecFor } from "../../src/assessment/index.js";
import { alwaysNoneStrategy, oracleStrategy, servePurple } from "../../src/baselines/index.js";
import { CALIBRATION_FILE, calibrationFor, DatasetShelf, IDLE_BUILT_SETS, loadCalibration, loadDataForConfig, loadTwins, twinKeyFor, twinSet } from "../../src/data/index.js";
import { SAMPLE, TWINS, TWINS_CALIBRATION_FILE, TWINS_VERSION } from "../../src/datasets/index.js";
import { A2APurpleClient } from "../../src/purple/index.js";
import { summaryText } from "../../src/report/index.js";
import { calibrationDigest } from "../../src/scoring/index.js";
import type { TaskRecord } from "../../src/tasks/index.js";
import { defineTwinCategory, TwinKey } from "../../src/twins/index.js";
import { collectNow } from "../../src/util/index.js";
import { assessmentParams, calibration, noneCountsByCategory, quietLogger, REAL_TASKS, rawRpc, resultsOf, sampleData, startGreen } from "../support/helpers.js";

/**
 * The twins as a dataset: built at run time from a real task file and a key of the operator's
 * secret and the assessment seed, cached by the file's content, the key's digest, the twins per
 * task and the builder's version, and said in the results and the log (the key by its digest). The source is a task file made at test time from the real one (a few tasks of three
 * categories); nothing of it is kept in the project.
 *
 * The machinery is tested with a maker of its own (the twin makers of the categories are
 * tested in tests/twins/<group>.test.ts): it keeps the task's texts and answers a record Id of
 * the twin org (None where the builder placed one), so an oracle passes every twin and the
 * record Id is one the twin org has.
 */
const plumbingMaker = defineTwinCategory({
  name: "handle_time",
  twin: ({ source, world, rng, wantNone }) => {
    const users = world.rows("User");
    return { query: source.query, required: source.metadata.required, answer: wantNone ? ["None"] : [String(rng.pick(users).Id)] };
  },
});
const makers = [plumbingMaker];

const hasReal = existsSync(REAL_TASKS);
const work = mkdtempSync(join(tmpdir(), "twins-dataset-"));
const fixture = join(work, "source.json");
let source: TaskRecord[] = [];

/** Runs `body` with the sample's data and the twin cache (ENTROPIC_CACHE_DIR) in `folder` of the test's work folder; both put back after. */
async function withCacheDir(folder: string, body: (sample: Awaited<ReturnType<typeof sampleData>>) => Promise<void>): Promise<void> {
  const previous = process.env.ENTROPIC_CACHE_DIR;
  process.env.ENTROPIC_CACHE_DIR = join(work, folder);
  const sample = await sampleData();
  try {
    await body(sample);
  } finally {
    await sample.org.close();
    if (previous === undefined) delete process.env.ENTROPIC_CACHE_DIR;
    else process.env.ENTROPIC_CACHE_DIR = previous;
  }
}

/** The same, with a server's shelf over the sample that builds the twins from the fixture (keyed by `secret`, else the server's own), closed after. */
async function withShelf(folder: string, body: (shelf: DatasetShelf) => Promise<void>, secret?: () => string): Promise<void> {
  await withCacheDir(folder, async (sample) => {
    const shelf = new DatasetShelf(sample, quietLogger(), { workers: 1 }, fixture, secret);
    try {
      await body(shelf);
    } finally {
      await shelf.close();
    }
  });
}

beforeAll(() => {
  if (!hasReal) return;
  const real = JSON.parse(readFileSync(REAL_TASKS, "utf8")) as TaskRecord[];
  const pick = (category: string, n: number) => real.filter((task) => task.task === category).slice(0, n);
  // Four twinnable tasks (one None among the handle_time ones, if the file has one), and two of a category the maker does not make.
  const handle = real.filter((task) => task.task === "handle_time");
  const none = handle.find((task) => task.answer.every((value) => value === null || value === "None"));
  source = [...handle.filter((task) => task !== none).slice(0, 3), ...(none ? [none] : []), ...pick("lead_routing", 2)];
  writeFileSync(fixture, JSON.stringify(source));
});

describe.skipIf(!hasReal)("the twins dataset", () => {
  it("refuses a missing source task file, naming the field and what to do", async () => {
    await expect(loadDataForConfig({ dataset: TWINS.name, org_type: "b2b", seed: 1 }, { tasks: join(work, "absent.json") }, quietLogger())).rejects.toThrow(
      /^config\.dataset: dataset 'twins' is built from the real task file .*absent\.json, which cannot be read .*pass --tasks <CRMArena-Pro B2B task file> \(or set ENTROPIC_TASKS\)/,
    );
  });

  it("refuses an org given with the twins, which bring their own", async () => {
    await expect(loadDataForConfig({ dataset: TWINS.name, org_type: "b2b", seed: 1 }, { tasks: fixture, org: "sample" }, quietLogger())).rejects.toThrow(
      /^config\.dataset: dataset 'twins' brings its own org .*--org sample would not be used: drop it/,
    );
  });

  it("builds a set once per source content and key, reads it from the cache after, and reports the tasks it could not twin", async () => {
    const cacheDir = join(work, "cache");
    const options = { cacheDir, build: { makers, scale: 0.1 }, key: TwinKey.forRun(1, "operator secret") };
    const first = await twinSet(fixture, 1, "config.dataset", options);
    expect(first.cached).toBe(false);
    const again = await twinSet(fixture, 1, "config.dataset", options);
    expect(again.cached).toBe(true);
    expect(again.tasksPath).toBe(first.tasksPath);
    expect(again.builtFrom).toEqual(first.builtFrom);
    expect(first.builtFrom).toEqual({
      key: options.key.digest,
      version: TWINS_VERSION,
      trials: 1,
      source: { path: fixture, sha256: createHash("sha256").update(readFileSync(fixture)).digest("hex") },
      missing: source.filter((task) => task.task !== "handle_time").map((task) => ({ idx: task.idx, category: task.task })),
    });
    const twins = JSON.parse(readFileSync(first.tasksPath, "utf8")) as TaskRecord[];
    expect(twins.map((task) => task.idx)).toEqual(source.filter((task) => task.task === "handle_time").map((task) => task.idx));
    // The category keeps its source's count of None answers (placed by the seed, not on the None sources).
    expect(noneCountsByCategory(twins)).toEqual(noneCountsByCategory(source, ["handle_time"]));

    // A pure function of the key: built again elsewhere it is the same set; another seed or another secret is another set.
    const elsewhere = await twinSet(fixture, 1, "config.dataset", { ...options, cacheDir: join(work, "cache-2") });
    expect(elsewhere.cached).toBe(false);
    expect(readFileSync(elsewhere.tasksPath, "utf8")).toBe(readFileSync(first.tasksPath, "utf8"));
    for (const key of [TwinKey.forRun(2, "operator secret"), TwinKey.forRun(1, "another operator's secret")]) {
      const other = await twinSet(fixture, 1, "config.dataset", { ...options, key });
      expect(other.tasksPath).not.toBe(first.tasksPath);
      expect(readFileSync(other.tasksPath, "utf8")).not.toBe(readFileSync(first.tasksPath, "utf8"));
    }
    // The cache folder is another for another secret at the same seed (above), and what the set says it was built from names the key's digest, not the seed.
    expect(readFileSync(join(first.tasksPath, "..", "built-from.json"), "utf8")).not.toMatch(/"seed"/);
    // Without a key given, the set is keyed by the operator's secret (the Id remap's).
    const operators = await twinSet(fixture, 1, "config.dataset", { ...options, key: undefined } as never);
    expect(operators.builtFrom.key).toBe(twinKeyFor(1).digest);
    expect(operators.builtFrom.key).not.toBe(TwinKey.unkeyed(1).digest);
    expect(operators.builtFrom.key).not.toBe(TwinKey.forRun(1, "").digest);
  });

  it("keeps a twin per trial: trial 1 the set's own task, trial k its k-th twin, on the set's org", async () => {
    const options = { cacheDir: join(work, "cache"), build: { makers, scale: 0.1 }, key: TwinKey.forRun(1, "operator secret"), trials: 3 };
    const data = await loadTwins(fixture, 1, quietLogger(), { workers: 1 }, "config.dataset", options);
    try {
      expect(data.sources.tasks.builtFrom).toMatchObject({ key: options.key.digest, trials: 3 });
      const single = await twinSet(fixture, 1, "config.dataset", { ...options, trials: 1 });
      // Trial 1 is the set a run of one trial gets.
      expect(data.tasks.tasks).toEqual(JSON.parse(readFileSync(single.tasksPath, "utf8")));
      const trialTask = data.trialTask!;
      for (const task of data.tasks.tasks) {
        expect(trialTask(task, 1)).toBe(task);
        const twins = [1, 2, 3].map((trial) => trialTask(task, trial));
        for (const twin of twins) expect(twin).toMatchObject({ idx: task.idx, task: task.task, reward_metric: task.reward_metric });
        // The maker answers a drawn user's Id: each trial its own draw.
        expect(new Set(twins.map((twin) => JSON.stringify(twin.answer))).size).toBeGreaterThan(1);
      }
      expect(() => trialTask(data.tasks.tasks[0]!, 4)).toThrow(/trial 4: this twin set has 3 twins per task/);
      for (const trial of [2, 3]) {
        const tasks = data.tasks.tasks.map((task) => trialTask(task, trial));
        // Each trial keeps each category's count of None answers, and names only records of the set's org.
        expect(noneCountsByCategory(tasks)).toEqual(noneCountsByCategory(data.tasks.tasks));
        expect((await checkDataMatch(tasks, data.org, false)).missingIds).toBe(0);
      }
    } finally {
      await data.org.close();
    }
  });

  it("runs an in-process assessment whose results and log header say dataset twins, the twin key's digest and the source file", async () => {
    const data = await loadTwins(fixture, 3, quietLogger(), { workers: 2 }, "config.dataset", { cacheDir: join(work, "cache"), build: { makers, scale: 0.1 } });
    const purple = await servePurple("oracle", oracleStrategy(data.tasks, { secret: "" }), "127.0.0.1", 0);
    try {
      const { config } = parseConfig({ seed: 3, dataset: TWINS.name });
      const { results, logFile } = await assess(data, new A2APurpleClient(purple.url), {
        spec: runSpecFor({ participantUrl: purple.url, config, tasksSource: data.sources.tasks.path }),
        calibration,
        idSecret: "",
        logDir: join(work, "logs"),
      });
      const builtFrom = {
        key: twinKeyFor(3).digest,
        version: TWINS_VERSION,
        trials: 1,
        source: { path: fixture, sha256: createHash("sha256").update(readFileSync(fixture)).digest("hex") },
        missing: source.filter((task) => task.task !== "handle_time").map((task) => ({ idx: task.idx, category: task.task })),
      };
      expect(results.dataset).toBe(TWINS.name);
      expect(results.data_sources?.tasks).toEqual({ path: data.sources.tasks.path, kind: TWINS.name, builtFrom });
      expect(results.summary.total_tasks).toBe(data.tasks.tasks.length);
      expect(results.summary.total_passed).toBe(data.tasks.tasks.length);
      expect(summaryText(results)).toContain(`Built from ${fixture} (sha256 ${builtFrom.source.sha256.slice(0, 12)}…) with twin key ${builtFrom.key}, builder version`);
      expect(JSON.stringify(results.data_sources)).not.toMatch(/"seed"/);
      expect(summaryText(results)).toMatch(/2 source tasks have no twin and were not run \(lead_routing 2\)/);
      const header = JSON.parse(readFileSync(logFile!, "utf8").split("\n")[0]!);
      expect(header.data).toMatchObject({ dataset: TWINS.name, tasks: { kind: TWINS.name, builtFrom } });
    } finally {
      purple.server.close();
      await data.org.close();
    }
  });

  it("on a server's shelf: refused with the field when the server has no source file; requests naming no dataset stay on the server's data", async () => {
    const sample = await sampleData();
    const shelf = new DatasetShelf(sample, quietLogger(), { workers: 2 }, join(work, "absent.json"));
    try {
      // The server's source file is absent: the request is refused with the field and what to do.
      await expect(shelf.forConfig({ dataset: TWINS.name, org_type: "b2b", seed: 1 })).rejects.toThrow(/^config\.dataset: dataset 'twins' is built from the real task file/);
      // Requests that name no dataset stay on the server's own data.
      expect(await shelf.forConfig({ org_type: "b2b", seed: 1 })).toBe(sample);
    } finally {
      await shelf.close();
      await sample.org.close();
    }
  });

  it("scores twins against the twins' own calibration (the analyst on twins) and the sample against the default", async () => {
    const twinsCalibration = calibrationFor(TWINS.name);
    expect(twinsCalibration).toEqual(loadCalibration(TWINS_CALIBRATION_FILE));
    expect(twinsCalibration.source).toContain("reference analyst purple on twins");
    expect(calibrationFor(SAMPLE.name)).toEqual(loadCalibration(CALIBRATION_FILE));
    expect(calibrationFor("a-dataset-of-no-spec")).toEqual(loadCalibration(CALIBRATION_FILE));
    // Through the server: a request naming the twins gets the twins' calibration, one naming none the server's.
    await withCacheDir("server-cache", async (sample) => {
      const green = await startGreen(sample, { tasksFile: fixture });
      const purple = await servePurple("none", alwaysNoneStrategy, "127.0.0.1", 0);
      try {
        for (const [dataset, expected] of [
          [TWINS.name, twinsCalibration],
          [undefined, calibration],
        ] as const) {
          const request = { participants: { agent: purple.url }, config: { seed: 4, task_limit: 2, ...(dataset ? { dataset } : {}) } };
          const { body } = await rawRpc(green.url, "message/send", assessmentParams(request));
          const results = resultsOf(body.result);
          expect(results.dataset, JSON.stringify(body).slice(0, 400)).toBe(dataset ?? SAMPLE.name);
          expect(results.calibration).toEqual({ source: expected.source, digest: calibrationDigest(expected) });
        }
      } finally {
        purple.server.close();
        await green.close();
      }
    });
  }, 120_000);

  it("on a server's shelf: a request of k trials gets a set of k twins per task, keyed by the server's secret", async () => {
    await withShelf(
      "trials-cache",
      async (shelf) => {
        const two = await shelf.forConfig({ dataset: TWINS.name, org_type: "b2b", seed: 1, trials: 2 });
        const one = await shelf.forConfig({ dataset: TWINS.name, org_type: "b2b", seed: 1 });
        expect(two).not.toBe(one);
        expect(two.sources.tasks.builtFrom).toMatchObject({ key: twinKeyFor(1, "the server's secret").digest, trials: 2 });
        expect(one.sources.tasks.builtFrom).toMatchObject({ key: twinKeyFor(1, "the server's secret").digest, trials: 1 });
        expect(two.tasks.tasks).toEqual(one.tasks.tasks);
        const task = two.tasks.tasks[0]!;
        expect(two.trialTask!(task, 2)).toMatchObject({ idx: task.idx, task: task.task });
        expect(two.trialTask!(task, 2).metadata.required + two.trialTask!(task, 2).query).not.toBe(task.metadata.required + task.query);
        expect(shelf.openSeeds(TWINS.name)).toEqual([1, 1]);
      },
      () => "the server's secret",
    );
  }, 180_000);

  it(`keeps at most ${IDLE_BUILT_SETS} twin sets open that no assessment holds, and never closes one in use`, async () => {
    await withShelf("shelf-cache", async (shelf) => {
      const twinsAt = (seed: number) => shelf.forConfig({ dataset: TWINS.name, org_type: "b2b", seed });
      const [one, two, three] = [await twinsAt(1), await twinsAt(2), await twinsAt(3)];
      expect(shelf.openSeeds(TWINS.name)).toEqual([1, 2, 3]);
      shelf.doneWith(one);
      shelf.doneWith(two);
      expect(shelf.openSeeds(TWINS.name)).toEqual([1, 2, 3]);
      // A third idle set closes the least recently used one.
      shelf.doneWith(three);
      expect(shelf.openSeeds(TWINS.name)).toEqual([2, 3]);
      // Held sets stay open however many idle ones come after; two requests of one seed share it until both are done.
      const four = await twinsAt(4);
      const [five, fiveAgain] = [await twinsAt(5), await twinsAt(5)];
      expect(fiveAgain).toBe(five);
      const six = await twinsAt(6);
      shelf.doneWith(five);
      shelf.doneWith(six);
      // Idle: 3 and 6 (2 was the least recently used of three idle); 4 and 5 are held.
      expect(shelf.openSeeds(TWINS.name)).toEqual([3, 4, 5, 6]);
      shelf.doneWith(fiveAgain);
      expect(shelf.openSeeds(TWINS.name)).toEqual([4, 5, 6]);
      expect((await four.org.recordIds()).size).toBeGreaterThan(0);
      // A closed set is built again from the cache when asked for.
      const again = await twinsAt(1);
      expect(again).not.toBe(one);
      expect(again.tasks.tasks.map((task) => task.query)).toEqual(one.tasks.tasks.map((task) => task.query));
      shelf.doneWith(four);
      shelf.doneWith(again);
      expect(shelf.openSeeds(TWINS.name)).toHaveLength(IDLE_BUILT_SETS);
    });
  }, 180_000);

  it("lets go of a twin set it closed: after a thorough collection nothing of the process holds its data", async () => {
    await withShelf("shelf-cache", async (shelf) => {
      // Told when V8 has collected a set (a FinalizationRegistry keeps nothing alive, unlike a WeakRef within its turn).
      const collected: number[] = [];
      const registry = new FinalizationRegistry<number>((seed) => collected.push(seed));
      // Each set held by a request, then handed back: the third one idle closes the first.
      for (const seed of [1, 2, 3]) {
        const data = await shelf.forConfig({ dataset: TWINS.name, org_type: "b2b", seed });
        expect((await data.org.recordIds()).size).toBeGreaterThan(0);
        registry.register(data, seed);
        shelf.doneWith(data);
      }
      expect(shelf.openSeeds(TWINS.name)).toEqual([2, 3]);
      // The closed org's close() is asynchronous; the registry's callbacks run in a task after the collection.
      await new Promise((resolve) => setTimeout(resolve, 50));
      expect(collectNow("last-resort")).toBe(true);
      for (let i = 0; i < 40 && collected.length === 0; i++) await new Promise((resolve) => setTimeout(resolve, 50));
      expect(collected).toEqual([1]);
    });
  }, 180_000);
});
