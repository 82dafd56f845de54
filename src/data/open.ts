import { existsSync } from "node:fs";
import type { Logger } from "pino";
import type { AssessmentData } from "../assessment/index.js";
import { DatasetChoiceError, type DatasetSpec, datasetNamed, SAMPLE } from "../datasets/index.js";
import type { DataSource } from "../log/index.js";
import { type OpenOrgOptions, openBackend } from "../org/index.js";
import { loadTaskFile, type TaskSet } from "../tasks/index.js";
import type { DataChoice } from "./paths.js";

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

/**
 * The one place the org of a task set is opened: a dataset on another backend is another location
 * given to the org factory. A dataset that builds its own files (src/data/builders.ts) opens what
 * it built here too, so its tasks are checked against its catalogue like any other's.
 */
export async function openData(choice: DataChoice, logger: Logger, orgOptions: OpenOrgOptions): Promise<AssessmentData> {
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
