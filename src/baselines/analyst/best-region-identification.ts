import { bestOf, daysBetween, nested, windowOf, withinWindow } from "./service.js";
import type { CategorySolver } from "./solver.js";

/** Closed cases created in the window, grouped by their account's shipping state: the state with the shortest average time to close. */
export const bestRegionIdentification: CategorySolver = async (task, tools) => {
  const cases = await tools.soql(`SELECT Account.ShippingState, CreatedDate, ClosedDate FROM Case WHERE Status = 'Closed' AND ${withinWindow("CreatedDate", windowOf(task))}`);
  const durations = new Map<string, number[]>();
  for (const row of cases) {
    const state = nested(row, "Account.ShippingState");
    if (!state || !row.ClosedDate) continue;
    durations.set(String(state), [...(durations.get(String(state)) ?? []), daysBetween(row.CreatedDate, row.ClosedDate)]);
  }
  return bestOf(new Map([...durations].map(([state, list]) => [state, list.reduce((a, b) => a + b, 0) / list.length])), false) ?? "None";
};
