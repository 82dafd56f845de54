import type { DataSource, DatasetKind } from "../log/index.js";
import type { OrgBackend } from "../org/index.js";
import type { TaskSet } from "../tasks/index.js";

/** The world an assessment runs in: tasks and the hosted org, with where each came from (data/ loads it). */
export interface AssessmentData {
  readonly tasks: TaskSet;
  readonly org: OrgBackend;
  readonly dataset: DatasetKind;
  readonly sources: { readonly tasks: DataSource; readonly org: DataSource };
}
