import type { QuoteRule } from "../../sample/index.js";
import { WeakMemo } from "../../util/index.js";
import type { TwinContext, TwinDraft } from "../category.js";
import type { TwinWorld } from "../world.js";

/** Pricing rules (a discount ceiling) are quote_approval's; product configuration rules (a minimum quantity, products that exclude each other) are invalid_config's. */
export const PRICING_RULES: ReadonlySet<QuoteRule["kind"]> = new Set(["max_discount"]);
export const CONFIGURATION_RULES: ReadonlySet<QuoteRule["kind"]> = new Set(["min_quantity", "exclusive"]);

/**
 * The rules a quote's lines break, each as the knowledge article that states it: a line of the
 * rule's product discounted over the ceiling, a line of the rule's product with fewer units than
 * the minimum, or both products of an exclusion on the same quote. The rules are the ones the
 * generator wrote into the articles' text (`facts.rules`); the lines are read as stored.
 */
export function brokenQuoteRules(world: TwinWorld, quoteId: string): QuoteRule[] {
  const lines = world.where("QuoteLineItem", "QuoteId", quoteId);
  const products = new Set(lines.map((line) => String(line.Product2Id)));
  return world.facts.rules.filter((rule) => {
    if (rule.kind === "max_discount") return lines.some((line) => line.Product2Id === rule.productId && Number(line.Discount) > rule.limit);
    if (rule.kind === "min_quantity") return lines.some((line) => line.Product2Id === rule.productId && Number(line.Quantity) < rule.minimum);
    return products.has(rule.productId) && products.has(rule.otherProductId);
  });
}

/**
 * The answer program of quote_approval and invalid_config: the Id of the one article of the
 * category's kind the quote breaks, null when it breaks none, undefined when the quote has no
 * single answer (two articles of the kind broken, or, to keep the question free of a reading
 * of which rules the category covers, a rule of the other kind broken too).
 */
export function quoteRuleAnswer(world: TwinWorld, quoteId: string, kinds: ReadonlySet<QuoteRule["kind"]>): string | null | undefined {
  const broken = brokenQuoteRules(world, quoteId);
  if (broken.length === 0) return null;
  if (broken.length > 1 || !kinds.has(broken[0]!.kind)) return undefined;
  return broken[0]!.articleId;
}

const QUOTE_ID = /\b0Q0[0-9A-Za-z]{12}(?:[0-9A-Za-z]{3})?\b/g;

/** Per world and rule kinds, the quotes with a single answer, split by None-ness (computed once: a twin draws from them, never scans). */
const candidates = new WeakMemo<TwinWorld, ReadonlySet<QuoteRule["kind"]>, { readonly none: string[]; readonly broken: string[] }>();

function quotesOf(world: TwinWorld, kinds: ReadonlySet<QuoteRule["kind"]>): { readonly none: string[]; readonly broken: string[] } {
  return candidates.get(world, kinds, () => {
    const split = { none: [] as string[], broken: [] as string[] };
    for (const quote of world.rows("Quote")) {
      const answer = quoteRuleAnswer(world, String(quote.Id), kinds);
      if (answer === null) split.none.push(String(quote.Id));
      else if (answer !== undefined) split.broken.push(String(quote.Id));
    }
    return split;
  });
}

/**
 * A twin of a quote task: the real wording verbatim, the Quote Id in `metadata.required` swapped
 * for one of the twin org's quotes, drawn among those whose answer has the wanted None-ness.
 */
export function quoteTwin(context: TwinContext, kinds: ReadonlySet<QuoteRule["kind"]>): TwinDraft | undefined {
  const { source, world, rng, wantNone } = context;
  if (source.metadata.required.search(QUOTE_ID) < 0) return undefined;
  const pool = wantNone ? quotesOf(world, kinds).none : quotesOf(world, kinds).broken;
  if (pool.length === 0) return undefined;
  const quoteId = rng.pick(pool);
  return {
    query: source.query.replace(QUOTE_ID, quoteId),
    required: source.metadata.required.replace(QUOTE_ID, quoteId),
    answer: [quoteRuleAnswer(world, quoteId, kinds) ?? null],
  };
}
