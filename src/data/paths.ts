import { existsSync } from "node:fs";
import { CACHE_DIR, CRMARENA_PRO_B2B, CUSTOM_DATASET, DATA_DIR, datasetNamed, datasets, FILE_DATASETS, SAMPLE } from "../datasets/index.js";
import type { DataSource, DatasetKind } from "../log/index.js";
import { environment } from "../util/index.js";

export { CACHE_DIR, DATA_DIR };
export const SAMPLE_ORG_DIR = SAMPLE.orgPath;
export const SAMPLE_TASKS_FILE = SAMPLE.tasksPath;
export const REAL_TASKS_FILE = CRMARENA_PRO_B2B.tasksPath;
export const REAL_ORG_FILE = CRMARENA_PRO_B2B.orgPath;

export const CALIBRATION_FILE = `${DATA_DIR}calibration.json`;

export interface DataChoice {
  readonly tasksPath: string;
  readonly orgPath: string;
  readonly dataset: DatasetKind;
  readonly sources: { readonly tasks: DataSource; readonly org: DataSource };
}

/**
 * Picks the data a server or command starts with: explicit paths (flags, then ENTROPIC_TASKS /
 * ENTROPIC_ORG), else the first built-in dataset whose file is there (the real CRMArena-Pro files
 * fetched into data/cache/, else the bundled sample), each half on its own.
 */
export function chooseData(explicit: { tasks?: string | undefined; org?: string | undefined } = {}, env: NodeJS.ProcessEnv = environment()): DataChoice {
  const present = (path: (spec: (typeof FILE_DATASETS)[number]) => string) => path(FILE_DATASETS.find((spec) => existsSync(path(spec))) ?? SAMPLE);
  const tasksPath = explicit.tasks ?? env.ENTROPIC_TASKS ?? present((spec) => spec.tasksPath);
  const orgPath = resolveOrgAlias(explicit.org ?? env.ENTROPIC_ORG ?? present((spec) => spec.orgPath));
  const tasks: DataSource = { path: tasksPath, kind: datasets().find((spec) => spec.tasksPath === tasksPath)?.name ?? CUSTOM_DATASET };
  const org: DataSource = { path: orgPath, kind: datasets().find((spec) => spec.orgPath === orgPath)?.name ?? CUSTOM_DATASET };
  // The pair is the dataset only when both halves are; any other mix is custom (and checked before it runs).
  const dataset: DatasetKind = tasks.kind === org.kind ? tasks.kind : CUSTOM_DATASET;
  return { tasksPath, orgPath, dataset, sources: { tasks, org } };
}

/** A registered dataset's name (the sample's, say) names its org wherever an org path is expected. */
export function resolveOrgAlias(path: string): string {
  return datasetNamed(path)?.orgPath ?? path;
}
