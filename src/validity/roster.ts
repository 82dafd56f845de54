import { createHash } from "node:crypto";
import {
  alwaysNoneStrategy,
  errorOptInStrategy,
  fakeRecoveryStrategy,
  floodStrategy,
  leakingRefusalStrategy,
  lookAroundStrategy,
  naiveStrategy,
  oracleStrategy,
  otherIdFormsStrategy,
  randomIdStrategy,
  refuseAllStrategy,
  type ServePurpleOptions,
  type Strategy,
  solverStrategy,
  unneededIdsStrategy,
  verboseCorrectStrategy,
} from "../baselines/index.js";
import type { TaskSet } from "../tasks/index.js";

/**
 * A purple of the validity suite: the references that set the ceiling, the degenerates that probe
 * the floor, the gamers that add a trick to the solver's correct work (it must not pay), and the
 * variants that do the solver's work in another honest way (it must not cost beyond the rules).
 */
export interface RosterEntry {
  readonly name: string;
  readonly kind: "reference" | "degenerate" | "gaming" | "variant";
  readonly description: string;
  readonly strategy: Strategy;
  readonly options?: ServePurpleOptions;
}

export function roster(tasks: TaskSet): RosterEntry[] {
  return [
    { name: "oracle", kind: "reference", description: "answers from the ground truth, never queries", strategy: oracleStrategy(tasks, { secret: "" }) },
    { name: "solver", kind: "reference", description: "reads the schema, queries live records with SOQL/SOSL", strategy: solverStrategy },
    { name: "naive", kind: "reference", description: "the solver without care: original field names, deleted records included", strategy: naiveStrategy },
    { name: "always-none", kind: "degenerate", description: "answers None at once", strategy: alwaysNoneStrategy },
    { name: "refuse-all", kind: "degenerate", description: "refuses every request at once", strategy: refuseAllStrategy },
    { name: "random-id", kind: "degenerate", description: "answers an Id copied from the task text", strategy: randomIdStrategy },
    { name: "fake-recovery", kind: "degenerate", description: "provokes a schema error, runs a trivial query, answers None", strategy: fakeRecoveryStrategy },
    { name: "flood", kind: "degenerate", description: "runs six needless queries, answers None", strategy: floodStrategy },
    {
      name: "one-token",
      kind: "degenerate",
      description: "the solver, reporting 1 token of usage per reply",
      strategy: solverStrategy,
      options: { reportedUsage: { input_tokens: 1, output_tokens: 0 } },
    },
    {
      name: "error-opt-in",
      kind: "gaming",
      description: "the solver after a deliberate schema error (`SELECT Statuz FROM Case`) and a query that recovers",
      strategy: errorOptInStrategy,
    },
    {
      name: "unneeded-ids",
      kind: "gaming",
      description: "the solver's answer plus a live Id it did not need, on the BANT, month, stage and state categories",
      strategy: unneededIdsStrategy,
    },
    {
      name: "leaking-refusal",
      kind: "gaming",
      description: "on privacy tasks looks the private data up, then refuses while disclosing it in a disguised spelling; elsewhere the solver",
      strategy: leakingRefusalStrategy,
    },
    {
      name: "other-id-forms",
      kind: "variant",
      description: "the solver's Ids as 15-character Ids or 18-character ones in another letter case (the same records)",
      strategy: otherIdFormsStrategy,
    },
    { name: "verbose-correct", kind: "variant", description: "the solver's answer inside a long, polite explanation", strategy: verboseCorrectStrategy },
    { name: "look-around-1", kind: "variant", description: "the solver after one extra `describe_schema`", strategy: lookAroundStrategy(1) },
    {
      name: "look-around-3",
      kind: "variant",
      description: "the solver after three look-around steps (two describe calls, a harmless query)",
      strategy: lookAroundStrategy(3),
    },
  ];
}

/** What a flaky purple answers in an episode it gets wrong: no category's ground truth, and no refusal. */
export const FLAKY_WRONG_ANSWER = "0000 (a flaky answer)";

/**
 * A purple as good as `strategy` but wrong in `share` of its episodes: chosen by a hash of the
 * episode (its id and its task text: the same episodes on every try, so a measurement is
 * repeatable, but other ones on another twin set, as a flaky agent's misses would be), answered
 * at once with FLAKY_WRONG_ANSWER; in the others it answers as `strategy` does. Measures how a
 * figure's noise adds to the between-key spread of the twins (src/validity/twin-keys.ts).
 */
export function flakyStrategy(strategy: Strategy, share: number): Strategy {
  return async (task, tools) => (flakes(`${task.taskId}\0${task.prompt}`, share) ? FLAKY_WRONG_ANSWER : strategy(task, tools));
}

/** Whether the episode `episode` names (its id and task text) is one of the `share` a flaky purple gets wrong. */
export function flakes(episode: string, share: number): boolean {
  return createHash("sha256").update(`flaky purple\0${episode}`).digest().readUInt32BE(0) / 2 ** 32 < share;
}
