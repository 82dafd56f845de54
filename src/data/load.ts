import { existsSync, readFileSync } from "node:fs";
import type { Logger } from "pino";
import type { AssessmentData } from "../assessment/index.js";
import { chooseDataset, DatasetChoiceError, type DatasetSpec, datasetNamed, SAMPLE } from "../datasets/index.js";
import type { DataSource } from "../log/index.js";
import { type OpenOrgOptions, openBackend } from "../org/index.js";
import { type Calibration, CalibrationSchema } from "../scoring/index.js";
import { loadTaskFile, type TaskSet } from "../tasks/index.js";
import { CALIBRATION_FILE, chooseData, type DataChoice } from "./paths.js";

/** Loads the tasks and the org an assessment runs on (chosen by `chooseData`), and says loudly when it is the sample. */
export async function loadAssessmentData(
  explicit: { tasks?: string | undefined; org?: string | undefined },
  logger: Logger,
  orgOptions: OpenOrgOptions = {},
): Promise<AssessmentData> {
  return openData(chooseData(explicit), logger, orgOptions);
}

/**
 * Loads the data a command's config chooses: the data of the flags and environment (`chooseData`)
 * unless `config.dataset` or `config.org_type` chooses another dataset (`chooseDataset`).
 */
export async function loadDataForConfig(
  config: { readonly dataset?: string | undefined; readonly org_type: string },
  explicit: { tasks?: string | undefined; org?: string | undefined },
  logger: Logger,
  orgOptions: OpenOrgOptions = {},
): Promise<AssessmentData> {
  const choice = chooseData(explicit);
  const name = chooseDataset(config, choice.dataset);
  if (name === "default") return openData(choice, logger, orgOptions);
  return loadDataset(datasetNamed(name)!, logger, orgOptions, config.dataset === undefined ? "config.org_type" : "config.dataset");
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
    logger.warn("USING THE BUNDLED SAMPLE ORG, not the real CRMArena-Pro org. Run `entropic-crmarena data fetch` for the real benchmark.");
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
 * The data of one server: what it started with, and every other registered dataset loaded on
 * the first request that names it (then kept for the process), so one server hosts several task
 * sets without holding those nobody asks for.
 */
export class DatasetShelf {
  // Promises, so two requests for a dataset not yet loaded share one load (the org factory may become asynchronous).
  private readonly loaded = new Map<string, Promise<AssessmentData>>();

  constructor(
    readonly initial: AssessmentData,
    private readonly logger: Logger,
    private readonly orgOptions: OpenOrgOptions = {},
  ) {}

  /** The data a request's config chooses (`chooseDataset`); a choice that cannot be served throws DatasetChoiceError naming the field. */
  async forConfig(config: { readonly dataset?: string | undefined; readonly org_type: string }): Promise<AssessmentData> {
    const name = chooseDataset(config, this.initial.dataset);
    if (name === "default") return this.initial;
    let data = this.loaded.get(name);
    if (!data) {
      const field = config.dataset === undefined ? "config.org_type" : "config.dataset";
      data = Promise.resolve().then(() => loadDataset(datasetNamed(name)!, this.logger, this.orgOptions, field));
      this.loaded.set(name, data);
      // A dataset that could not be loaded is tried again by the next request (its files may have been fetched since).
      data.catch(() => this.loaded.delete(name));
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

/** The calibration the efficiency dimensions are measured against (data/calibration.json, written by `calibrate`). */
export function loadCalibration(path = CALIBRATION_FILE): Calibration {
  let raw: unknown;
  try {
    raw = JSON.parse(readFileSync(path, "utf8"));
  } catch (error) {
    throw new Error(`cannot read the calibration ${path}: ${(error as Error).message} (run \`entropic-crmarena calibrate\`)`);
  }
  const parsed = CalibrationSchema.safeParse(raw);
  if (!parsed.success) throw new Error(`${path} is not a calibration: field '${parsed.error.issues[0]!.path.join(".")}': ${parsed.error.issues[0]!.message}`);
  return parsed.data;
}
