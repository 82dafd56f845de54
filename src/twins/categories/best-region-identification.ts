import { defineTwinCategory } from "../category.js";
import type { TwinWorld } from "../world.js";
import { casesCreatedIn, drawWindow, durationDays, uniqueBest, withToday } from "./service-cases.js";

/**
 * Best region: over the closed cases created in the window, the shipping state (of the case's
 * account) with the lowest average open-to-close time. None when no closed case falls in the
 * window; undefined on a tie.
 */
export function bestRegionAnswer(world: TwinWorld, period: { readonly start: string; readonly end: string }): string | null | undefined {
  const durations = new Map<string, number[]>();
  for (const row of casesCreatedIn(world, period)) {
    if (row.Status !== "Closed" || !row.ClosedDate) continue;
    const state = world.byId(row.AccountId as string | null)?.ShippingState;
    if (!state) continue;
    durations.set(String(state), [...(durations.get(String(state)) ?? []), durationDays(row.CreatedDate, row.ClosedDate)]);
  }
  if (durations.size === 0) return null;
  return uniqueBest(new Map([...durations].map(([state, list]) => [state, list.reduce((a, b) => a + b, 0) / list.length])), false);
}

export const bestRegionIdentification = defineTwinCategory({
  name: "best_region_identification",
  twin({ source, world, rng, wantNone }) {
    const drawn = drawWindow(source.query, rng, wantNone);
    if (!drawn) return undefined;
    const answer = bestRegionAnswer(world, drawn.period);
    if (answer === undefined) return undefined;
    return { query: withToday(drawn.query, drawn.today), required: withToday(String(source.metadata.required ?? ""), drawn.today), answer: [answer] };
  },
});
