import { describeIssue, firstIssue } from "../util/index.js";
import type { CategorySpec } from "./catalogue.js";
import { CRMARENA_PRO_B2B } from "./crmarena-pro-b2b/index.js";
import { CRMARENA_PRO_B2B_INTERACTIVE } from "./crmarena-pro-b2b-interactive/index.js";
import { SAMPLE } from "./sample/index.js";
import { type DatasetSpec, DatasetSpecSchema } from "./spec.js";
import { TWINS } from "./twins/index.js";

/** The built-in datasets whose files are on disk (fetched or bundled); the first is the benchmark itself. */
export const FILE_DATASETS: readonly DatasetSpec[] = [CRMARENA_PRO_B2B, SAMPLE, CRMARENA_PRO_B2B_INTERACTIVE];

/**
 * The built-in datasets. A new task set is a folder here and a line in this list. The twins are
 * built at run time from a real task file (src/data/twins.ts), so they are no file dataset.
 */
export const BUILT_IN_DATASETS: readonly DatasetSpec[] = [...FILE_DATASETS, TWINS];

/**
 * What the logs call data given by explicit paths (flags, ENTROPIC_TASKS / ENTROPIC_ORG) that are
 * no registered dataset's files, or a mix of two datasets' files.
 */
export const CUSTOM_DATASET = "custom";

const registered: DatasetSpec[] = [...BUILT_IN_DATASETS];

/** Every dataset this process knows, built-in first. */
export function datasets(): readonly DatasetSpec[] {
  return registered;
}

export function datasetNamed(name: string): DatasetSpec | undefined {
  return registered.find((spec) => spec.name === name);
}

/** The names a log's `data.dataset` may carry: every registered dataset's, and custom. */
export function datasetKinds(): string[] {
  return [...registered.map((spec) => spec.name), CUSTOM_DATASET];
}

/**
 * The spec of a category, from whichever registered catalogue has it. Two datasets that share a
 * category name share its spec (registration refuses a conflict), so the name is enough for the
 * scorer; a category no catalogue knows (a custom task file's) has none.
 */
export function categorySpec(category: string): CategorySpec | undefined {
  for (const spec of registered) {
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
  registered.push(parsed.data);
  return () => {
    const at = registered.indexOf(parsed.data);
    if (at >= 0) registered.splice(at, 1);
  };
}

const sameSpec = (a: CategorySpec, b: CategorySpec) =>
  a.metric === b.metric &&
  a.entityKind === b.entityKind &&
  a.externalFacing === b.externalFacing &&
  a.labels === b.labels &&
  a.noneRate === b.noneRate &&
  a.calibrationKey === b.calibrationKey;
