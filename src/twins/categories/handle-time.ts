import type { Row } from "../../sample/index.js";
import { defineTwinCategory } from "../category.js";
import type { TwinWorld } from "../world.js";
import { asksHighest, casesAbove, casesCreatedIn, drawWindow, durationDays, managedCases, ownerAssignmentsIn, uniqueBest, withToday } from "./service-cases.js";

export interface HandleTimeQuestion {
  readonly period: { readonly start: string; readonly end: string };
  /** Agents must have managed strictly more cases than this (first owner or transferred to). */
  readonly casesAbove: number;
  readonly highest: boolean;
}

/**
 * The handle time policy as CRMArena-Pro defines it: among the agents who managed more than N
 * cases in the window (counting every Owner Assignment to them), the one with the lowest (or
 * highest) average open-to-close time over their closed cases created in the window that were
 * never transferred (exactly one Owner Assignment). None when no agent qualifies; undefined on a tie.
 */
export function handleTimeAnswer(world: TwinWorld, question: HandleTimeQuestion): string | null | undefined {
  const managed = managedCases(ownerAssignmentsIn(world, question.period));
  const durations = new Map<string, number[]>();
  for (const row of casesCreatedIn(world, question.period)) {
    if (row.Status !== "Closed" || !row.ClosedDate) continue;
    if (assignmentsOf(world, row).length !== 1) continue;
    const owner = String(row.OwnerId);
    if ((managed.get(owner)?.size ?? 0) <= question.casesAbove) continue;
    durations.set(owner, [...(durations.get(owner) ?? []), durationDays(row.CreatedDate, row.ClosedDate)]);
  }
  if (durations.size === 0) return null;
  const averages = new Map([...durations].map(([owner, list]) => [owner, list.reduce((a, b) => a + b, 0) / list.length]));
  return uniqueBest(averages, question.highest);
}

const assignmentsOf = (world: TwinWorld, row: Row) => world.where("CaseHistory__c", "CaseId__c", String(row.Id)).filter((entry) => entry.Field__c === "Owner Assignment");

/** Twins keep the question and its filter; the today and the window's year are redrawn. */
export const handleTime = defineTwinCategory({
  name: "handle_time",
  twin({ source, world, rng, wantNone }) {
    const drawn = drawWindow(source.query, rng, wantNone);
    if (!drawn) return undefined;
    const answer = handleTimeAnswer(world, { period: drawn.period, casesAbove: casesAbove(source.query), highest: asksHighest(source.query) });
    if (answer === undefined) return undefined;
    return { query: withToday(drawn.query, drawn.today), required: withToday(String(source.metadata.required ?? ""), drawn.today), answer: [answer] };
  },
});
