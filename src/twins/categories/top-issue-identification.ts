import { defineTwinCategory } from "../category.js";
import type { TwinWorld } from "../world.js";
import { casesByProduct, drawWindow, inPeriod, sourceProductName, uniqueBest, withProduct, withToday } from "./service-cases.js";

/**
 * Top issue: the product's cases created in the window, counted by issue; the issue reported most.
 * None when the product has no case in the window; undefined on a tie for the most.
 */
export function topIssueAnswer(world: TwinWorld, productId: string, period: { readonly start: string; readonly end: string }): string | null | undefined {
  const counts = new Map<string, number>();
  for (const row of casesByProduct(world).get(productId) ?? []) {
    if (!inPeriod(row.CreatedDate, period) || !row.IssueId__c) continue;
    counts.set(String(row.IssueId__c), (counts.get(String(row.IssueId__c)) ?? 0) + 1);
  }
  if (counts.size === 0) return null;
  return uniqueBest(counts, true);
}

export const topIssueIdentification = defineTwinCategory({
  name: "top_issue_identification",
  twin({ source, world, rng, wantNone }) {
    const name = sourceProductName(source.query);
    const drawn = drawWindow(source.query, rng, wantNone);
    if (!name || !drawn) return undefined;
    // A None twin asks about any product (most have no cases); an answered one about a product with cases.
    const pool = wantNone ? world.rows("Product2") : [...casesByProduct(world).keys()].map((id) => world.byId(id)).filter((row) => row !== undefined);
    if (pool.length === 0) return undefined;
    const product = rng.pick(pool);
    const answer = topIssueAnswer(world, String(product.Id), drawn.period);
    if (answer === undefined) return undefined;
    return {
      query: withProduct(withToday(drawn.query, drawn.today), name, product),
      required: withProduct(withToday(String(source.metadata.required ?? ""), drawn.today), name, product),
      answer: [answer],
    };
  },
});
