import { readFileSync } from "node:fs";
import type { Logger } from "pino";
import type { DataSource, DatasetKind } from "../log/index.js";
import { type OpenOrgOptions, type OrgBackend, openBackend } from "../org/index.js";
import { type Calibration, CalibrationSchema } from "../scoring/index.js";
import { loadTaskFile, type TaskSet } from "../tasks/index.js";
import { CALIBRATION_FILE, chooseData } from "./paths.js";

/** Tasks and org, loaded, with where each came from. */
export interface LoadedData {
  readonly tasks: TaskSet;
  readonly org: OrgBackend;
  readonly dataset: DatasetKind;
  readonly sources: { readonly tasks: DataSource; readonly org: DataSource };
}

/** Loads the tasks and the org an assessment runs on, and says loudly when it is the sample. */
export async function loadAssessmentData(explicit: { tasks?: string | undefined; org?: string | undefined }, logger: Logger, orgOptions: OpenOrgOptions = {}): Promise<LoadedData> {
  const choice = chooseData(explicit);
  const tasks = loadTaskFile(choice.tasksPath);
  const org = await openBackend(choice.orgPath, orgOptions);
  const rows = org.schema.objects.reduce((sum, object) => sum + object.rowCount, 0);
  logger.info({ tasks: choice.tasksPath, taskCount: tasks.tasks.length, org: choice.orgPath, objects: org.schema.objects.length, rows, dataset: choice.dataset }, "data loaded");
  if (choice.sources.org.kind === "sample") {
    logger.warn("USING THE BUNDLED SAMPLE ORG, not the real CRMArena-Pro org. Run `entropic-crmarena data fetch` for the real benchmark.");
  }
  return { tasks, org, dataset: choice.dataset, sources: choice.sources };
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
