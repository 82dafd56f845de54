import type { Random } from "../util/index.js";
import { addDays } from "../util/index.js";
import type { Catalogue } from "./org-catalogue.js";
import { datetime, type OrgDraw, phone, randomDay } from "./org-draw.js";
import { type Customers, contactOf } from "./org-people.js";
import type { QuoteRule, Row, SampleFacts } from "./org-schema.js";
import * as V from "./vocabulary.js";

/** Leads, each at a random account; the first ones (15 %, at least 40) with the call transcripts that state their BANT factors. Returns the unmet factors of those. */
export function generateLeads(draw: OrgDraw, customers: Customers, salesAgents: readonly string[]): SampleFacts["leadUnmet"] {
  const { rng, t, id, count, personName } = draw;
  const { accounts } = customers;
  const leadUnmet = new Map<string, V.BantFactor[]>();
  for (let i = 0; i < count("Lead", 300); i++) {
    const [first, last] = personName();
    const createdDay = randomDay(rng);
    const converted = rng.chance(0.35);
    const convertedDay = converted ? addDays(createdDay, rng.int(3, 120)) : null;
    const account = rng.pick(accounts);
    const leadId = id("Lead");
    t.Lead!.push({
      Id: leadId,
      FirstName: first,
      LastName: last,
      Email: `${first}.${last}.${i}@prospect.example`.toLowerCase(),
      Phone: phone(rng),
      Company: account.Name,
      Status: converted ? "Closed - Converted" : rng.pick(V.LEAD_STATUSES_OPEN),
      ConvertedContactId: converted ? contactOf(draw, customers, account).Id : null,
      ConvertedAccountId: converted ? account.Id : null,
      Title: rng.pick(["CTO", "VP Engineering", "Procurement Manager", "Director of IT", "Lead Engineer"]),
      CreatedDate: datetime(createdDay, rng),
      ConvertedDate: convertedDay,
      IsConverted: converted ? 1 : 0,
      OwnerId: rng.pick(salesAgents),
    });
    if (i < Math.max(40, Math.round(count("Lead", 300) * 0.15))) {
      const roll = rng.float();
      const unmet = roll < 0.2 ? [] : roll < 0.85 ? [rng.pick(V.BANT_FACTORS)] : rng.sample(V.BANT_FACTORS, 2);
      leadUnmet.set(leadId, unmet);
      const statements = V.BANT_FACTORS.map((factor) => (unmet.includes(factor) ? rng.pick(V.BANT_STATEMENTS[factor].unmet) : rng.pick(V.BANT_STATEMENTS[factor].met)));
      const split = rng.int(1, 3);
      [statements.slice(0, split), statements.slice(split)].forEach((chunk, k) => {
        if (chunk.length === 0) return;
        const body = [`Rep: Thanks for your time, ${first}.`, ...chunk.map((line) => `${first}: ${line}`), "Rep: I will follow up by e-mail."].join("\n");
        t.VoiceCallTranscript__c!.push({
          Id: id("VoiceCallTranscript__c"),
          OpportunityId__c: null,
          LeadId__c: leadId,
          Body__c: body,
          CreatedDate: datetime(addDays(createdDay, k + 1), rng),
          EndTime__c: datetime(addDays(createdDay, k + 1), rng),
        });
      });
    }
  }

  return leadUnmet;
}

/** What the opportunities plant: each one's true stage, and the topics its call went badly on. */
export type OpportunityFacts = Pick<SampleFacts, "opportunityTrueStage" | "opportunityNegativeTopics">;

/**
 * Opportunities, the first ones closed on the contracts (one each), with their line items, their
 * activities (mostly the true stage's, a few 'Not Started' ones of other stages), maybe a call
 * transcript, and up to two quotes with lines that keep or break the quote rules.
 */
export function generateOpportunities(draw: OrgDraw, customers: Customers, catalogue: Catalogue, salesAgents: readonly string[], rules: readonly QuoteRule[]): OpportunityFacts {
  const { rng, t, id, count } = draw;
  const { accounts } = customers;
  const { sellable, listPrice, entryOf } = catalogue;
  const opportunityTrueStage = new Map<string, V.Stage>();
  const opportunityNegativeTopics = new Map<string, string[]>();
  const contracts = t.Contract!;
  const totalOpportunities = count("Opportunity", 200);
  for (let i = 0; i < totalOpportunities; i++) {
    const contract = i < contracts.length ? contracts[i]! : null;
    const account = contract ? accounts.find((row) => row.Id === contract.AccountId)! : rng.pick(accounts);
    const contact = contactOf(draw, customers, account);
    const createdDay = contract ? addDays(String(contract.CompanySignedDate), -rng.int(10, 200)) : randomDay(rng);
    const stage: V.Stage = contract ? "Closed" : rng.pick(V.STAGES.slice(0, 4));
    const opportunityId = id("Opportunity");
    const product = rng.pick(sellable);
    t.Opportunity!.push({
      Id: opportunityId,
      ContractID__c: contract?.Id ?? null,
      AccountId: account.Id,
      ContactId: contact.Id,
      OwnerId: rng.pick(salesAgents),
      Probability: stage === "Closed" ? 100 : rng.pick([10, 20, 40, 60, 75]),
      Amount: rng.int(50, 900) * 100,
      StageName: stage,
      Name: `${account.Name} - ${product.Name}`,
      Description: `Opportunity to sell ${product.Name} to ${account.Name}.`,
      CreatedDate: datetime(createdDay, rng),
      CloseDate: contract ? String(contract.CompanySignedDate) : addDays(createdDay, rng.int(30, 180)),
    });
    const lineProducts = rng.sample(sellable, rng.int(2, 6));
    const lineIds = lineProducts.map((lineProduct) => {
      const quantity = rng.int(1, 30);
      const lineId = id("OpportunityLineItem");
      t.OpportunityLineItem!.push({
        Id: lineId,
        OpportunityId: opportunityId,
        Product2Id: lineProduct.Id,
        PricebookEntryId: entryOf.get(lineProduct.Id as string)!,
        Quantity: quantity,
        TotalPrice: quantity * listPrice.get(lineProduct.Id as string)!,
      });
      return { lineId, product: lineProduct };
    });
    // Activities: mostly the true stage's, a few 'Not Started' ones from other stages.
    const misstaged = !contract && rng.chance(0.2);
    const trueStage: V.Stage = misstaged ? rng.pick(V.STAGES.filter((s) => s !== stage)) : stage;
    opportunityTrueStage.set(opportunityId, trueStage);
    const owner = rng.pick(salesAgents);
    const own = rng.sample(V.STAGE_ACTIVITIES[trueStage], rng.int(3, 4));
    const foreign = rng.chance(0.6)
      ? rng.sample(
          V.STAGES.filter((s) => s !== trueStage).flatMap((s) => V.STAGE_ACTIVITIES[s]),
          rng.int(1, 2),
        )
      : [];
    [...own.map((subject) => ({ subject, foreign: false })), ...foreign.map((subject) => ({ subject, foreign: true }))].forEach(({ subject, foreign: isForeign }) => {
      t.Task!.push({
        Id: id("Task"),
        WhatId: opportunityId,
        OwnerId: owner,
        Priority: rng.pick(["Normal", "High"]),
        Status: isForeign || rng.chance(0.5) ? "Not Started" : "Completed",
        ActivityDate: addDays(createdDay, rng.int(1, 60)),
        Subject: subject,
        Description: `${subject} for ${account.Name}.`,
      });
    });
    if (rng.chance(0.6)) {
      const topics = rng.sample(V.INSIGHT_SUBTOPICS, rng.int(3, 5));
      const negative = topics.filter(() => rng.chance(0.5));
      if (negative.length === 0) negative.push(topics[0]!);
      opportunityNegativeTopics.set(opportunityId, negative);
      const lines = topics.map((topic) => `On ${topic.toLowerCase()}, the customer ${negative.includes(topic) ? rng.pick(V.NEGATIVE_REACTIONS) : rng.pick(V.POSITIVE_REACTIONS)}.`);
      t.VoiceCallTranscript__c!.push({
        Id: id("VoiceCallTranscript__c"),
        OpportunityId__c: opportunityId,
        LeadId__c: null,
        Body__c: lines.join("\n"),
        CreatedDate: datetime(addDays(createdDay, 5), rng),
        EndTime__c: datetime(addDays(createdDay, 5), rng),
      });
    }
    const quotes = stage === "Qualification" ? 0 : rng.int(0, 2);
    for (let q = 0; q < quotes; q++) {
      const quoteId = id("Quote");
      const quoteDay = addDays(createdDay, rng.int(5, 40));
      t.Quote!.push({
        Id: quoteId,
        OpportunityId: opportunityId,
        AccountId: account.Id,
        ContactId: contact.Id,
        Name: `Quote ${q + 1} for ${account.Name}`,
        Description: `Proposal for ${product.Name}.`,
        Status: rng.pick(V.QUOTE_STATUSES),
        CreatedDate: datetime(quoteDay, rng),
        ExpirationDate: addDays(quoteDay, 30),
      });
      quoteLines(rng, quoteId, lineIds, listPrice, entryOf, rules, t.QuoteLineItem!, () => id("QuoteLineItem"));
    }
  }
  return { opportunityTrueStage, opportunityNegativeTopics };
}

/** Events: meetings about random opportunities, owned by their owners. */
export function generateEvents({ rng, t, id, count }: OrgDraw): void {
  for (let i = 0; i < count("Event", 30); i++) {
    const opportunity = rng.pick(t.Opportunity!);
    const day = String(opportunity.CreatedDate).slice(0, 10);
    t.Event!.push({
      Id: id("Event"),
      WhatId: opportunity.Id,
      OwnerId: opportunity.OwnerId,
      StartDateTime: datetime(addDays(day, rng.int(1, 30)), rng),
      Subject: rng.pick(["Product demo", "Pricing call", "Technical deep dive"]),
      Description: `Meeting about ${opportunity.Name}.`,
      DurationInMinutes: rng.pick([30, 45, 60]),
      Location: rng.pick(["Zoom", "Customer site", "Headquarters"]),
      IsAllDayEvent: 0,
    });
  }
}

/**
 * Quote lines follow every rule, except in about a third of quotes where one rule is broken
 * on purpose (a discount over its limit, too few units, or two exclusive products together).
 */
function quoteLines(
  rng: Random,
  quoteId: string,
  opportunityLines: { lineId: string; product: Row }[],
  listPrice: ReadonlyMap<string, number>,
  entryOf: ReadonlyMap<string, string>,
  rules: readonly QuoteRule[],
  out: Row[],
  nextId: () => string,
): void {
  const ruleFor = (productId: string, kind: QuoteRule["kind"]) => rules.find((rule) => rule.kind === kind && rule.productId === productId);
  const chosen = opportunityLines.filter((line) => {
    const exclusive = rules.find((rule) => rule.kind === "exclusive" && rule.otherProductId === line.product.Id);
    return !exclusive;
  });
  const breakRule = rng.chance(0.35) ? rng.pick(rules) : undefined;
  const lines = chosen.map((line) => {
    const productId = line.product.Id as string;
    const discountRule = ruleFor(productId, "max_discount");
    const quantityRule = ruleFor(productId, "min_quantity");
    const limit = discountRule?.kind === "max_discount" ? discountRule.limit : 30;
    const minimum = quantityRule?.kind === "min_quantity" ? quantityRule.minimum : 1;
    return { lineId: line.lineId, productId, quantity: rng.int(minimum, minimum + 20), discount: rng.int(0, Math.min(limit, 30) - 5) };
  });
  if (breakRule) {
    if (breakRule.kind === "max_discount") {
      lines.push({ lineId: opportunityLines[0]!.lineId, productId: breakRule.productId, quantity: rng.int(1, 10), discount: breakRule.limit + rng.int(5, 15) });
    } else if (breakRule.kind === "min_quantity") {
      lines.push({ lineId: opportunityLines[0]!.lineId, productId: breakRule.productId, quantity: rng.int(1, breakRule.minimum - 1), discount: 0 });
    } else {
      for (const productId of [breakRule.productId, breakRule.otherProductId]) {
        if (!lines.some((line) => line.productId === productId)) lines.push({ lineId: opportunityLines[0]!.lineId, productId, quantity: rng.int(5, 25), discount: 0 });
      }
    }
  }
  for (const line of lines) {
    const unitPrice = listPrice.get(line.productId)!;
    out.push({
      Id: nextId(),
      QuoteId: quoteId,
      OpportunityLineItemId: line.lineId,
      Product2Id: line.productId,
      PricebookEntryId: entryOf.get(line.productId)!,
      Quantity: line.quantity,
      UnitPrice: unitPrice,
      Discount: line.discount,
      TotalPrice: Math.round(line.quantity * unitPrice * (100 - line.discount)) / 100,
    });
  }
}
