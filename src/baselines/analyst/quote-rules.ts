import type { TaskInfo, Tools } from "../server.js";
import { knowledgeArticles, namedId, recordsIn } from "./record-reads.js";

/** A rule as an analyst reads it in an article: its kind, the products it names, and its figure. */
type ArticleRule =
  | { readonly kind: "pricing"; readonly articleId: string; readonly product: string; readonly maxDiscount: number }
  | { readonly kind: "configuration"; readonly articleId: string; readonly product: string; readonly minQuantity: number }
  | { readonly kind: "configuration"; readonly articleId: string; readonly product: string; readonly excludes: string };

const norm = (name: string) => name.trim().replace(/\s+/g, " ").toLowerCase();

/** The quote rules written in the articles' texts: a discount ceiling, a minimum quantity per line, two products that may not be quoted together. */
function readRules(articles: readonly { readonly id: string; readonly text: string }[]): ArticleRule[] {
  const rules: ArticleRule[] = [];
  for (const article of articles) {
    const discount = /discount on (.+?) (?:may|must|can|should) not exceed (\d+(?:\.\d+)?)\s*%/i.exec(article.text);
    if (discount) rules.push({ kind: "pricing", articleId: article.id, product: norm(discount[1]!), maxDiscount: Number(discount[2]) });
    const minimum = /(?:^|\n)(.+?) must be quoted with at least (\d+) units?/i.exec(article.text);
    if (minimum) rules.push({ kind: "configuration", articleId: article.id, product: norm(minimum[1]!), minQuantity: Number(minimum[2]) });
    const exclusive = /(?:^|\n)(.+?) (?:cannot|can not|may not|must not) be quoted together with (.+?)\.?(?:\n|$)/i.exec(article.text);
    if (exclusive) rules.push({ kind: "configuration", articleId: article.id, product: norm(exclusive[1]!), excludes: norm(exclusive[2]!) });
  }
  return rules;
}

/**
 * A line's discount in percent. The Discount field is read as a percentage; when the line's own
 * prices say it was stored as a fraction (0.25 for 25%), the fraction is scaled.
 */
function discountOf(line: Record<string, unknown>): number {
  const stored = Number(String(line.Discount ?? "0").replace("%", ""));
  const gross = Number(line.Quantity) * Number(line.UnitPrice);
  const total = Number(line.TotalPrice);
  if (gross > 0 && Number.isFinite(total)) {
    const implied = 100 * (1 - total / gross);
    if (Math.abs(implied - stored) > 0.5 && Math.abs(implied - 100 * stored) <= 0.5) return 100 * stored;
    if (!Number.isFinite(stored)) return implied;
  }
  return Number.isFinite(stored) ? stored : 0;
}

/**
 * The analysis of quote_approval and invalid_config: read the quote's lines and their products,
 * read the rules the knowledge articles state, and answer the article a line breaks, the
 * category's kind of rule first (pricing for an approval, configuration for a setup question).
 */
export async function quoteRuleSolver(task: TaskInfo, tools: Tools, preferred: ArticleRule["kind"]): Promise<string> {
  const quoteId = namedId(task, "0Q0");
  if (!quoteId) return "None";
  const lines = await tools.soql(`SELECT Product2Id, Quantity, UnitPrice, Discount, TotalPrice FROM QuoteLineItem WHERE QuoteId = '${quoteId}'`);
  if (lines.length === 0) return "None";
  const products = await recordsIn(
    tools,
    "Product2",
    "Id, Name",
    "Id",
    lines.map((line) => String(line.Product2Id)),
  );
  const nameOf = new Map(products.map((product) => [String(product.Id), norm(String(product.Name ?? ""))]));
  const quoted = lines.map((line) => ({ product: nameOf.get(String(line.Product2Id)) ?? "", quantity: Number(line.Quantity), discount: discountOf(line) }));
  const names = new Set(quoted.map((line) => line.product));
  const broken = readRules(await knowledgeArticles(tools)).filter((rule) => {
    if ("maxDiscount" in rule) return quoted.some((line) => line.product === rule.product && line.discount > rule.maxDiscount);
    if ("minQuantity" in rule) return quoted.some((line) => line.product === rule.product && line.quantity < rule.minQuantity);
    return names.has(rule.product) && names.has(rule.excludes);
  });
  const answer = broken.find((rule) => rule.kind === preferred) ?? broken[0];
  return answer ? answer.articleId : "None";
}
