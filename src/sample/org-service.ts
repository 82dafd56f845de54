import { addDays } from "../util/index.js";
import { KEY_PREFIXES } from "./ids.js";
import type { Catalogue } from "./org-catalogue.js";
import { datetime, type OrgDraw, randomDay, slug } from "./org-draw.js";
import { type Customers, contactOf, type Staff } from "./org-people.js";
import * as V from "./vocabulary.js";

/** What the service records plant: per case, the communication policy its agent broke (the article's Id), or null. */
export interface ServiceFacts {
  readonly caseViolation: ReadonlyMap<string, string | null>;
}

/**
 * Service: issues, the communication policies (knowledge articles), cases with their history,
 * e-mails or a chat each, then background e-mail up to the real volume. Cases concentrate on a few
 * products and issues.
 */
export function generateService(draw: OrgDraw, staff: Staff, customers: Customers, catalogue: Catalogue): ServiceFacts {
  const { rng, ids, t, id, count } = draw;
  const { serviceAgents } = staff;
  const { accounts } = customers;
  const { products, sellable } = catalogue;
  for (const issue of V.ISSUES) t.Issue__c!.push({ Id: id("Issue__c"), Name: issue.name, Description__c: issue.description });
  const issues = t.Issue__c!;
  const caseProducts = new Set(rng.sample(sellable, 8).map((product) => product.Id as string));
  const caseOrderItems = t.OrderItem!.filter((item) => caseProducts.has(item.Product2Id as string));
  const commonIssues = rng.sample(issues, 6);
  const policyArticles = V.COMMUNICATION_POLICIES.map((policy) => {
    const articleId = id("Knowledge__kav");
    t.Knowledge__kav!.push({
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
    const contact = contactOf(draw, customers, account);
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
  return { caseViolation };
}
