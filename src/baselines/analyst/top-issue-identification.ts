import { bestOf, productIdOf, windowOf, withinWindow } from "./service.js";
import type { CategorySolver } from "./solver.js";

/** The product's cases created in the window, counted by issue: the issue reported most, None when there are none. */
export const topIssueIdentification: CategorySolver = async (task, tools) => {
  const cases = await tools.soql(`SELECT Id, IssueId__c FROM Case WHERE OrderItemId__r.Product2Id = '${productIdOf(task)}' AND ${withinWindow("CreatedDate", windowOf(task))}`);
  const counts = new Map<string, number>();
  for (const row of cases) if (row.IssueId__c) counts.set(String(row.IssueId__c), (counts.get(String(row.IssueId__c)) ?? 0) + 1);
  return bestOf(counts, true) ?? "None";
};
