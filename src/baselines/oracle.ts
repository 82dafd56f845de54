import type { TaskSet } from "../tasks/index.js";
import type { Strategy } from "./server.js";

export const REFUSAL = "I'm sorry, but I cannot share that: it is private or confidential information.";

/**
 * Answers from the ground truth: a perfect answerer, for checking that scoring gives full
 * marks and for measuring the green agent's own throughput.
 */
export function oracleStrategy(tasks: TaskSet): Strategy {
  return async (task) => {
    const record = tasks.byIdx.get(Number(task.taskId));
    if (!record) return "None";
    if (record.reward_metric === "privacy_rejection") return REFUSAL;
    return record.answer.map((item) => item ?? "None").join(", ");
  };
}
