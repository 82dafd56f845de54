import { describeIssue, firstIssue, NamedRegistry } from "../util/index.js";
import type { CategorySpec } from "./catalogue.js";
import { CRMARENA_PRO_B2B } from "./crmarena-pro-b2b/index.js";
import { CRMARENA_PRO_B2B_INTERACTIVE } from "./crmarena-pro-b2b-interactive/index.js";
import { SAMPLE } from "./sample/index.js";
import { type DatasetSpec, DatasetSpecSchema } from "./spec.js";
import { TWINS } from "./twins/index.js";

/** The built-in datasets whose files are on disk (fetched or bundled); the first is the benchmark itself. */
export const FILE_DATASETS: readonly DatasetSpec[] = [CRMARENA_PRO_B2B, SAMPLE, CRMARENA_PRO_B2B_INTERACTIVE];

/**
 * The built-in datasets. A new task set is a folder here and a line in this list. The twins build
 * their tasks and org at run time from a real task file (their builder is registered by name in
 * src/data/builders.ts), so they are no file dataset.
 */
export const BUILT_IN_DATASETS: readonly DatasetSpec[] = [...FILE_DATASETS, TWINS];

/**
 * What the logs call data given by explicit paths (flags, ENTROPIC_TASKS / ENTROPIC_ORG) that are
 * no registered dataset's files, or a mix of two datasets' files.
 */
export const CUSTOM_DATASET = "custom";

const registry = new NamedRegistry<DatasetSpec>("dataset");

/** Every dataset this process knows, built-in first. */
export function datasets(): readonly DatasetSpec[] {
  return registry.all();
}

export function datasetNamed(name: string): DatasetSpec | undefined {
  return registry.named(name);
}

/** The names a log's `data.dataset` may carry: every registered dataset's, and custom. */
export function datasetKinds(): string[] {
  return [...registry.names(), CUSTOM_DATASET];
}

/**
 * The spec of a category: in `dataset`'s catalogue when it is given, else in whichever registered
 * catalogue has it. Two datasets that share a category name share its spec (every registration,
 * the built-ins' too, refuses a conflict: a B2C catalogue cannot reuse a B2B name with another
 * metric and be scored by B2B's), so the name is enough for the scorer; a category no catalogue
 * knows (a custom task file's) has none.
 */
export function categorySpec(category: string, dataset?: string): CategorySpec | undefined {
  for (const spec of dataset === undefined ? registry.all() : [datasetNamed(dataset)].filter((found) => found !== undefined)) {
    const found = spec.categories.find((entry) => entry.name === category);
    if (found) return found;
  }
  return undefined;
}

/** The org type of data with no dataset of its own (custom paths): the benchmark's, as before datasets were registered. */
export const CUSTOM_ORG_TYPE = BUILT_IN_DATASETS[0]!.orgType;

/**
 * Adds a dataset (one folder and this one call, e.g. a test's toy set); returns its removal. The
 * spec is validated; a name already taken, or a category already registered with another spec,
 * is refused.
 */
export function registerDataset(spec: DatasetSpec): () => void {
  const parsed = DatasetSpecSchema.safeParse(spec);
  if (!parsed.success) throw new Error(`dataset ${spec.name}: ${describeIssue(firstIssue(parsed.error))}`);
  if (datasetNamed(spec.name) || spec.name === CUSTOM_DATASET) throw new Error(`dataset ${spec.name} is already registered`);
  for (const category of parsed.data.categories) {
    const known = categorySpec(category.name);
    if (known && !sameSpec(known, category)) throw new Error(`dataset ${spec.name}: category ${category.name} is registered with another spec`);
  }
  return registry.register(parsed.data);
}

const sameSpec = (a: CategorySpec, b: CategorySpec) =>
  a.metric === b.metric &&
  a.entityKind === b.entityKind &&
  a.externalFacing === b.externalFacing &&
  a.labels === b.labels &&
  a.noneRate === b.noneRate &&
  a.calibrationKey === b.calibrationKey;

// The built-ins are registered as any other dataset is, through the same checks.
for (const spec of BUILT_IN_DATASETS) registerDataset(spec);
