import type { DataSource, DatasetKind } from "../log/index.js";
import type { OrgBackend } from "../org/index.js";
import type { TaskRecord, TaskSet } from "../tasks/index.js";

/** The world an assessment runs in: tasks and the hosted org, with where each came from (data/ loads it). */
export interface AssessmentData {
  readonly tasks: TaskSet;
  readonly org: OrgBackend;
  readonly dataset: DatasetKind;
  readonly sources: { readonly tasks: DataSource; readonly org: DataSource };
  /**
   * The task a trial of `task` plays, when the data has a task of its own per trial (the twins:
   * trial k is the task's k-th twin, same idx, its own entities and answer, on the same org);
   * trial 1 is `task` itself. Absent: every trial replays `task`.
   */
  readonly trialTask?: (task: TaskRecord, trial: number) => TaskRecord;
}
