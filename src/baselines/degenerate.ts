import { createHash } from "node:crypto";
import { idsIn } from "../util/index.js";
import { REFUSAL } from "./oracle.js";
import type { Strategy } from "./server.js";

/**
 * Purples that never solve anything on purpose. The validity suite runs them to check that no
 * score rewards doing nothing, guessing, or gaming a metric: each may earn only what its lucky
 * answers earn.
 */

/** Answers "None" at once (a fifth of CRMArena-Pro's exact-match answers are None). */
export const alwaysNoneStrategy: Strategy = async () => "None";

/** Refuses everything at once, as if every request were confidential. */
export const refuseAllStrategy: Strategy = async () => REFUSAL;

/** Answers with an Id copied from the task text (a real record, never looked up), chosen by the task. */
export const randomIdStrategy: Strategy = async (task) => {
  const ids = idsIn(`${task.prompt}\n${task.requiredContext}`);
  if (ids.length === 0) return "None";
  const pick = createHash("sha256").update(task.taskId).digest().readUInt32BE(0) % ids.length;
  return ids[pick]!;
};

/** Provokes a schema error, "recovers" with a trivial query, then answers None. */
export const fakeRecoveryStrategy: Strategy = async (_task, tools) => {
  await tools.soql("SELECT NoSuchField__x FROM Case").catch(() => undefined);
  await tools.soql("SELECT COUNT() FROM Account");
  return "None";
};

/** Floods the org with queries it does not need, then answers None. */
export const floodStrategy: Strategy = async (_task, tools) => {
  for (const object of ["Account", "Contact", "Case", "Opportunity", "Lead", "Task"]) await tools.soql(`SELECT Id FROM ${object} LIMIT 200`).catch(() => undefined);
  return "None";
};
