import { defineTwinCategory } from "../category.js";
import { daysBetween, inPeriod, type WindowScores, windowedTwin } from "./agent-ranking.js";

/**
 * Each agent's average sales cycle in a window, by the Sales Cycle Policy: the days from an
 * opportunity's CreatedDate to its contract's CompanySignedDate, for the opportunities whose
 * contract was signed in the window (the window applies to the signing, as CRMArena's ground
 * truth did), averaged per opportunity owner.
 */
export const salesCycles: WindowScores = (world, period) => {
  const sums = new Map<string, { days: number; count: number }>();
  for (const contract of world.rows("Contract")) {
    if (!inPeriod(contract.CompanySignedDate, period)) continue;
    for (const opportunity of world.where("Opportunity", "ContractID__c", String(contract.Id))) {
      if (!opportunity.OwnerId || !opportunity.CreatedDate) continue;
      const owner = String(opportunity.OwnerId);
      const sum = sums.get(owner) ?? { days: 0, count: 0 };
      sum.days += daysBetween(String(opportunity.CreatedDate), String(contract.CompanySignedDate));
      sum.count += 1;
      sums.set(owner, sum);
    }
  }
  return new Map([...sums].map(([owner, sum]) => [owner, sum.days / sum.count]));
};

/** The twin keeps the question and the policy, and moves today (and a named window's year) into the twin org's timeline. */
export const salesCycleUnderstanding = defineTwinCategory({
  name: "sales_cycle_understanding",
  twin: (context) => windowedTwin(context, salesCycles),
});
