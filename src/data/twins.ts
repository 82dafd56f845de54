import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { mkdir, readFile, rename, rm, writeFile } from "node:fs/promises";
import { join, resolve } from "node:path";
import type { Logger } from "pino";
import type { AssessmentData } from "../assessment/index.js";
import { CRMARENA_PRO_B2B, DatasetChoiceError, TWINS, TWINS_VERSION } from "../datasets/index.js";
import { type BuiltFrom, BuiltFromSchema } from "../log/index.js";
import type { OpenOrgOptions } from "../org/index.js";
import { writeOrgCsv, writeTasksJson } from "../sample/index.js";
import { loadTaskFile, parseTasks, type TaskRecord } from "../tasks/index.js";
import { type BuildTwinsOptions, buildTwins, TwinKey } from "../twins/index.js";
import { environment } from "../util/index.js";
import { builtCacheDir, type DatasetBuild, type DatasetBuilder } from "./builder.js";
import { resolveIdSecret } from "./id-secret.js";
import { openData } from "./open.js";
import { evictTwinSets, touchTwinSet, twinCacheBudgetBytes } from "./twin-cache.js";

/** A built twin set on disk: its task file (the first trial's twins), its later trials' task files, its org folder, and what it was built from. */
export interface BuiltTwins {
  readonly tasksPath: string;
  /** The task files of trials 2, 3, …: trial k's is `trialPaths[k - 2]` (empty for a set of one twin per task). */
  readonly trialPaths: readonly string[];
  readonly orgPath: string;
  readonly builtFrom: BuiltFrom;
  /** Was it read from the cache (true) or built now? */
  readonly cached: boolean;
}

/**
 * How a twin set is built and kept: the cache folder (default: TWINS_CACHE_DIR, or
 * ENTROPIC_CACHE_DIR's twins/), the builder's options (a test's own makers), the key and the
 * twins per task.
 */
export interface TwinSetOptions {
  readonly cacheDir?: string;
  /** Bytes the cache folder may hold (its least recently used sets evicted); ENTROPIC_TWINS_CACHE_MB by default. */
  readonly cacheBytes?: number;
  readonly build?: Pick<BuildTwinsOptions, "makers" | "scale">;
  /** The set's key; default `twinKeyFor(seed)`, the operator's secret's. */
  readonly key?: TwinKey;
  /** Twins per task, one per trial of a run (default 1). */
  readonly trials?: number;
}

/**
 * The key of a run's twin set at `seed`: keyed by the operator's secret, the one the Id remap
 * takes (`resolveIdSecret`: ENTROPIC_ID_SECRET, else the installation's own), so the seed a
 * purple is shown does not let it rebuild the twins with the public builder.
 */
export function twinKeyFor(seed: number, secret: string = resolveIdSecret()): TwinKey {
  return TwinKey.forRun(seed, secret);
}

/**
 * The twin cache: ENTROPIC_TWINS_CACHE when it is set (the image sets /var/lib/entropic/twins, on
 * its volume), else ENTROPIC_CACHE_DIR's twins/ (the dataset's name; as `data fetch` honours it),
 * else data/cache/twins/ in the installation. Bounded by ENTROPIC_TWINS_CACHE_MB (twin-cache.ts).
 */
export const twinCacheDir = (env: NodeJS.ProcessEnv = environment()) => env.ENTROPIC_TWINS_CACHE || builtCacheDir(TWINS.name, env);

/** The file beside a built set's tasks.json and org/ that says what it was built from; written last, so its presence means the set is whole. */
const BUILT_FROM_FILE = "built-from.json";

/**
 * The real task file the twins are built from: the one the operator named (--tasks,
 * ENTROPIC_TASKS), else the one `data fetch` downloaded; undefined when there is none.
 */
export function twinSourceFile(explicit: { tasks?: string | undefined }, env: NodeJS.ProcessEnv = environment()): string | undefined {
  return explicit.tasks ?? env.ENTROPIC_TASKS ?? fetchedTaskFile();
}

/** The real task file `data fetch` downloaded, when it is there. */
const fetchedTaskFile = () => (existsSync(CRMARENA_PRO_B2B.tasksPath) ? CRMARENA_PRO_B2B.tasksPath : undefined);

/** The key of a build: the operator's secret's (`twinKeyFor`), or, for a public measurement, the seed's alone (`TwinKey.unkeyed`). */
const twinKeyOf = (build: Pick<DatasetBuild, "seed" | "secret">): TwinKey => (build.secret === undefined ? TwinKey.unkeyed(build.seed) : twinKeyFor(build.seed, build.secret));

/**
 * The twins as a dataset that builds its own tasks and org (src/data/builder.ts): a set per seed,
 * trials and key, built from the real task file the operator named (else the fetched one), cached
 * in ENTROPIC_TWINS_CACHE when it is set, else the dataset's cache folder. They are the default
 * offline world: with no data named, the real org absent and the real task file fetched (`data
 * fetch` downloads the tasks even where the org database cannot be had), `assess` and `serve` run
 * the twins of the real tasks rather than the 44 sample tasks; `demo` and the tests name the sample.
 */
export const TWINS_BUILDER: DatasetBuilder = {
  name: TWINS.name,
  build: (build) =>
    loadTwins(build.tasksFile ?? fetchedTaskFile(), build.seed, build.logger, build.orgOptions, build.field, {
      key: twinKeyOf(build),
      trials: build.trials,
      cacheDir: environment().ENTROPIC_TWINS_CACHE || build.cacheDir,
    }),
  isSet: (data, build) => {
    const builtFrom = data.sources.tasks.builtFrom;
    return builtFrom?.key === twinKeyOf(build).digest && (builtFrom.trials ?? 1) === build.trials;
  },
  isOfflineDefault: () => !existsSync(CRMARENA_PRO_B2B.orgPath) && fetchedTaskFile() !== undefined,
};

/**
 * The twin set of a real task file at a seed (built, or read from the cache: `twinSet`), keyed by
 * the operator's secret unless `twinOptions.key` says otherwise, opened, with a twin per trial
 * (`trialTask`). The task source records what it was built from (the key by its digest); source
 * tasks without a twin are said in the log here and in the results' data sources.
 */
export async function loadTwins(
  sourcePath: string | undefined,
  seed: number,
  logger: Logger,
  orgOptions: OpenOrgOptions = {},
  field = "config.dataset",
  twinOptions: TwinSetOptions = {},
): Promise<AssessmentData> {
  const started = Date.now();
  const built = await twinSet(sourcePath, seed, field, twinOptions);
  const { missing } = built.builtFrom;
  logger.info({ source: built.builtFrom.source, key: built.builtFrom.key, cached: built.cached, ms: Date.now() - started, missing: missing.length }, "twin set ready");
  if (missing.length > 0) {
    const categories = [...new Set(missing.map((entry) => entry.category))];
    logger.warn({ missing: missing.length, categories }, `${missing.length} source tasks have no twin (categories: ${categories.join(", ")}); they are not run`);
  }
  const laterTrials = built.trialPaths.map((path) => new Map(loadTaskFile(path).tasks.map((task) => [task.idx, task])));
  const data = await openData(
    {
      tasksPath: built.tasksPath,
      orgPath: built.orgPath,
      dataset: TWINS.name,
      sources: { tasks: { path: built.tasksPath, kind: TWINS.name, builtFrom: built.builtFrom }, org: { path: built.orgPath, kind: TWINS.name } },
    },
    logger,
    orgOptions,
  );
  return { ...data, trialTask: twinTrials(laterTrials) };
}

/**
 * Trial k of a task on a twin set: its k-th twin (trial 1, the task itself). A k-th twin no draw
 * could make (reported in `builtFrom.missing` with its trial) replays the first; a trial beyond
 * the set's twins per task is a caller's error (the set is built for the run's `trials`).
 */
export function twinTrials(laterTrials: readonly ReadonlyMap<number, TaskRecord>[]): (task: TaskRecord, trial: number) => TaskRecord {
  return (task, trial) => {
    if (trial === 1) return task;
    const twins = laterTrials[trial - 2];
    if (!Number.isInteger(trial) || trial < 1 || !twins) throw new RangeError(`trial ${trial}: this twin set has ${laterTrials.length + 1} twins per task`);
    return twins.get(task.idx) ?? task;
  };
}

/**
 * The twin set of a source task file and a seed: read from the cache when it was built before
 * (data/cache/twins/<folder>/, the folder a hash of the file's content, the twin key's digest,
 * TWINS_VERSION and the twins per task: never of the seed alone), else built with src/twins and
 * written there. The set is a pure function of these, so a cached set is the set. A missing or
 * unreadable source file is refused naming `field`, with what to do.
 */
export async function twinSet(given: string | undefined, seed: number, field = "config.dataset", options: TwinSetOptions = {}): Promise<BuiltTwins> {
  if (given === undefined) throw new DatasetChoiceError(`${field}: dataset '${TWINS.name}' has no real task file to be built from: ${TWINS.whenMissing}`);
  // Recorded absolute: the results say which file on this machine the twins came from.
  const sourcePath = resolve(given);
  let content: Buffer;
  try {
    content = readFileSync(sourcePath);
  } catch (error) {
    throw new DatasetChoiceError(
      `${field}: dataset '${TWINS.name}' is built from the real task file ${sourcePath}, which cannot be read (${(error as Error).message}): ${TWINS.whenMissing}`,
    );
  }
  const sha256 = createHash("sha256").update(content).digest("hex");
  // Makers other than the built-in ones (a test's) and another scale are other sets: they are part of the key.
  const variant = [...(options.build?.makers?.map((maker) => maker.name) ?? []), ...(options.build?.scale !== undefined ? [`scale ${options.build.scale}`] : [])].join(",");
  const key = options.key ?? twinKeyFor(seed);
  const trials = options.trials ?? 1;
  const folder = createHash("sha256").update(`${sha256}\n${key.digest}\n${TWINS_VERSION}\n${variant}\n${trials}`).digest("hex").slice(0, 24);
  const cacheDir = options.cacheDir ?? twinCacheDir();
  const dir = join(cacheDir, folder);
  const trialFile = (trial: number) => `tasks.trial-${trial}.json`;
  const later = Array.from({ length: trials - 1 }, (_, i) => i + 2);
  const paths = { tasksPath: join(dir, "tasks.json"), trialPaths: later.map((trial) => join(dir, trialFile(trial))), orgPath: join(dir, "org") };
  const cached = await readBuiltFrom(join(dir, BUILT_FROM_FILE));
  // The source path is where the file is now: the cache is keyed by content, so a moved file reuses its set.
  if (cached) {
    await touchTwinSet(join(dir, BUILT_FROM_FILE));
    return { ...paths, builtFrom: { ...cached, source: { path: sourcePath, sha256 } }, cached: true };
  }

  let source: ReturnType<typeof parseTasks>;
  try {
    source = parseTasks(JSON.parse(content.toString("utf8")), sourcePath);
  } catch (error) {
    throw new DatasetChoiceError(`${field}: dataset '${TWINS.name}' cannot be built from ${sourcePath}: ${(error as Error).message}`);
  }
  const set = buildTwins(source.tasks, key, { ...options.build, trials });
  const builtFrom: BuiltFrom = { source: { path: sourcePath, sha256 }, key: key.digest, version: TWINS_VERSION, trials, missing: [...set.missing] };
  if (set.tasks.length === 0)
    throw new DatasetChoiceError(
      `${field}: dataset '${TWINS.name}': no twin could be made of the ${source.tasks.length} tasks of ${sourcePath} with twin key ${key.digest} (the categories whose twins are missing: ${[...new Set(set.missing.map((entry) => entry.category))].join(", ")})`,
    );
  // Written beside, then moved in whole: a crash or a second process never leaves a half set under the key.
  const staging = `${dir}.building-${process.pid}-${Date.now()}`;
  // A cache folder that cannot be written (read-only, a file in its place) is the operator's to fix: said with its path.
  await mkdir(staging, { recursive: true }).catch((error: unknown) => {
    const code = (error as NodeJS.ErrnoException).code ?? (error as Error).message;
    throw new DatasetChoiceError(
      `${field}: dataset '${TWINS.name}' cannot be cached in ${resolve(cacheDir)} (${code}): make it a writable folder, or set ENTROPIC_TWINS_CACHE to one`,
    );
  });
  try {
    await writeTasksJson(set.tasks, join(staging, "tasks.json"));
    for (const trial of later) await writeTasksJson(set.trials[trial - 1]!, join(staging, trialFile(trial)));
    await writeOrgCsv(set.world.toOrg(), join(staging, "org"));
    await writeFile(join(staging, BUILT_FROM_FILE), `${JSON.stringify(builtFrom, null, 1)}\n`);
    try {
      await rename(staging, dir);
    } catch (error) {
      // Another process built the same key first: its set is the same set. A folder there without
      // its marker is a set never finished (a crash mid-copy, a damaged disk): replaced by this one.
      if (!(await readBuiltFrom(join(dir, BUILT_FROM_FILE)))) {
        if ((error as NodeJS.ErrnoException).code !== "ENOTEMPTY" && (error as NodeJS.ErrnoException).code !== "EEXIST") throw error;
        await rm(dir, { recursive: true, force: true });
        await rename(staging, dir);
      }
    }
  } finally {
    await rm(staging, { recursive: true, force: true });
  }
  await evictTwinSets(cacheDir, options.cacheBytes ?? twinCacheBudgetBytes(), dir, BUILT_FROM_FILE);
  return { ...paths, builtFrom, cached: false };
}

async function readBuiltFrom(path: string): Promise<BuiltFrom | undefined> {
  let text: string;
  try {
    text = await readFile(path, "utf8");
  } catch {
    return undefined;
  }
  const parsed = BuiltFromSchema.safeParse(safeJson(text));
  return parsed.success ? parsed.data : undefined;
}

const safeJson = (text: string): unknown => {
  try {
    return JSON.parse(text);
  } catch {
    return undefined;
  }
};
