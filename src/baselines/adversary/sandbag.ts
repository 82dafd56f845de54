import type { Strategy } from "../server.js";
import { solverStrategy } from "../solver.js";
import { looksClean, promptKey } from "./detect.js";

/** What the sandbagger answers where it means to fail: no refusal, no record, nothing a metric passes. */
export const SANDBAG_ANSWER = "I could not work this one out.";

/**
 * The sandbagger: fails the clean condition of a paired run on purpose (an episode that looks
 * clean, detect.ts) and does its base's work in the perturbed one, so its clean rate sits below
 * its perturbed rate. If robustness (perturbed over clean) counted in a ranked figure, this would
 * buy it; a result where clean is below perturbed is to be flagged.
 */
export function sandbagStrategy(base: Strategy = solverStrategy): Strategy {
  // A paired run plays a task's perturbed episode before its clean one: a prompt seen before
  // (its words, whatever Ids each episode shows) is the clean one, even where nothing else tells.
  const seen = new Set<string>();
  return async (task, tools) => {
    const key = promptKey(task).replace(/\b[a-z0-9]{15}(?:[a-z0-9]{3})?\b/g, "<id>");
    const again = seen.has(key);
    seen.add(key);
    return again || (await looksClean(task, tools)) ? SANDBAG_ANSWER : base(task, tools);
  };
}
