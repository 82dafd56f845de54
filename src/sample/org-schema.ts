/** The shape of a generated org: the 27 objects of the CRMArena-Pro B2B org, their real row counts, and the facts the generator plants. */
import type * as V from "./vocabulary.js";

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
