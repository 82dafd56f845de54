import { BASE62, caseSafeSuffix } from "../util/index.js";
/**
 * Issues 18-character Salesforce-style Ids: key prefix, the pod characters "Wt" seen in the
 * real org, a base-62 sequence, and the case-safe suffix.
 */
export class IdFactory {
  private readonly counters = new Map<string, number>();

  constructor(private readonly start: number) {}

  next(prefix: string): string {
    // Each prefix starts elsewhere in the sequence, so Ids of different objects never share a body.
    const offset = [...prefix].reduce((sum, ch) => sum * 31 + ch.charCodeAt(0), 0) % 50_000;
    const count = (this.counters.get(prefix) ?? this.start + offset) + 1;
    this.counters.set(prefix, count);
    let body = "";
    let rest = count * 7919 + 1_000_003;
    for (let i = 0; i < 10; i++) {
      body = BASE62[rest % 62]! + body;
      rest = Math.floor(rest / 62);
    }
    const id15 = `${prefix}Wt${body}`;
    return id15 + caseSafeSuffix(id15);
  }
}

/** Key prefixes of the 27 objects (real ones where the CRMArena-Pro org shows them). */
export const KEY_PREFIXES: Readonly<Record<string, string>> = {
  Account: "001",
  Contact: "003",
  User: "005",
  Opportunity: "006",
  Lead: "00Q",
  Task: "00T",
  Event: "00U",
  Case: "500",
  Contract: "800",
  Order: "801",
  OrderItem: "802",
  Quote: "0Q0",
  QuoteLineItem: "0QL",
  Product2: "01t",
  Pricebook2: "01s",
  PricebookEntry: "01u",
  OpportunityLineItem: "00k",
  Knowledge__kav: "ka0",
  Issue__c: "a03",
  CaseHistory__c: "a04",
  VoiceCallTranscript__c: "a05",
  EmailMessage: "02s",
  LiveChatTranscript: "570",
  LiveChatVisitor: "571",
  ProductCategory: "0ZG",
  ProductCategoryProduct: "0ZH",
  Territory2: "0MI",
  UserTerritory2Association: "0R0",
};
