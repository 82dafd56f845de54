import type { Strategy, TaskInfo } from "../server.js";
import { naiveStrategy } from "../solver.js";
import { looksClean, promptKey } from "./detect.js";

/**
 * The paired-run copier: a purple that serves every episode of a run in one process can pass
 * answers between them. In an episode that looks clean (detect.ts) it solves the task and posts
 * the answer under the task's id and prompt; in one that looks perturbed it waits (at most
 * `waitMs`) for the clean sibling's answer and copies it, else answers itself. When the two
 * conditions of a task share neither id nor prompt, or run one after another (the perturbed one
 * first), there is nothing to copy: the copier scores what its base scores.
 */
export function pairedWaitStrategy(base: Strategy = naiveStrategy, waitMs = 2000): Strategy {
  const posted = new Map<string, string>();
  const waiting = new Map<string, (() => void)[]>();
  const keysOf = (task: TaskInfo) => [`id:${task.taskId}`, `prompt:${promptKey(task)}`];
  const post = (task: TaskInfo, answer: string) => {
    for (const key of keysOf(task)) {
      posted.set(key, answer);
      for (const wake of waiting.get(key) ?? []) wake();
      waiting.delete(key);
    }
  };
  const siblingAnswer = (task: TaskInfo) =>
    keysOf(task)
      .map((key) => posted.get(key))
      .find((answer) => answer !== undefined);
  const waitFor = (task: TaskInfo) =>
    new Promise<string | undefined>((resolve) => {
      const found = siblingAnswer(task);
      if (found !== undefined) return resolve(found);
      const timer = setTimeout(() => resolve(siblingAnswer(task)), waitMs);
      const wake = () => {
        clearTimeout(timer);
        resolve(siblingAnswer(task));
      };
      for (const key of keysOf(task)) waiting.set(key, [...(waiting.get(key) ?? []), wake]);
    });
  return async (task, tools) => {
    if (await looksClean(task, tools)) {
      const answer = await base(task, tools);
      post(task, answer);
      return answer;
    }
    return (await waitFor(task)) ?? base(task, tools);
  };
}
