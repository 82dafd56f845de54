import { bestOf, casesManaged, minimumCasesExceeded, ownerAssignments, wantsHighest, windowOf } from "./service.js";
import type { CategorySolver } from "./solver.js";

/**
 * The Transfer Count Policy: in the window's Owner Assignments, a reassignment from A counts for A.
 * Counted per transferring agent (an agent who passed nothing on has no count), among agents who
 * managed more than N cases; "average number of transfers" divides by the cases they managed.
 */
export const transferCount: CategorySolver = async (task, tools) => {
  const assignments = await ownerAssignments(tools, windowOf(task));
  const managed = casesManaged(assignments);
  const threshold = minimumCasesExceeded(task.prompt);
  const transfers = new Map<string, number>();
  for (const row of assignments) {
    if (!row.OldValue__c) continue;
    const agent = String(row.OldValue__c);
    if ((managed.get(agent) ?? 0) > threshold) transfers.set(agent, (transfers.get(agent) ?? 0) + 1);
  }
  if (/\baverage\b/i.test(task.prompt)) for (const [agent, count] of transfers) transfers.set(agent, count / (managed.get(agent) ?? 1));
  return bestOf(transfers, wantsHighest(task.prompt)) ?? "None";
};
