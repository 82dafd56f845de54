import type { Logger } from "pino";
import { type AssessmentData, parseConfig } from "../assessment/index.js";
import { chooseDataset, DatasetChoiceError, datasetCalled, datasetNamed } from "../datasets/index.js";
import type { OpenOrgOptions } from "../org/index.js";
import type { DatasetBuild } from "./builder.js";
import { buildDataset, builderFor, namedTasksFile, offlineDefault } from "./builders.js";
import { resolveIdSecret } from "./id-secret.js";
import { loadDataset, openData } from "./open.js";
import { chooseData } from "./paths.js";

/** Loads the tasks and the org an assessment runs on (chosen by `chooseData`), and says loudly when it is the sample. */
export async function loadAssessmentData(
  explicit: { tasks?: string | undefined; org?: string | undefined },
  logger: Logger,
  orgOptions: OpenOrgOptions = {},
): Promise<AssessmentData> {
  return openData(chooseData(explicit), logger, orgOptions);
}

/** What chooses a command's data: the config's dataset, org type, seed (the seed a built set is built for; the config's default when absent) and trials (a built set may have a task per trial). */
export interface DataConfig {
  readonly dataset?: string | undefined;
  readonly org_type: string;
  readonly seed?: number | undefined;
  readonly trials?: number | undefined;
}

/** The seed a config runs at: its own, else the config default. */
export const seedOf = (config: DataConfig) => config.seed ?? parseConfig({}).config.seed;

/**
 * Loads the data a command's config chooses: the data of the flags and environment (`chooseData`)
 * unless `config.dataset` or `config.org_type` chooses another dataset (`chooseDataset`). A
 * dataset that builds its own data (config.dataset, or the default offline world:
 * `offlineDefault`) is built for `config.seed` and `config.trials`, keyed by the operator's
 * secret, from the task file the flags and environment name.
 */
export async function loadDataForConfig(
  config: DataConfig,
  explicit: { tasks?: string | undefined; org?: string | undefined },
  logger: Logger,
  orgOptions: OpenOrgOptions = {},
): Promise<AssessmentData> {
  const choice = chooseData(explicit);
  const byDefault = config.dataset === undefined ? offlineDefault(explicit) : undefined;
  const name = chooseDataset(byDefault ? { ...config, dataset: byDefault } : config, choice.dataset);
  const field = config.dataset === undefined ? "config.org_type" : "config.dataset";
  if (builderFor(name) && explicit.org !== undefined)
    throw new DatasetChoiceError(`${field}: dataset '${name}' brings its own org (built with its tasks), so --org ${explicit.org} would not be used: drop it`);
  if (builderFor(name))
    return buildDataset(
      name,
      commandBuild(explicit, logger, orgOptions, { seed: seedOf(config), trials: config.trials ?? 1, field: byDefault ? `the default data (${name})` : field }),
    );
  if (name === "default") return openData(choice, logger, orgOptions);
  return loadDataset(datasetNamed(name)!, logger, orgOptions, field);
}

/**
 * The data a server starts on: `dataset` (--dataset), else the default offline world
 * (`offlineDefault`), else the flags' and environment's (`chooseData`). A built dataset starts at
 * the config's default seed, one trial; a request of another seed gets its own set (DatasetShelf).
 */
export async function loadStartingData(
  dataset: string | undefined,
  explicit: { tasks?: string | undefined; org?: string | undefined },
  logger: Logger,
  orgOptions: OpenOrgOptions = {},
): Promise<AssessmentData> {
  const name = dataset ?? offlineDefault(explicit);
  if (name === undefined) return loadAssessmentData(explicit, logger, orgOptions);
  const spec = datasetCalled(name, "--dataset");
  const field = dataset === undefined ? `the default data (${name})` : "--dataset";
  if (builderFor(name)) return buildDataset(name, commandBuild(explicit, logger, orgOptions, { seed: seedOf({ org_type: spec.orgType }), trials: 1, field }));
  return loadDataset(spec, logger, orgOptions, field);
}

/** A set a command or a server's start builds: keyed by the operator's secret, from the task file the flags and environment name. */
function commandBuild(
  explicit: { tasks?: string | undefined },
  logger: Logger,
  orgOptions: OpenOrgOptions,
  set: Pick<DatasetBuild, "seed" | "trials" | "field">,
): Omit<DatasetBuild, "cacheDir"> {
  return { ...set, secret: resolveIdSecret(), tasksFile: namedTasksFile(explicit), logger, orgOptions };
}
