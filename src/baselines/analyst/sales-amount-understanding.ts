import { dateIn, rankedAgent, rowsWhereIn, taskWindow, wantsHighest } from "./agent-ranking.js";
import type { CategorySolver } from "./solver.js";

/**
 * Sales amount per agent, as the Sales Amount Policy in the task reads: contracts signed by the
 * company in the window make their opportunities eligible; an eligible opportunity's sales are
 * its account's orders (Order has no opportunity field, the account is what they share), each
 * item Quantity * UnitPrice; the sales count for the opportunity's owner.
 */
export const salesAmountUnderstanding: CategorySolver = async (task, tools) => {
  const window = taskWindow(task);
  const highest = wantsHighest(task.prompt) ?? true;
  if (!window) return "None";
  const contracts = await tools.soql(`SELECT Id FROM Contract WHERE ${dateIn("CompanySignedDate", window)}`);
  if (contracts.length === 0) return "None";
  const opportunities = await rowsWhereIn(
    tools,
    "Id, OwnerId, AccountId",
    "Opportunity",
    "ContractID__c",
    contracts.map((row) => String(row.Id)),
  );
  const accounts = opportunities.map((row) => String(row.AccountId));
  const orders = await rowsWhereIn(tools, "Id, AccountId", "Order", "AccountId", accounts);
  const items = await rowsWhereIn(
    tools,
    "OrderId, Quantity, UnitPrice",
    "OrderItem",
    "OrderId",
    orders.map((row) => String(row.Id)),
  );
  const orderTotal = new Map<string, number>();
  for (const item of items) orderTotal.set(String(item.OrderId), (orderTotal.get(String(item.OrderId)) ?? 0) + Number(item.Quantity) * Number(item.UnitPrice));
  const accountTotal = new Map<string, number>();
  for (const order of orders) accountTotal.set(String(order.AccountId), (accountTotal.get(String(order.AccountId)) ?? 0) + (orderTotal.get(String(order.Id)) ?? 0));
  const byAgent = new Map<string, number>();
  for (const opportunity of opportunities) {
    if (!opportunity.OwnerId) continue;
    const owner = String(opportunity.OwnerId);
    byAgent.set(owner, (byAgent.get(owner) ?? 0) + (accountTotal.get(String(opportunity.AccountId)) ?? 0));
  }
  return rankedAgent(byAgent, highest);
};
