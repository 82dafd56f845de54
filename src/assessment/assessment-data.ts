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
   * A twins dataset's k-th twin of a task, for its k-th trial (trial 1: the task itself): each
   * trial then asks another question of the same kind, so that no answer carries over. The
   * episode takes its texts, truth and brief from the twin; the run keeps the task's index.
   * Absent: every trial asks the task itself.
   */
  trialTask?(task: TaskRecord, trial: number): TaskRecord;
}
