import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";
import type { DataSource, DatasetKind } from "../log/index.js";

/** The package's data folder (the same relative place from `src/` and from `dist/`). */
export const DATA_DIR = fileURLToPath(new URL("../../data/", import.meta.url));
export const CACHE_DIR = `${DATA_DIR}cache/`;
export const SAMPLE_ORG_DIR = `${DATA_DIR}sample/org`;
export const SAMPLE_TASKS_FILE = `${DATA_DIR}sample/tasks.json`;
export const REAL_TASKS_FILE = `${CACHE_DIR}tasks_b2b.json`;
export const REAL_ORG_FILE = `${CACHE_DIR}crmarenapro_b2b_data.db`;

export const CALIBRATION_FILE = `${DATA_DIR}calibration.json`;

export interface DataChoice {
  readonly tasksPath: string;
  readonly orgPath: string;
  readonly dataset: DatasetKind;
  readonly sources: { readonly tasks: DataSource; readonly org: DataSource };
}

/**
 * Picks the data to run on: explicit paths (flags, then ENTROPIC_TASKS / ENTROPIC_ORG), else
 * the real CRMArena-Pro files fetched into data/cache/, else the bundled sample.
 */
export function chooseData(explicit: { tasks?: string | undefined; org?: string | undefined } = {}, env: NodeJS.ProcessEnv = process.env): DataChoice {
  const tasksPath = explicit.tasks ?? env.ENTROPIC_TASKS ?? (existsSync(REAL_TASKS_FILE) ? REAL_TASKS_FILE : SAMPLE_TASKS_FILE);
  const orgPath = resolveOrgAlias(explicit.org ?? env.ENTROPIC_ORG ?? (existsSync(REAL_ORG_FILE) ? REAL_ORG_FILE : SAMPLE_ORG_DIR));
  const tasks: DataSource = { path: tasksPath, kind: tasksPath === REAL_TASKS_FILE ? "crmarena-pro-b2b" : tasksPath === SAMPLE_TASKS_FILE ? "sample" : "custom" };
  const org: DataSource = { path: orgPath, kind: orgPath === REAL_ORG_FILE ? "crmarena-pro-b2b" : orgPath === SAMPLE_ORG_DIR ? "sample" : "custom" };
  // The pair is the dataset only when both halves are; any other mix is custom (and checked before it runs).
  const dataset: DatasetKind = tasks.kind === org.kind ? tasks.kind : "custom";
  return { tasksPath, orgPath, dataset, sources: { tasks, org } };
}

/** `sample` names the bundled org wherever a path is expected. */
export function resolveOrgAlias(path: string): string {
  return path === "sample" ? SAMPLE_ORG_DIR : path;
}
