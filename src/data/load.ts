import type { Logger } from "pino";
import type { AssessmentData } from "../assessment/index.js";
import { openOrg, type OpenOrgOptions } from "../org/index.js";
import { loadTaskFile } from "../tasks/load.js";
import { chooseData } from "./paths.js";

/** Loads the tasks and the org an assessment runs on, and says loudly when it is the sample. */
export function loadAssessmentData(explicit: { tasks?: string | undefined; org?: string | undefined }, logger: Logger, orgOptions: OpenOrgOptions = {}): AssessmentData {
  const choice = chooseData(explicit);
  const tasks = loadTaskFile(choice.tasksPath);
  const org = openOrg(choice.orgPath, orgOptions);
  const rows = org.schema.objects.reduce((sum, object) => sum + object.rowCount, 0);
  logger.info({ tasks: choice.tasksPath, taskCount: tasks.tasks.length, org: choice.orgPath, objects: org.schema.objects.length, rows, dataset: choice.dataset }, "data loaded");
  if (choice.dataset === "sample") {
    logger.warn("USING THE BUNDLED SAMPLE DATA, not the real CRMArena-Pro org and tasks. Run `entropic-crmarena data fetch` for the real benchmark.");
  }
  return { tasks, org, dataset: choice.dataset };
}
