import { MONTH_NAMES } from "../../util/index.js";
import { defineTwinCategory } from "../category.js";
import type { TwinWorld } from "../world.js";
import { casesByProduct, drawWindow, inPeriod, sourceProductName, uniqueBest, withProduct, withToday } from "./service-cases.js";

/**
 * Monthly trend: the product's cases created in the window, counted by calendar month (the month's
 * name, as the answer is a month name); the month whose count exceeds every other month's (the
 * Domain Details' "significantly more than other months"). Undefined when no month stands alone
 * (this category has no None answers).
 */
export function monthlyTrendAnswer(world: TwinWorld, productId: string, period: { readonly start: string; readonly end: string }): string | undefined {
  const counts = new Map<string, number>();
  for (const row of casesByProduct(world).get(productId) ?? []) {
    if (!inPeriod(row.CreatedDate, period)) continue;
    const month = MONTH_NAMES[Number(String(row.CreatedDate).slice(5, 7)) - 1] as string;
    counts.set(month, (counts.get(month) ?? 0) + 1);
  }
  return uniqueBest(counts, true);
}

export const monthlyTrendAnalysis = defineTwinCategory({
  name: "monthly_trend_analysis",
  twin({ source, world, rng, wantNone }) {
    const name = sourceProductName(source.query);
    const drawn = drawWindow(source.query, rng, wantNone);
    if (!name || !drawn) return undefined;
    const products = [...casesByProduct(world).keys()].map((id) => world.byId(id)).filter((row) => row !== undefined);
    if (products.length === 0) return undefined;
    const product = rng.pick(products);
    const answer = monthlyTrendAnswer(world, String(product.Id), drawn.period);
    if (answer === undefined) return undefined;
    return {
      query: withProduct(withToday(drawn.query, drawn.today), name, product),
      required: withProduct(withToday(String(source.metadata.required ?? ""), drawn.today), name, product),
      answer: [answer],
    };
  },
});
