import {
  alwaysNoneStrategy,
  fakeRecoveryStrategy,
  floodStrategy,
  naiveStrategy,
  oracleStrategy,
  randomIdStrategy,
  refuseAllStrategy,
  type ServePurpleOptions,
  type Strategy,
  solverStrategy,
} from "../baselines/index.js";
import type { TaskSet } from "../tasks/index.js";

/** A purple of the validity suite: the references that set the ceiling, the degenerates that probe the floor. */
export interface RosterEntry {
  readonly name: string;
  readonly kind: "reference" | "degenerate";
  readonly description: string;
  readonly strategy: Strategy;
  readonly options?: ServePurpleOptions;
}

export function roster(tasks: TaskSet): RosterEntry[] {
  return [
    { name: "oracle", kind: "reference", description: "answers from the ground truth, never queries", strategy: oracleStrategy(tasks) },
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
  ];
}
