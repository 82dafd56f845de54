import { productIdOf, windowOf, withinWindow } from "./service.js";
import type { CategorySolver } from "./solver.js";

const MONTHS = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

/** The product's cases (through their order items) created in the window, counted by month name: the month above all others. */
export const monthlyTrendAnalysis: CategorySolver = async (task, tools) => {
  const cases = await tools.soql(`SELECT Id, CreatedDate FROM Case WHERE OrderItemId__r.Product2Id = '${productIdOf(task)}' AND ${withinWindow("CreatedDate", windowOf(task))}`);
  const counts = new Map<string, number>();
  for (const row of cases) {
    const month = MONTHS[Number(String(row.CreatedDate).slice(5, 7)) - 1];
    if (month) counts.set(month, (counts.get(month) ?? 0) + 1);
  }
  const ranked = [...counts].sort((a, b) => b[1] - a[1]);
  return ranked[0]?.[0] ?? "None";
};
