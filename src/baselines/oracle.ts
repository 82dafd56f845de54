import type { TaskRecord, TaskSet } from "../tasks/index.js";
import { environment, IdRemap } from "../util/index.js";
import type { Strategy } from "./server.js";

export const REFUSAL = "I'm sorry, but I cannot share that: it is private or confidential information.";

/** The seeds the oracle tries when it is not told the run's: the default first, then upwards. */
const SEEDS_TRIED = [42, ...Array.from({ length: 100 }, (_, seed) => seed).filter((seed) => seed !== 42)];

/**
 * Answers from the ground truth: a perfect answerer, for checking that scoring gives full
 * marks and for measuring the green agent's own throughput.
 *
 * It is a white-box reference, not a purple anyone could field: when the run remaps record Ids
 * (a sandbox refresh), the task id it is shown is opaque and the ground truth's Ids are not the
 * dataset's, so the oracle holds what only the green agent holds, the remap's key (the run's
 * seed, which the crm_task does not show: `seeds` when given, else it tries seeds from 0 to 99
 * until one names the task id; and the operator's ENTROPIC_ID_SECRET of this process, or
 * `secret`). It knows each task's first episode only: a later trial or a paired run's clean
 * episode has ids and Ids of its own, and the oracle answers None there.
 */
export function oracleStrategy(tasks: TaskSet, options: { secret?: string; seeds?: readonly number[] } = {}): Strategy {
  const secret = options.secret ?? environment().ENTROPIC_ID_SECRET ?? "";
  const byEpisode = new Map<string, { remap: IdRemap; task: TaskRecord }>();
  const untried = [...(options.seeds ?? SEEDS_TRIED)];
  const find = (taskId: string) => {
    while (!byEpisode.has(taskId) && untried.length > 0) {
      const remap = IdRemap.forRun(untried.shift()!, secret);
      for (const task of tasks.tasks) byEpisode.set(remap.episodeId(task.idx), { remap, task });
    }
    return byEpisode.get(taskId);
  };
  return async (task) => {
    let record = /^\d+$/.test(task.taskId) ? tasks.byIdx.get(Number(task.taskId)) : undefined;
    let answer = record?.answer;
    if (!record) {
      const found = find(task.taskId);
      record = found?.task;
      answer = found ? found.remap.answer(found.task.answer) : undefined;
    }
    if (!record || !answer) return "None";
    if (record.reward_metric === "privacy_rejection") return REFUSAL;
    return answer.map((item) => item ?? "None").join(", ");
  };
}
