import type { TaskRecord, TaskSet } from "../tasks/index.js";
import { IdRemap } from "../util/index.js";
import type { Strategy } from "./server.js";

export const REFUSAL = "I'm sorry, but I cannot share that: it is private or confidential information.";

/**
 * Answers from the ground truth: a perfect answerer, for checking that scoring gives full
 * marks and for measuring the green agent's own throughput.
 *
 * It is a white-box reference, not a purple anyone could field: when the run remaps record Ids
 * (a sandbox refresh), the task id it is shown is opaque and the ground truth's Ids are not the
 * dataset's, so the oracle holds what only the green agent holds, the remap's key (the seed it
 * is shown plus the operator's ENTROPIC_ID_SECRET of this process, or `secret`).
 */
export function oracleStrategy(tasks: TaskSet, options: { secret?: string } = {}): Strategy {
  const episodes = new Map<number, { remap: IdRemap; byEpisode: Map<string, TaskRecord> }>();
  const forSeed = (seed: number) => {
    let known = episodes.get(seed);
    if (!known) {
      const remap = IdRemap.forRun(seed, options.secret ?? process.env.ENTROPIC_ID_SECRET ?? "");
      known = { remap, byEpisode: new Map(tasks.tasks.map((task) => [remap.episodeId(task.idx), task])) };
      episodes.set(seed, known);
    }
    return known;
  };
  return async (task) => {
    let record = /^\d+$/.test(task.taskId) ? tasks.byIdx.get(Number(task.taskId)) : undefined;
    let answer = record?.answer;
    if (!record) {
      const seed = (task.data.entropy as { seed?: unknown } | undefined)?.seed;
      if (typeof seed !== "number") return "None";
      const { remap, byEpisode } = forSeed(seed);
      record = byEpisode.get(task.taskId);
      answer = record ? remap.answer(record.answer) : undefined;
    }
    if (!record || !answer) return "None";
    if (record.reward_metric === "privacy_rejection") return REFUSAL;
    return answer.map((item) => item ?? "None").join(", ");
  };
}
