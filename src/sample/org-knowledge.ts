import { type OrgDraw, slug } from "./org-draw.js";
import type { QuoteRule, Row, SampleFacts } from "./org-schema.js";
import * as V from "./vocabulary.js";

/** What the knowledge articles plant: the FAQs, the stage guide's article and the quote rules. */
export type KnowledgeFacts = Pick<SampleFacts, "faqs" | "rules" | "stageGuideArticleId">;

/**
 * Knowledge: FAQs, the stage activity guide, the BANT guide, the quote rules (on ten sellable
 * products: four discount limits, three minimum quantities, two exclusive pairs), then overviews
 * up to the real count (the communication policies, written with the service records, count too).
 */
export function generateKnowledge({ rng, t, id, count }: OrgDraw, sellable: readonly Row[]): KnowledgeFacts {
  const knowledge: Row[] = t.Knowledge__kav!;
  const faqs: { articleId: string; question: string; answer: string }[] = [];
  V.FAQ_TOPICS.forEach((topic, i) => {
    for (const context of V.FAQ_CONTEXTS) {
      const reason = V.FAQ_REASONS[(i + V.FAQ_CONTEXTS.indexOf(context)) % V.FAQ_REASONS.length]!;
      const question = `Why is ${topic} important in ${context}?`;
      const answer = `${reason[0]!.toUpperCase()}${reason.slice(1)}.`;
      const articleId = id("Knowledge__kav");
      knowledge.push({ Id: articleId, Title: question, FAQ_Answer__c: answer, Summary: `FAQ on ${topic} for ${context}.`, UrlName: slug(question) });
      faqs.push({ articleId, question, answer });
    }
  });
  const stageGuideArticleId = id("Knowledge__kav");
  knowledge.push({
    Id: stageGuideArticleId,
    Title: "Opportunity Stage Activity Guide",
    FAQ_Answer__c: stageGuideText(),
    Summary: "Which activities belong to which opportunity stage.",
    UrlName: "opportunity-stage-activity-guide",
  });
  knowledge.push({
    Id: id("Knowledge__kav"),
    Title: "BANT Lead Qualification",
    FAQ_Answer__c: "A lead qualifies when Budget, Authority, Need and Timeline are all confirmed in conversations. Any factor the lead states negatively is unmet.",
    Summary: "Budget, Authority, Need, Timeline.",
    UrlName: "bant-lead-qualification",
  });
  const rules: QuoteRule[] = [];
  const ruleProducts = rng.sample(sellable, 10);
  ruleProducts.slice(0, 4).forEach((product) => {
    const limit = rng.pick([10, 15, 20, 25]);
    const articleId = id("Knowledge__kav");
    knowledge.push({
      Id: articleId,
      Title: `Discount Approval Policy: ${product.Name}`,
      FAQ_Answer__c: `The discount on ${product.Name} may not exceed ${limit}%. Larger discounts need approval from the pricing desk.`,
      Summary: "Pricing rule for quotes.",
      UrlName: slug(`discount ${product.Name}`),
    });
    rules.push({ kind: "max_discount", articleId, productId: product.Id as string, limit });
  });
  ruleProducts.slice(4, 7).forEach((product) => {
    const minimum = rng.pick([5, 10, 20]);
    const articleId = id("Knowledge__kav");
    knowledge.push({
      Id: articleId,
      Title: `Configuration Rule: ${product.Name} minimum quantity`,
      FAQ_Answer__c: `${product.Name} must be quoted with at least ${minimum} units per line item.`,
      Summary: "Configuration rule for quotes.",
      UrlName: slug(`minimum ${product.Name}`),
    });
    rules.push({ kind: "min_quantity", articleId, productId: product.Id as string, minimum });
  });
  [
    [7, 8],
    [8, 9],
  ].forEach(([a, b]) => {
    const first = ruleProducts[a!]!;
    const second = ruleProducts[b!]!;
    const articleId = id("Knowledge__kav");
    knowledge.push({
      Id: articleId,
      Title: `Configuration Rule: ${first.Name} and ${second.Name}`,
      FAQ_Answer__c: `${first.Name} cannot be quoted together with ${second.Name}.`,
      Summary: "Configuration rule for quotes.",
      UrlName: slug(`exclusive ${first.Name} ${second.Name}`),
    });
    rules.push({ kind: "exclusive", articleId, productId: first.Id as string, otherProductId: second.Id as string });
  });
  while (knowledge.length < count("Knowledge__kav", 80)) {
    const topic = rng.pick(V.FAQ_TOPICS);
    const title = `${topic[0]!.toUpperCase()}${topic.slice(1)} overview ${knowledge.length}`;
    knowledge.push({ Id: id("Knowledge__kav"), Title: title, FAQ_Answer__c: `General guidance on ${topic}.`, Summary: `Overview of ${topic}.`, UrlName: slug(title) });
  }
  return { faqs, rules, stageGuideArticleId };
}

/** The guide that lists each stage's activities, one line per stage. */
export function stageGuideText(): string {
  return V.STAGES.map((stage) => `${stage}: ${V.STAGE_ACTIVITIES[stage].join("; ")}.`).join("\n");
}
