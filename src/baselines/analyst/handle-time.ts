import { bestOf, casesManaged, daysBetween, minimumCasesExceeded, ownerAssignments, wantsHighest, windowOf, withinWindow } from "./service.js";
import type { CategorySolver } from "./solver.js";

/**
 * The Handle Time Policy: agents who managed more than N cases in the window (every Owner
 * Assignment to them counts); their average open-to-close time over the closed cases created in
 * the window that kept their one owner (a transferred case has more than one Owner Assignment).
 */
export const handleTime: CategorySolver = async (task, tools) => {
  const window = windowOf(task);
  const assignments = await ownerAssignments(tools, window);
  const managed = casesManaged(assignments);
  const assignmentsPerCase = new Map<string, number>();
  for (const row of assignments) assignmentsPerCase.set(String(row.CaseId__c), (assignmentsPerCase.get(String(row.CaseId__c)) ?? 0) + 1);
  const cases = await tools.soql(`SELECT Id, OwnerId, CreatedDate, ClosedDate FROM Case WHERE Status = 'Closed' AND ${withinWindow("CreatedDate", window)}`);
  const threshold = minimumCasesExceeded(task.prompt);
  const durations = new Map<string, number[]>();
  for (const row of cases) {
    if (!row.ClosedDate || assignmentsPerCase.get(String(row.Id)) !== 1) continue;
    const owner = String(row.OwnerId);
    if ((managed.get(owner) ?? 0) <= threshold) continue;
    durations.set(owner, [...(durations.get(owner) ?? []), daysBetween(row.CreatedDate, row.ClosedDate)]);
  }
  return bestOf(new Map([...durations].map(([agent, list]) => [agent, list.reduce((a, b) => a + b, 0) / list.length])), wantsHighest(task.prompt)) ?? "None";
};
