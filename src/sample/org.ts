import { addDays, Random } from "../util/index.js";
import { IdFactory, KEY_PREFIXES } from "./ids.js";
import * as V from "./vocabulary.js";

/** A generated record; `null` (or an absent key) is a missing value. */
export type Row = Record<string, string | number | null | undefined>;

/** The 27 objects of the CRMArena-Pro B2B org with their columns, in the real database's order. */
export const ORG_COLUMNS: Readonly<Record<string, readonly string[]>> = {
  Account: ["Id", "Name", "Phone", "Industry", "Description", "NumberOfEmployees", "ShippingState"],
  Contact: ["Id", "FirstName", "LastName", "Email", "AccountId"],
  User: ["Id", "FirstName", "LastName", "Email", "Phone", "Username", "Alias", "LanguageLocaleKey", "EmailEncodingKey", "TimeZoneSidKey", "LocaleSidKey"],
  Case: ["Id", "Priority", "Subject", "Description", "Status", "ContactId", "CreatedDate", "ClosedDate", "OrderItemId__c", "IssueId__c", "AccountId", "OwnerId"],
  CaseHistory__c: ["Id", "CaseId__c", "OldValue__c", "NewValue__c", "CreatedDate", "Field__c"],
  Issue__c: ["Id", "Name", "Description__c"],
  Knowledge__kav: ["Id", "Title", "FAQ_Answer__c", "Summary", "UrlName"],
  EmailMessage: ["Id", "Subject", "TextBody", "ParentId", "FromAddress", "ToIds", "MessageDate", "RelatedToId"],
  LiveChatTranscript: ["Id", "CaseId", "AccountId", "OwnerId", "Body", "EndTime", "LiveChatVisitorId", "ContactId"],
  Lead: [
    "Id",
    "FirstName",
    "LastName",
    "Email",
    "Phone",
    "Company",
    "Status",
    "ConvertedContactId",
    "ConvertedAccountId",
    "Title",
    "CreatedDate",
    "ConvertedDate",
    "IsConverted",
    "OwnerId",
  ],
  Opportunity: ["Id", "ContractID__c", "AccountId", "ContactId", "OwnerId", "Probability", "Amount", "StageName", "Name", "Description", "CreatedDate", "CloseDate"],
  OpportunityLineItem: ["Id", "OpportunityId", "Product2Id", "PricebookEntryId", "Quantity", "TotalPrice"],
  Contract: ["Id", "AccountId", "Status", "StartDate", "CustomerSignedDate", "CompanySignedDate", "Description", "ContractTerm"],
  Quote: ["Id", "OpportunityId", "AccountId", "ContactId", "Name", "Description", "Status", "CreatedDate", "ExpirationDate"],
  QuoteLineItem: ["Id", "QuoteId", "OpportunityLineItemId", "Product2Id", "PricebookEntryId", "Quantity", "UnitPrice", "Discount", "TotalPrice"],
  Order: ["Id", "AccountId", "Status", "EffectiveDate", "Pricebook2Id", "OwnerId"],
  OrderItem: ["Id", "OrderId", "Product2Id", "Quantity", "UnitPrice", "PriceBookEntryId"],
  Product2: ["Id", "Name", "Description", "IsActive", "External_ID__c"],
  ProductCategory: ["Id", "Name", "CatalogId"],
  ProductCategoryProduct: ["Id", "ProductCategoryId", "ProductId"],
  Pricebook2: ["Id", "Name", "Description", "IsActive", "ValidFrom", "ValidTo"],
  PricebookEntry: ["Id", "Pricebook2Id", "Product2Id", "UnitPrice"],
  Task: ["Id", "WhatId", "OwnerId", "Priority", "Status", "ActivityDate", "Subject", "Description"],
  Event: ["Id", "WhatId", "OwnerId", "StartDateTime", "Subject", "Description", "DurationInMinutes", "Location", "IsAllDayEvent"],
  VoiceCallTranscript__c: ["Id", "OpportunityId__c", "LeadId__c", "Body__c", "CreatedDate", "EndTime__c"],
  Territory2: ["Id", "Name", "Description"],
  UserTerritory2Association: ["Id", "UserId", "Territory2Id"],
};

/** Row counts of the real CRMArena-Pro B2B database (29,221 in all): `--scale 1`. */
export const REAL_ROW_COUNTS: Readonly<Record<string, number>> = {
  Account: 101,
  Contact: 886,
  User: 212,
  Case: 153,
  CaseHistory__c: 393,
  Issue__c: 15,
  Knowledge__kav: 194,
  EmailMessage: 5686,
  LiveChatTranscript: 58,
  Lead: 1465,
  Opportunity: 1170,
  OpportunityLineItem: 4926,
  Contract: 163,
  Quote: 704,
  QuoteLineItem: 2966,
  Order: 163,
  OrderItem: 689,
  Product2: 51,
  ProductCategory: 10,
  ProductCategoryProduct: 100,
  Pricebook2: 2,
  PricebookEntry: 50,
  Task: 4783,
  Event: 54,
  VoiceCallTranscript__c: 4033,
  Territory2: 10,
  UserTerritory2Association: 184,
};

/** A pricing or configuration rule written in a knowledge article. */
export type QuoteRule =
  | { readonly kind: "max_discount"; readonly articleId: string; readonly productId: string; readonly limit: number }
  | { readonly kind: "min_quantity"; readonly articleId: string; readonly productId: string; readonly minimum: number }
  | { readonly kind: "exclusive"; readonly articleId: string; readonly productId: string; readonly otherProductId: string };

/** What the generator planted, which the task generator turns into questions and answers. */
export interface SampleFacts {
  readonly serviceAgents: readonly string[];
  readonly salesAgents: readonly string[];
  readonly leadUnmet: ReadonlyMap<string, readonly V.BantFactor[]>;
  readonly opportunityTrueStage: ReadonlyMap<string, V.Stage>;
  readonly opportunityNegativeTopics: ReadonlyMap<string, readonly string[]>;
  readonly caseViolation: ReadonlyMap<string, string | null>;
  readonly productKind: ReadonlyMap<string, string>;
  readonly faqs: readonly { readonly articleId: string; readonly question: string; readonly answer: string }[];
  readonly rules: readonly QuoteRule[];
  readonly stageGuideArticleId: string;
}

export interface SampleOrg {
  readonly tables: Readonly<Record<string, Row[]>>;
  readonly facts: SampleFacts;
}

const FIRST_DAY = "2020-01-01";
const DAY_SPAN = 1815;

function datetime(date: string, rng: Random): string {
  return `${date}T${String(rng.int(8, 18)).padStart(2, "0")}:${String(rng.int(0, 59)).padStart(2, "0")}:${String(rng.int(0, 59)).padStart(2, "0")}.000+0000`;
}

function randomDay(rng: Random, from = FIRST_DAY, span = DAY_SPAN): string {
  return addDays(from, rng.int(0, span));
}

function phone(rng: Random): string {
  return `(${rng.int(200, 989)}) ${rng.int(200, 989)}-${String(rng.int(0, 9999)).padStart(4, "0")}`;
}

/**
 * Generates a consistent CRM org with the real schema. `scale` 1 gives the real database's
 * row counts; smaller scales keep enough records in the task-bearing objects for every category.
 */
export function generateOrg(seed: number | string, scale: number): SampleOrg {
  const rng = new Random(`org:${seed}`);
  const ids = new IdFactory(rng.int(1000, 9000));
  const id = (object: string) => ids.next(KEY_PREFIXES[object]!);
  const count = (object: string, floor: number) => Math.max(floor, Math.round(REAL_ROW_COUNTS[object]! * scale));
  const t: Record<string, Row[]> = Object.fromEntries(Object.keys(ORG_COLUMNS).map((name) => [name, []]));

  // People and places.
  const personName = () => [rng.pick(V.FIRST_NAMES), rng.pick(V.LAST_NAMES)] as const;
  for (let i = 0; i < count("User", 24); i++) {
    const [first, last] = personName();
    const alias = `${first.slice(0, 1)}${last.slice(0, 4)}${i}`.toLowerCase();
    t.User!.push({
      Id: id("User"),
      FirstName: first,
      LastName: last,
      Email: `${alias}@entropic-crm.example`,
      Phone: phone(rng),
      Username: `${alias}@entropic-crm.example.org`,
      Alias: alias.slice(0, 8),
      LanguageLocaleKey: "en_US",
      EmailEncodingKey: "UTF-8",
      TimeZoneSidKey: "America/Los_Angeles",
      LocaleSidKey: "en_US",
    });
  }
  const users = t.User!.map((user) => user.Id as string);
  const serviceAgents = users.slice(0, Math.max(8, Math.round(users.length * 0.1)));
  const salesAgents = users.slice(serviceAgents.length);

  const stateGroups = V.US_STATES.map((state, i) => ({ state, group: i % V.TERRITORY_NAMES.length }));
  V.TERRITORY_NAMES.forEach((name, group) => {
    const states = rng.shuffle(stateGroups.filter((entry) => entry.group === group).map((entry) => entry.state));
    t.Territory2!.push({ Id: id("Territory2"), Name: name, Description: states.join(", ") });
  });
  salesAgents.forEach((userId, i) => {
    t.UserTerritory2Association!.push({ Id: id("UserTerritory2Association"), UserId: userId, Territory2Id: t.Territory2![i % t.Territory2!.length]!.Id as string });
  });

  for (let i = 0; i < count("Account", 40); i++) {
    const name = `${rng.pick(V.COMPANY_WORDS_A)} ${rng.pick(V.COMPANY_WORDS_B)} ${rng.pick(V.COMPANY_WORDS_C)}`;
    t.Account!.push({
      Id: id("Account"),
      Name: name,
      Phone: phone(rng),
      Industry: rng.pick(V.INDUSTRIES),
      Description: `${name} builds products for the ${rng.pick(V.PRODUCT_DOMAINS)} market.`,
      NumberOfEmployees: rng.int(20, 5000),
      ShippingState: rng.pick(V.US_STATES),
    });
  }
  const accounts = t.Account!;
  for (let i = 0; i < count("Contact", 120); i++) {
    const [first, last] = personName();
    const account = rng.pick(accounts);
    t.Contact!.push({
      Id: id("Contact"),
      FirstName: first,
      LastName: last,
      Email: `${first}.${last}${i}@${String(account.Name).split(" ")[0]!.toLowerCase()}.example`.toLowerCase(),
      AccountId: account.Id as string,
    });
  }
  const contactsByAccount = groupBy(t.Contact!, "AccountId");

  // Catalogue.
  const productKind = new Map<string, string>();
  const kinds = rng.shuffle(V.PRODUCT_ADJECTIVES.flatMap((adjective) => V.PRODUCT_NOUNS.map((noun) => `${adjective} ${noun}`)));
  let productIndex = 0;
  for (const prefix of V.PRODUCT_PREFIXES) {
    for (const suffix of V.PRODUCT_SUFFIXES) {
      const productId = id("Product2");
      const kind = kinds[productIndex % kinds.length]!;
      productKind.set(productId, kind);
      t.Product2!.push({
        Id: productId,
        Name: `${prefix} ${suffix}`,
        Description: `${prefix} ${suffix} is a ${kind} for ${rng.pick(V.PRODUCT_DOMAINS)} teams.`,
        IsActive: 1,
        External_ID__c: `PRD-${String(++productIndex).padStart(4, "0")}`,
      });
    }
  }
  const products = t.Product2!;
  for (const name of V.PRODUCT_CATEGORIES) t.ProductCategory!.push({ Id: id("ProductCategory"), Name: name, CatalogId: "0ZSWt0000000001AAA" });
  for (let i = 0; i < count("ProductCategoryProduct", 100); i++) {
    t.ProductCategoryProduct!.push({
      Id: id("ProductCategoryProduct"),
      ProductCategoryId: t.ProductCategory![i % 10]!.Id as string,
      ProductId: products[(i * 7) % products.length]!.Id as string,
    });
  }
  t.Pricebook2!.push({ Id: id("Pricebook2"), Name: "Standard Price Book", Description: "Standard list prices", IsActive: 1, ValidFrom: "2020-01-01", ValidTo: "2025-12-31" });
  t.Pricebook2!.push({ Id: id("Pricebook2"), Name: "Partner Price Book", Description: "Prices for channel partners", IsActive: 1, ValidFrom: "2021-01-01", ValidTo: "2025-12-31" });
  const listPrice = new Map<string, number>();
  const entryOf = new Map<string, string>();
  for (const product of products.slice(0, count("PricebookEntry", 50))) {
    const price = rng.int(20, 400) * 25;
    listPrice.set(product.Id as string, price);
    const entryId = id("PricebookEntry");
    entryOf.set(product.Id as string, entryId);
    t.PricebookEntry!.push({ Id: entryId, Pricebook2Id: t.Pricebook2![0]!.Id as string, Product2Id: product.Id as string, UnitPrice: price });
  }
  const sellable = products.filter((product) => listPrice.has(product.Id as string));

  // Orders and contracts: one order per contract, same account, effective on the contract's start date.
  const orderItems: Row[] = t.OrderItem!;
  for (let i = 0; i < count("Contract", 70); i++) {
    const account = rng.pick(accounts);
    const signed = randomDay(rng);
    const start = addDays(signed, rng.int(1, 20));
    const contractId = id("Contract");
    t.Contract!.push({
      Id: contractId,
      AccountId: account.Id,
      Status: "Activated",
      StartDate: start,
      CustomerSignedDate: addDays(signed, -rng.int(0, 5)),
      CompanySignedDate: signed,
      Description: `Subscription agreement with ${account.Name}.`,
      ContractTerm: rng.pick([12, 24, 36]),
    });
    const orderId = id("Order");
    t.Order!.push({
      Id: orderId,
      AccountId: account.Id,
      Status: rng.chance(0.9) ? "Activated" : "Draft",
      EffectiveDate: start,
      Pricebook2Id: t.Pricebook2![0]!.Id as string,
      OwnerId: rng.pick(salesAgents),
    });
    const lines = rng.int(2, 6);
    for (const product of rng.sample(sellable, lines)) {
      const unit = listPrice.get(product.Id as string)! * rng.pick([1, 0.95, 0.9]);
      orderItems.push({
        Id: id("OrderItem"),
        OrderId: orderId,
        Product2Id: product.Id,
        Quantity: rng.int(1, 40),
        UnitPrice: Math.round(unit * 100) / 100,
        PriceBookEntryId: entryOf.get(product.Id as string)!,
      });
    }
  }

  // Service: issues, cases, case history, e-mails and chats. Cases concentrate on a few products.
  for (const issue of V.ISSUES) t.Issue__c!.push({ Id: id("Issue__c"), Name: issue.name, Description__c: issue.description });
  const issues = t.Issue__c!;
  const caseProducts = new Set(rng.sample(sellable, 8).map((product) => product.Id as string));
  const caseOrderItems = orderItems.filter((item) => caseProducts.has(item.Product2Id as string));
  const commonIssues = rng.sample(issues, 6);
  const knowledge: Row[] = t.Knowledge__kav!;
  const policyArticles = V.COMMUNICATION_POLICIES.map((policy) => {
    const articleId = id("Knowledge__kav");
    knowledge.push({
      Id: articleId,
      Title: policy.title,
      FAQ_Answer__c: `Agents must never say "${policy.phrase}" to a customer. Escalate such requests to a manager instead.`,
      Summary: `Communication policy: ${policy.title}.`,
      UrlName: slug(policy.title),
    });
    return { articleId, phrase: policy.phrase };
  });
  const caseViolation = new Map<string, string | null>();
  for (let i = 0; i < count("Case", 150); i++) {
    const item = rng.pick(caseOrderItems);
    const order = t.Order!.find((row) => row.Id === item.OrderId)!;
    const account = accounts.find((row) => row.Id === order.AccountId)!;
    const contact = rng.pick(contactsByAccount.get(account.Id as string) ?? t.Contact!);
    const issue = rng.chance(0.7) ? rng.pick(commonIssues) : rng.pick(issues);
    const product = products.find((row) => row.Id === item.Product2Id)!;
    const createdDay = randomDay(rng);
    const created = datetime(createdDay, rng);
    const closed = rng.chance(0.8);
    const closedAt = closed ? datetime(addDays(createdDay, rng.int(0, 25)), rng) : null;
    const caseId = id("Case");
    const owners = rng.chance(0.3) ? rng.sample(serviceAgents, rng.int(2, 3)) : [rng.pick(serviceAgents)];
    t.Case!.push({
      Id: caseId,
      Priority: rng.pick(V.CASE_PRIORITIES),
      Subject: `${issue.Name} with ${product.Name}`,
      Description: `${V.ISSUES.find((entry) => entry.name === issue.Name)!.description} Customer reports this on ${product.Name}.`,
      Status: closed ? "Closed" : rng.pick(["New", "Working", "Escalated"]),
      ContactId: contact.Id,
      CreatedDate: created,
      ClosedDate: closedAt,
      OrderItemId__c: item.Id,
      IssueId__c: issue.Id,
      AccountId: account.Id,
      OwnerId: owners[owners.length - 1]!,
    });
    t.CaseHistory__c!.push({ Id: id("CaseHistory__c"), CaseId__c: caseId, OldValue__c: null, NewValue__c: null, CreatedDate: created, Field__c: "Case Creation" });
    owners.forEach((owner, k) => {
      t.CaseHistory__c!.push({
        Id: id("CaseHistory__c"),
        CaseId__c: caseId,
        OldValue__c: k === 0 ? null : owners[k - 1]!,
        NewValue__c: owner,
        CreatedDate: created.replace(/T(\d\d)/, (_, h: string) => `T${String(Math.min(23, Number(h) + k)).padStart(2, "0")}`),
        Field__c: "Owner Assignment",
      });
    });
    if (closedAt) t.CaseHistory__c!.push({ Id: id("CaseHistory__c"), CaseId__c: caseId, OldValue__c: null, NewValue__c: null, CreatedDate: closedAt, Field__c: "Case Closed" });
    const violation = rng.chance(0.3) ? rng.pick(policyArticles) : null;
    caseViolation.set(caseId, violation?.articleId ?? null);
    const owner = t.User!.find((user) => user.Id === owners[owners.length - 1])!;
    const agentLines = [
      `Thank you for reporting the ${String(issue.Name).toLowerCase()}. We are looking into it.`,
      `I have escalated your case about ${product.Name} to our engineers.`,
      violation ? `To make up for this, here is what I can share: ${violation.phrase}.` : `We will update you as soon as a fix is available.`,
    ];
    const useChat = rng.chance(0.25);
    if (useChat) {
      t.LiveChatTranscript!.push({
        Id: id("LiveChatTranscript"),
        CaseId: caseId,
        AccountId: account.Id,
        OwnerId: owner.Id,
        Body: agentLines.map((line) => `Agent: ${line}`).join("\n"),
        EndTime: closedAt ?? created,
        LiveChatVisitorId: ids.next(KEY_PREFIXES.LiveChatVisitor!),
        ContactId: contact.Id,
      });
    } else {
      agentLines.forEach((line, k) => {
        t.EmailMessage!.push({
          Id: id("EmailMessage"),
          Subject: `Re: ${issue.Name}`,
          TextBody: line,
          ParentId: caseId,
          FromAddress: owner.Email,
          ToIds: contact.Id,
          MessageDate: datetime(addDays(createdDay, k), rng),
          RelatedToId: account.Id,
        });
      });
    }
  }
  // Background e-mail traffic up to the real volume.
  const cases = t.Case!;
  while (t.EmailMessage!.length < count("EmailMessage", 300)) {
    const kase = rng.pick(cases);
    t.EmailMessage!.push({
      Id: id("EmailMessage"),
      Subject: `Update on ${kase.Subject}`,
      TextBody: "Following up on your case; please let us know if the issue persists.",
      ParentId: kase.Id,
      FromAddress: `support@entropic-crm.example`,
      ToIds: kase.ContactId,
      MessageDate: datetime(String(kase.CreatedDate).slice(0, 10), rng),
      RelatedToId: kase.AccountId,
    });
  }

  // Knowledge: FAQs, the stage activity guide, the BANT guide, and quote rules.
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

  // Sales: leads, opportunities, line items, quotes, tasks, events, call transcripts.
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
      ConvertedContactId: converted ? rng.pick(contactsByAccount.get(account.Id as string) ?? t.Contact!).Id : null,
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

  const opportunityTrueStage = new Map<string, V.Stage>();
  const opportunityNegativeTopics = new Map<string, string[]>();
  const contracts = t.Contract!;
  const totalOpportunities = count("Opportunity", 200);
  for (let i = 0; i < totalOpportunities; i++) {
    const contract = i < contracts.length ? contracts[i]! : null;
    const account = contract ? accounts.find((row) => row.Id === contract.AccountId)! : rng.pick(accounts);
    const contact = rng.pick(contactsByAccount.get(account.Id as string) ?? t.Contact!);
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
  return {
    tables: t,
    facts: { serviceAgents, salesAgents, leadUnmet, opportunityTrueStage, opportunityNegativeTopics, caseViolation, productKind, faqs, rules, stageGuideArticleId },
  };
}

/**
 * Quote lines follow every rule, except in about a third of quotes where one rule is broken
 * on purpose (a discount over its limit, too few units, or two exclusive products together).
 */
function quoteLines(
  rng: Random,
  quoteId: string,
  opportunityLines: { lineId: string; product: Row }[],
  listPrice: Map<string, number>,
  entryOf: Map<string, string>,
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

/** The guide that lists each stage's activities, one line per stage. */
export function stageGuideText(): string {
  return V.STAGES.map((stage) => `${stage}: ${V.STAGE_ACTIVITIES[stage].join("; ")}.`).join("\n");
}

function slug(text: string): string {
  return text
    .toLowerCase()
    .replace(/[^a-z0-9]+/g, "-")
    .replace(/^-|-$/g, "");
}

function groupBy(rows: readonly Row[], key: string): Map<string, Row[]> {
  const groups = new Map<string, Row[]>();
  for (const row of rows) groups.set(String(row[key]), [...(groups.get(String(row[key])) ?? []), row]);
  return groups;
}
