import type { DataCheck } from "../log/index.js";
import type { OrgBackend } from "../org/index.js";
import type { TaskRecord } from "../tasks/index.js";
import { EntropicError, type ErrorDetails, idsIn } from "../util/index.js";

/** Share of the Ids the tasks name that may be missing from the org before the pairing is refused. */
export const MISSING_ID_TOLERANCE = 0.05;

export type { DataCheck } from "../log/index.js";

/** Tasks and org that do not belong together: the message says what is missing and how to get it. */
export class DataMismatchError extends EntropicError {
  override readonly name = "DataMismatchError";
  constructor(message: string, details?: ErrorDetails) {
    super("data", message, details);
  }
}

/** The Ids a task names, found once per task: every request checks its selection (twice). */
const idsByTask = new WeakMap<TaskRecord, readonly string[]>();

function namedIds(task: TaskRecord): readonly string[] {
  let ids = idsByTask.get(task);
  if (!ids) {
    ids = idsIn([task.query, task.metadata.required, ...task.answer.map((item) => item ?? "")].join("\n"));
    idsByTask.set(task, ids);
  }
  return ids;
}

/**
 * Do the records the selected tasks name (Ids in their query, context and ground truth) exist in
 * the org? The real CRMArena-Pro tasks on the bundled sample org name 1,363 ground-truth records of
 * which none exists there: no agent could solve them. Unless `allowMismatch` (recorded in the
 * results), more than MISSING_ID_TOLERANCE of them missing is refused.
 */
export async function checkDataMatch(tasks: readonly TaskRecord[], org: Pick<OrgBackend, "recordIds">, allowMismatch: boolean): Promise<DataCheck> {
  const live = await org.recordIds();
  const referenced = new Map<string, number>();
  for (const task of tasks) for (const id of namedIds(task)) if (!referenced.has(id)) referenced.set(id, task.idx);
  const missing = [...referenced].filter(([id]) => !live.has(id));
  const check: DataCheck = {
    referencedIds: referenced.size,
    missingIds: missing.length,
    examples: missing.slice(0, 3).map(([id, idx]) => `${id} (task ${idx})`),
    allowedMismatch: allowMismatch,
  };
  if (!allowMismatch && referenced.size > 0 && missing.length / referenced.size > MISSING_ID_TOLERANCE) {
    throw new DataMismatchError(
      `the tasks and the org do not belong together: ${missing.length} of the ${referenced.size} records the selected tasks name are not in the org (e.g. ${check.examples.join(", ")}), so no agent could solve them. ` +
        "Run `npx tsx src/cli.ts data fetch` (`entropic-crmarena data fetch` when installed) to download the CRMArena-Pro org that the real tasks need (or pass a matching --org), " +
        "or set config allow_data_mismatch: true to run anyway (throughput benchmarks with the oracle; recorded in the results).",
    );
  }
  return check;
}
