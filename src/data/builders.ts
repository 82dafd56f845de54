import type { AssessmentData } from "../assessment/index.js";
import { type DatasetSpec, datasetNamed, registerDataset } from "../datasets/index.js";
import { environment, NamedRegistry } from "../util/index.js";
import { builtCacheDir, type DatasetBuild, type DatasetBuilder } from "./builder.js";
import { TWINS_BUILDER } from "./twins.js";

/**
 * The builders of the datasets that build their own tasks and org, keyed by dataset name. They
 * live here, a floor above the dataset registry: src/datasets/ stays pure (scoring, the log and
 * the view read its catalogues), while a builder may reach the generators (src/twins/,
 * src/sample/), the org factory and the disk.
 */
const registry = new NamedRegistry<DatasetBuilder>("dataset builder", [TWINS_BUILDER]);

/** The builder of a dataset, when it builds its own data (else its spec names its files). */
export function builderFor(dataset: string): DatasetBuilder | undefined {
  return registry.named(dataset);
}

/** The datasets that build their own data, by name, in registration order. */
export const builtDatasets = (): string[] => registry.names();

/** Adds the builder of a registered dataset; returns its removal. */
export function registerDatasetBuilder(builder: DatasetBuilder): () => void {
  if (!datasetNamed(builder.name)) throw new Error(`dataset builder ${builder.name}: no dataset of that name is registered (src/datasets/)`);
  return registry.register(builder);
}

/**
 * Adds a dataset that builds its own data, its spec (the dataset registry's checks) and its
 * builder in one call: a new built dataset is its folder and this one line. Returns the removal of both.
 */
export function registerBuiltDataset(spec: DatasetSpec, builder: Omit<DatasetBuilder, "name">): () => void {
  const unregisterSpec = registerDataset(spec);
  try {
    const unregisterBuilder = registerDatasetBuilder({ ...builder, name: spec.name });
    return () => {
      unregisterBuilder();
      unregisterSpec();
    };
  } catch (error) {
    unregisterSpec();
    throw error;
  }
}

/** The task file the operator named (--tasks, else ENTROPIC_TASKS), which a dataset built from a task file builds from. */
export const namedTasksFile = (explicit: { tasks?: string | undefined }, env: NodeJS.ProcessEnv = environment()): string | undefined => explicit.tasks ?? env.ENTROPIC_TASKS;

/**
 * The built dataset a server or command runs when the operator names no data (no --tasks / --org,
 * no ENTROPIC_TASKS / ENTROPIC_ORG): the first whose builder says it is the default world then
 * (the twins, when the real task file is fetched and the real org is not); else none, and the
 * data is `chooseData`'s.
 */
export function offlineDefault(explicit: { tasks?: string | undefined; org?: string | undefined }, env: NodeJS.ProcessEnv = environment()): string | undefined {
  const named = explicit.tasks ?? explicit.org ?? env.ENTROPIC_TASKS ?? env.ENTROPIC_ORG;
  if (named !== undefined) return undefined;
  return registry.all().find((builder) => builder.isOfflineDefault?.() === true)?.name;
}

/** Builds (or reads from its cache) a set of a built dataset, in its own cache folder unless `build.cacheDir` names another. */
export function buildDataset(dataset: string, build: Omit<DatasetBuild, "cacheDir"> & { readonly cacheDir?: string }): Promise<AssessmentData> {
  const builder = builderFor(dataset);
  if (!builder) throw new Error(`dataset ${dataset} names its files: it has no builder`);
  return builder.build({ ...build, cacheDir: build.cacheDir ?? builtCacheDir(dataset) });
}
