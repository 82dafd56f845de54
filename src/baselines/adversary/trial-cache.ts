import { createHash } from "node:crypto";
import type { Strategy, TaskInfo } from "../server.js";
import { promptKey } from "./detect.js";

/**
 * Trials: a flaky solver, and the same with a cache. A task's trials should be independent
 * draws; a purple that answers a later trial with its first trial's answer (same id or same
 * prompt) makes them one draw, and pass^k becomes pass@1. On twins whose k-th trial is the
 * task's k-th twin (another prompt, another id) the cache finds nothing and pass^k stands.
 */

/** The wrong answer a flaky episode gives instead of its base's. */
const wrongFor = (answer: string) => (answer.trim() === "None" ? "42" : "None");

/** The share of episodes whose answer a seeded hash of (task id, prompt, occurrence) picks: [0, 1). */
const draw = (salt: string, key: string) => createHash("sha256").update(`${salt}\n${key}`).digest().readUInt32BE(0) / 2 ** 32;

/**
 * The base, with its answer replaced by a wrong one in `rate` of episodes: which ones is a seeded
 * hash of the task id, the prompt and how many times this purple has seen that pair (so each trial
 * draws anew even when trials share their id and prompt).
 */
export function flakyStrategy(base: Strategy, rate = 0.3, salt = "flaky"): Strategy {
  const seen = new Map<string, number>();
  return async (task, tools) => {
    const key = `${task.taskId}\n${promptKey(task)}`;
    const occurrence = (seen.get(key) ?? 0) + 1;
    seen.set(key, occurrence);
    const answer = await base(task, tools);
    return draw(salt, `${key}\n${occurrence}`) < rate ? wrongFor(answer) : answer;
  };
}

/**
 * The flaky base with a cache: the first episode of a task id or prompt runs the base; every later
 * one with the same id or prompt answers what that first one answered (waiting for it if it is
 * still running), without any work of its own.
 */
export function trialCacheStrategy(base: Strategy, rate = 0.3, salt = "flaky"): Strategy {
  const flaky = flakyStrategy(base, rate, salt);
  const cache = new Map<string, Promise<string>>();
  const keysOf = (task: TaskInfo) => [`id:${task.taskId}`, `prompt:${promptKey(task)}`];
  return (task, tools) => {
    const cached = keysOf(task)
      .map((key) => cache.get(key))
      .find((answer) => answer !== undefined);
    if (cached) return cached;
    const answer = flaky(task, tools);
    for (const key of keysOf(task)) cache.set(key, answer);
    return answer;
  };
}
