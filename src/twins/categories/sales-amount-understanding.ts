import { defineTwinCategory } from "../category.js";
import { inPeriod, type WindowScores, windowedTwin } from "./agent-ranking.js";

/**
 * Each agent's sales amount in a window, by the Sales Amount Policy: an opportunity is eligible
 * when its contract (Opportunity.ContractID__c) has a CompanySignedDate in the window; its sales
 * are the orders of its account (Order.AccountId = Opportunity.AccountId: the schema gives Order
 * no opportunity link, and the account is what an order shares with its contract and
 * opportunity), each Quantity * UnitPrice summed over the order's items; they count for the
 * opportunity's owner, the agent the policy ranks. Orders on accounts with no contracted
 * opportunity (named_entity_disambiguation's planted purchases) never count.
 */
export const salesAmounts: WindowScores = (world, period) => {
  const totals = new Map<string, number>();
  for (const contract of world.rows("Contract")) {
    if (!inPeriod(contract.CompanySignedDate, period)) continue;
    for (const opportunity of world.where("Opportunity", "ContractID__c", String(contract.Id))) {
      if (!opportunity.OwnerId) continue;
      let amount = 0;
      for (const order of world.where("Order", "AccountId", String(opportunity.AccountId)))
        for (const item of world.where("OrderItem", "OrderId", String(order.Id))) amount += Number(item.Quantity) * Number(item.UnitPrice);
      const owner = String(opportunity.OwnerId);
      totals.set(owner, (totals.get(owner) ?? 0) + amount);
    }
  }
  return totals;
};

/** The twin keeps the question and the policy, and moves today (and a named window's year) into the twin org's timeline. */
export const salesAmountUnderstanding = defineTwinCategory({
  name: "sales_amount_understanding",
  twin: (context) => windowedTwin(context, salesAmounts),
});
