import { defineTwinCategory } from "../category.js";
import type { TwinWorld } from "../world.js";
import { asksHighest, casesAbove, drawWindow, enrichServiceCases, managedCases, ownerAssignmentsIn, uniqueBest, withToday } from "./service-cases.js";

export interface TransferCountQuestion {
  readonly period: { readonly start: string; readonly end: string };
  readonly casesAbove: number;
  readonly highest: boolean;
  /** "average number of transfers": transfers per managed case rather than the count. */
  readonly perCase: boolean;
}

/**
 * The transfer count policy: over the Owner Assignments dated in the window, an assignment from
 * agent A to agent B is one transfer for A; among the agents who managed more than N cases there
 * (first owner or transferred to) and have a transfer count (the ground truth counts transfers
 * per transferring agent, so an agent who transferred nothing has no count), the one with the
 * fewest (or most). None when no qualifying agent transferred a case; undefined on a tie.
 */
export function transferCountAnswer(world: TwinWorld, question: TransferCountQuestion): string | null | undefined {
  const assignments = ownerAssignmentsIn(world, question.period);
  const managed = managedCases(assignments);
  const transfers = new Map<string, number>();
  for (const row of assignments) {
    const from = row.OldValue__c ? String(row.OldValue__c) : "";
    if (from && (managed.get(from)?.size ?? 0) > question.casesAbove) transfers.set(from, (transfers.get(from) ?? 0) + 1);
  }
  if (transfers.size === 0) return null;
  if (question.perCase) for (const [agent, count] of transfers) transfers.set(agent, count / (managed.get(agent)?.size ?? 1));
  return uniqueBest(transfers, question.highest);
}

export const transferCount = defineTwinCategory({
  name: "transfer_count",
  // The base org's transfers are too few for a unique fewest; this adds service history every service category reads alike.
  enrich: enrichServiceCases,
  // "The fewest transfers" ties among the many agents with one transfer in a long window; a today in
  // the first year (a window partly before the records) gives fewer agents, so half the draws go there.
  twin({ source, world, rng, wantNone }) {
    const drawn = drawWindow(source.query, rng, wantNone, /\b(lowest|fewest|least|minimum)\b/i.test(source.query) ? 0.5 : 0);
    if (!drawn) return undefined;
    const answer = transferCountAnswer(world, {
      period: drawn.period,
      casesAbove: casesAbove(source.query),
      highest: asksHighest(source.query),
      perCase: /\baverage\b/i.test(source.query),
    });
    if (answer === undefined) return undefined;
    return { query: withToday(drawn.query, drawn.today), required: withToday(String(source.metadata.required ?? ""), drawn.today), answer: [answer] };
  },
});
