import { existsSync, readFileSync } from "node:fs";
import type { Logger } from "pino";
import { type AssessmentData, parseConfig } from "../assessment/index.js";
import { CRMARENA_PRO_B2B, chooseDataset, DatasetChoiceError, type DatasetSpec, datasetNamed, SAMPLE, TWINS } from "../datasets/index.js";
import type { DataSource } from "../log/index.js";
import { type OpenOrgOptions, openBackend } from "../org/index.js";
import { type Calibration, CalibrationSchema } from "../scoring/index.js";
import { loadTaskFile, type TaskRecord, type TaskSet } from "../tasks/index.js";
import { describeIssue, environment, firstIssue } from "../util/index.js";
import { resolveIdSecret } from "./id-secret.js";
import { CALIBRATION_FILE, chooseData, type DataChoice } from "./paths.js";
import { type TwinSetOptions, twinKeyFor, twinSet, twinSourceFile } from "./twins.js";

/** Loads the tasks and the org an assessment runs on (chosen by `chooseData`), and says loudly when it is the sample. */
export async function loadAssessmentData(
  explicit: { tasks?: string | undefined; org?: string | undefined },
  logger: Logger,
  orgOptions: OpenOrgOptions = {},
): Promise<AssessmentData> {
  return openData(chooseData(explicit), logger, orgOptions);
}

/** What chooses a command's data: the config's dataset, org type, seed (the seed a twin set is built for; the config's default when absent) and trials (a twin set has a twin per trial). */
export interface DataConfig {
  readonly dataset?: string | undefined;
  readonly org_type: string;
  readonly seed?: number | undefined;
  readonly trials?: number | undefined;
}

/** The seed of a config that gives none: the config schema's default. */
const seedOf = (config: DataConfig) => config.seed ?? parseConfig({}).config.seed;

/**
 * Loads the data a command's config chooses: the data of the flags and environment (`chooseData`)
 * unless `config.dataset` or `config.org_type` chooses another dataset (`chooseDataset`). The
 * twins (config.dataset, or the default offline world: `defaultsToTwins`) are built from the
 * real task file the flags and environment name, for `config.seed`.
 */
export async function loadDataForConfig(
  config: DataConfig,
  explicit: { tasks?: string | undefined; org?: string | undefined },
  logger: Logger,
  orgOptions: OpenOrgOptions = {},
): Promise<AssessmentData> {
  const choice = chooseData(explicit);
  const byDefault = config.dataset === undefined && defaultsToTwins(explicit);
  const name = chooseDataset(byDefault ? { ...config, dataset: TWINS.name } : config, choice.dataset);
  const field = config.dataset === undefined ? "config.org_type" : "config.dataset";
  if (name === TWINS.name && explicit.org !== undefined)
    throw new DatasetChoiceError(`${field}: dataset '${TWINS.name}' brings its own org (generated with the twins), so --org ${explicit.org} would not be used: drop it`);
  if (name === TWINS.name)
    return loadTwins(twinSourceFile(explicit), seedOf(config), logger, orgOptions, byDefault ? "the default data (twins)" : field, { trials: config.trials ?? 1 });
  if (name === "default") return openData(choice, logger, orgOptions);
  return loadDataset(datasetNamed(name)!, logger, orgOptions, field);
}

/**
 * The default offline world: with no data named (no --tasks / --org, no ENTROPIC_TASKS /
 * ENTROPIC_ORG), the real org absent and the real task file fetched (`data fetch` downloads the
 * tasks even where the org database cannot be had), `assess` and `serve` run the twins of the
 * real tasks rather than the 44 sample tasks. `demo` and the tests name the sample explicitly.
 */
export function defaultsToTwins(explicit: { tasks?: string | undefined; org?: string | undefined }, env: NodeJS.ProcessEnv = environment()): boolean {
  const named = explicit.tasks ?? explicit.org ?? env.ENTROPIC_TASKS ?? env.ENTROPIC_ORG;
  return named === undefined && !existsSync(CRMARENA_PRO_B2B.orgPath) && existsSync(CRMARENA_PRO_B2B.tasksPath);
}

/**
 * The twin set of a real task file at a seed (built, or read from the cache: src/data/twins.ts),
 * keyed by the operator's secret unless `twinOptions.key` says otherwise, opened, with a twin per
 * trial (`trialTask`). The task source records what it was built from (the key by its digest);
 * source tasks without a twin are said in the log here and in the results' data sources.
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

/** Loads a registered dataset's own files; a dataset whose files are not on this machine is refused, saying what to do. */
export async function loadDataset(spec: DatasetSpec, logger: Logger, orgOptions: OpenOrgOptions = {}, field = "config.dataset"): Promise<AssessmentData> {
  const missing = [spec.tasksPath, spec.orgPath].filter((path) => !existsSync(path));
  if (missing.length > 0) throw new DatasetChoiceError(`${field}: dataset '${spec.name}' is not available on this server (${missing.join(" and ")} missing): ${spec.whenMissing}`);
  const source = (path: string): DataSource => ({ path, kind: spec.name });
  return openData(
    { tasksPath: spec.tasksPath, orgPath: spec.orgPath, dataset: spec.name, sources: { tasks: source(spec.tasksPath), org: source(spec.orgPath) } },
    logger,
    orgOptions,
  );
}

/** The one place the org of a task set is opened: a dataset on another backend is another location given to the org factory. */
async function openData(choice: DataChoice, logger: Logger, orgOptions: OpenOrgOptions): Promise<AssessmentData> {
  const tasks = loadTaskFile(choice.tasksPath);
  const spec = datasetNamed(choice.sources.tasks.kind);
  if (spec) checkCatalogue(tasks, spec);
  const org = await openBackend(choice.orgPath, orgOptions);
  const rows = org.schema.objects.reduce((sum, object) => sum + object.rowCount, 0);
  logger.info({ tasks: choice.tasksPath, taskCount: tasks.tasks.length, org: choice.orgPath, objects: org.schema.objects.length, rows, dataset: choice.dataset }, "data loaded");
  if (choice.sources.org.kind === SAMPLE.name) {
    logger.warn(
      "USING THE BUNDLED SAMPLE ORG, not the real CRMArena-Pro org. Run `npx tsx src/cli.ts data fetch` (`entropic-crmarena data fetch` when installed) for the real benchmark.",
    );
  }
  return { tasks, org, dataset: choice.dataset, sources: choice.sources };
}

/**
 * A registered dataset's tasks are in its catalogue's categories, each with the catalogue's
 * metric: the catalogue is what scoring, the view and the baselines read, so a task file that
 * disagrees with it is refused rather than scored by two rules. (Custom task files have no
 * catalogue of their own and are taken as they are.)
 */
function checkCatalogue(tasks: TaskSet, spec: DatasetSpec): void {
  const metrics = new Map(spec.categories.map((category) => [category.name, category.metric]));
  for (const task of tasks.tasks) {
    const metric = metrics.get(task.task);
    if (metric === undefined)
      throw new Error(
        `task file ${tasks.source}: task ${task.idx}, field 'task': ${task.task} is no category of dataset ${spec.name} (its categories are ${[...metrics.keys()].join(", ")})`,
      );
    if (metric !== task.reward_metric)
      throw new Error(`task file ${tasks.source}: task ${task.idx}, field 'reward_metric': ${task.reward_metric}, but dataset ${spec.name} scores ${task.task} by ${metric}`);
  }
}

/**
 * How many twin sets a shelf keeps open with no assessment on them. Each is a full-size org
 * (about 29,000 rows) in the main process and in every query process, and a request's seed
 * chooses the set, so without a bound every seed asked for would stay in memory; a set an
 * assessment is using is never closed, and one closed is built again from the cache on demand.
 */
export const IDLE_TWIN_SETS = 2;

/**
 * The data of one server: what it started with, and every other registered dataset loaded on
 * the first request that names it (then kept for the process), so one server hosts several task
 * sets without holding those nobody asks for. The twins are one set per seed (and number of
 * trials), each built (or read from the cache) on the first request of its seed and closed again once idle beyond
 * IDLE_TWIN_SETS; a server that started on the twins serves them to every request that names no
 * dataset.
 */
export class DatasetShelf {
  // Promises, so two requests for a dataset not yet loaded share one load (the org factory may become asynchronous).
  private readonly loaded = new Map<string, Promise<AssessmentData>>();
  /** Per twin set's key: the requests holding it (given, not yet handed back with doneWith). */
  private readonly holders = new Map<string, number>();
  /** Twin set keys, least recently handed out first. */
  private recent: string[] = [];
  private readonly keyOf = new WeakMap<AssessmentData, string>();

  constructor(
    readonly initial: AssessmentData,
    private readonly logger: Logger,
    private readonly orgOptions: OpenOrgOptions = {},
    /** The real task file twins are built from (the server's --tasks / ENTROPIC_TASKS, else the fetched one). */
    private readonly twinSource: string | undefined = twinSourceFile({}),
    /** The operator's secret the twin sets are keyed by (read when a twin set is asked for). */
    private readonly twinSecret: () => string = resolveIdSecret,
  ) {}

  /**
   * The data a request's config chooses (`chooseDataset`); a choice that cannot be served throws
   * DatasetChoiceError naming the field. Twin data is held for the request until `doneWith`.
   */
  async forConfig(config: DataConfig): Promise<AssessmentData> {
    const startedOnTwins = this.initial.dataset === TWINS.name;
    const wanted = config.dataset === undefined && startedOnTwins ? { ...config, dataset: TWINS.name } : config;
    const name = chooseDataset(wanted, this.initial.dataset);
    const field = config.dataset === undefined ? "config.org_type" : "config.dataset";
    if (name === TWINS.name || (name === "default" && startedOnTwins)) {
      const seed = seedOf(config);
      const trials = config.trials ?? 1;
      const twinKey = twinKeyFor(seed, this.twinSecret());
      const initial = this.initial.sources.tasks.builtFrom;
      if (startedOnTwins && initial?.key === twinKey.digest && (initial.trials ?? 1) === trials) return this.initial;
      const source = initial?.source.path ?? this.twinSource;
      // In memory only: the cache on disk is keyed by the twin key's digest, never the seed.
      const key = `${TWINS.name}:${seed}:${trials}`;
      this.holders.set(key, (this.holders.get(key) ?? 0) + 1);
      this.recent = [...this.recent.filter((other) => other !== key), key];
      try {
        const data = await this.shelved(key, () => loadTwins(source, seed, this.logger, this.orgOptions, field, { key: twinKey, trials }));
        this.keyOf.set(data, key);
        return data;
      } catch (error) {
        this.letGo(key);
        throw error;
      }
    }
    if (name === "default") return this.initial;
    return this.shelved(name, () => loadDataset(datasetNamed(name)!, this.logger, this.orgOptions, field));
  }

  /** A request is done with data `forConfig` gave: a twin set nobody holds may now be closed (the least recently used beyond IDLE_TWIN_SETS). */
  doneWith(data: AssessmentData): void {
    const key = this.keyOf.get(data);
    if (key) this.letGo(key);
  }

  /** The twin sets open now, by seed (for tests and the log; a seed twice when it is open at two numbers of trials). */
  openTwinSeeds(): number[] {
    return [...this.loaded.keys()].filter((key) => key.startsWith(`${TWINS.name}:`)).map((key) => Number(key.split(":")[1]));
  }

  private letGo(key: string): void {
    const left = (this.holders.get(key) ?? 1) - 1;
    if (left > 0) this.holders.set(key, left);
    else this.holders.delete(key);
    const idle = this.recent.filter((candidate) => !this.holders.has(candidate) && this.loaded.has(candidate));
    for (const evicted of idle.slice(0, Math.max(0, idle.length - IDLE_TWIN_SETS))) {
      const data = this.loaded.get(evicted)!;
      this.loaded.delete(evicted);
      this.recent = this.recent.filter((candidate) => candidate !== evicted);
      this.logger.info({ twinSet: evicted }, "twin set closed: no assessment holds it, and newer ones are open (it is rebuilt from the cache on demand)");
      void data.then(
        (opened) => opened.org.close(),
        () => {},
      );
    }
  }

  private shelved(key: string, load: () => Promise<AssessmentData>): Promise<AssessmentData> {
    let data = this.loaded.get(key);
    if (!data) {
      data = Promise.resolve().then(load);
      this.loaded.set(key, data);
      // A dataset that could not be loaded is tried again by the next request (its files may have been fetched since).
      data.catch(() => this.loaded.delete(key));
    }
    return data;
  }

  /** Closes the orgs this shelf loaded; the initial data's org belongs to whoever loaded it. */
  async close(): Promise<void> {
    const opened = await Promise.allSettled(this.loaded.values());
    this.loaded.clear();
    await Promise.all(opened.flatMap((result) => (result.status === "fulfilled" ? [result.value.org.close()] : [])));
  }
}

const calibrations = new Map<string, Calibration>();

/**
 * The calibration a run on `dataset` is scored against: the dataset's own (its spec's
 * `calibrationPath`, e.g. the twins', measured from the reference analyst on twins) when it has
 * one, else the default. Each file is read once per process.
 */
export function calibrationFor(dataset: string): Calibration {
  const path = datasetNamed(dataset)?.calibrationPath ?? CALIBRATION_FILE;
  let calibration = calibrations.get(path);
  if (!calibration) {
    calibration = loadCalibration(path);
    calibrations.set(path, calibration);
  }
  return calibration;
}

/** The calibration the efficiency dimensions are measured against (data/calibration.json, written by `calibrate`). */
export function loadCalibration(path = CALIBRATION_FILE): Calibration {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`cannot read the calibration ${path}: ${(error as Error).message} (run \`entropic-crmarena calibrate\`)`);
  }
  const parsed = CalibrationSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${path} is not a calibration: ${describeIssue(firstIssue(parsed.error))}`);
  return parsed.data;
}
