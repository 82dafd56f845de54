import { existsSync } from "node:fs";
import type { Logger } from "pino";
import { type AssessmentData, parseConfig } from "../assessment/index.js";
import { CRMARENA_PRO_B2B, chooseDataset, DatasetChoiceError, type DatasetSpec, datasetNamed, SAMPLE, TWINS } from "../datasets/index.js";
import type { DataSource } from "../log/index.js";
import { type OpenOrgOptions, openBackend } from "../org/index.js";
import { loadTaskFile, type TaskRecord, type TaskSet } from "../tasks/index.js";
import { environment } from "../util/index.js";
import { chooseData, type DataChoice } from "./paths.js";
import { type TwinSetOptions, twinSet, twinSourceFile } from "./twins.js";

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
/** The seed a config runs at: its own, else the config default. */
export const seedOf = (config: DataConfig) => config.seed ?? parseConfig({}).config.seed;

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
