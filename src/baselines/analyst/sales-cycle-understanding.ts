import { dateIn, dayOf, rankedAgent, rowsWhereIn, taskWindow, wantsHighest } from "./agent-ranking.js";
import type { CategorySolver } from "./solver.js";

const days = (from: string, to: string) => Math.round((Date.parse(`${to}T00:00:00Z`) - Date.parse(`${from}T00:00:00Z`)) / 86_400_000);

/**
 * Average sales cycle per agent, as the Sales Cycle Policy reads: days from an opportunity's
 * creation to its contract's company signing, for the contracts signed in the window, averaged
 * over each owner's opportunities.
 */
export const salesCycleUnderstanding: CategorySolver = async (task, tools) => {
  const window = taskWindow(task);
  const highest = wantsHighest(task.prompt) ?? false;
  if (!window) return "None";
  const contracts = await tools.soql(`SELECT Id, CompanySignedDate FROM Contract WHERE ${dateIn("CompanySignedDate", window)}`);
  if (contracts.length === 0) return "None";
  const signed = new Map(contracts.map((row) => [String(row.Id), dayOf(row.CompanySignedDate)]));
  const opportunities = await rowsWhereIn(tools, "Id, OwnerId, CreatedDate, ContractID__c", "Opportunity", "ContractID__c", [...signed.keys()]);
  const sums = new Map<string, { total: number; count: number }>();
  for (const opportunity of opportunities) {
    const signedDay = signed.get(String(opportunity.ContractID__c));
    if (!opportunity.OwnerId || !opportunity.CreatedDate || !signedDay) continue;
    const sum = sums.get(String(opportunity.OwnerId)) ?? { total: 0, count: 0 };
    sum.total += days(dayOf(opportunity.CreatedDate), signedDay);
    sum.count += 1;
    sums.set(String(opportunity.OwnerId), sum);
  }
  return rankedAgent(new Map([...sums].map(([owner, sum]) => [owner, sum.total / sum.count])), highest);
};
