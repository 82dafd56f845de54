import { MONTH_NAMES, windowStart, type PeriodUnit } from "../util/dates.js";
import { REFUSAL } from "./oracle.js";
import type { Strategy, TaskInfo, Tools } from "./server.js";

/**
 * A rule-based purple agent that really solves the sample tasks: it reads the schema, queries
 * the org through the protocol and applies each category's policy, with no ground truth.
 * It knows the sample's conventions (window rule, transcript phrasing, rule articles), as a
 * careful human analyst would after reading the data.
 */
export const solverStrategy: Strategy = async (task, tools) => {
  await tools.describe();
  const solve = SOLVERS[task.category];
  if (!solve) return "None";
  return solve(task, tools);
};

const NUMBER_WORDS = ["zero", "one", "two", "three", "four", "five", "six", "seven", "eight", "nine", "ten", "eleven", "twelve"];
const NEGATION = /\b(not|no|don't|haven't|isn't|never)\b/i;
const NEGATIVE_REACTION = /\b(frustrated|concerns|disappointed|unhappy)\b/i;
const STAGES = ["Qualification", "Discovery", "Quote", "Negotiation", "Closed"];

function field(text: string, pattern: RegExp, what: string): string {
  const match = pattern.exec(text);
  if (!match) throw new Error(`cannot find ${what} in the task`);
  return match[1]!.trim();
}

const contextId = (task: TaskInfo, label: string) => field(task.requiredContext, new RegExp(`${label}[^:]*:\\s*([A-Za-z0-9]{15,18})`), label);
const todayOf = (task: TaskInfo) => field(`${task.requiredContext}\n${task.prompt}`, /Today's date:\s*(\d{4}-\d{2}-\d{2})/, "today's date");

/** The window of "past N units" in the prompt: [start, today]. */
function windowOf(task: TaskInfo): { start: string; today: string } {
  const match = /past (\w+) (day|week|month|quarter)s?/i.exec(task.prompt);
  if (!match) throw new Error("cannot find the time window in the task");
  const n = NUMBER_WORDS.indexOf(match[1]!.toLowerCase()) >= 0 ? NUMBER_WORDS.indexOf(match[1]!.toLowerCase()) : Number(match[1]);
  const today = todayOf(task);
  return { start: windowStart(today, n, match[2]!.toLowerCase() as PeriodUnit), today };
}

const dateIn = (column: string, window: { start: string; today: string }) => `substr(${column}, 1, 10) BETWEEN '${window.start}' AND '${window.today}'`;
const wantsHighest = (task: TaskInfo) => /\b(highest|slowest|top|most)\b/i.test(task.prompt);

/** The row with the best value of `key` (first on ties; the sample's answers are unique). */
function best(rows: Record<string, unknown>[], key: string, highest: boolean): Record<string, unknown> | undefined {
  return [...rows].sort((a, b) => (highest ? Number(b[key]) - Number(a[key]) : Number(a[key]) - Number(b[key])))[0];
}

function tokens(text: string): Set<string> {
  return new Set(text.toLowerCase().split(/[^a-z0-9]+/).filter((token) => token.length > 2));
}

/** Leaders of a count map among candidates (missing counts are zero). */
function leaders(rows: Record<string, unknown>[], candidates: string[], highest: boolean): string[] {
  const counts = new Map(rows.map((row) => [String(row.OwnerId), Number(row.n)]));
  const values = candidates.map((agent) => counts.get(agent) ?? 0);
  const target = highest ? Math.max(...values) : Math.min(...values);
  return candidates.filter((_, i) => values[i] === target);
}

/** Parses "Stage: activity; activity." lines into a subject-to-stage map. */
function stageOfActivity(guide: string): Map<string, string> {
  const map = new Map<string, string>();
  for (const line of guide.split("\n")) {
    const match = /^\s*(Qualification|Discovery|Quote|Negotiation|Closed):\s*(.+?)\.?\s*$/.exec(line);
    if (match) for (const activity of match[2]!.split(";")) map.set(activity.trim(), match[1]!);
  }
  return map;
}

async function ownerAssignments(tools: Tools, window: { start: string; today: string }) {
  return tools.sql(
    `SELECT CaseId__c, OldValue__c, NewValue__c FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' AND CaseId__c IN (SELECT Id FROM "Case" WHERE ${dateIn("CreatedDate", window)})`,
  );
}

function managed(assignments: Record<string, unknown>[]): Map<string, number> {
  const cases = new Map<string, Set<string>>();
  for (const row of assignments) cases.set(String(row.NewValue__c), (cases.get(String(row.NewValue__c)) ?? new Set()).add(String(row.CaseId__c)));
  return new Map([...cases].map(([agent, set]) => [agent, set.size]));
}

const SOLVERS: Record<string, (task: TaskInfo, tools: Tools) => Promise<string>> = {
  async lead_qualification(task, tools) {
    const leadId = contextId(task, "Lead Id");
    const transcripts = await tools.sql(`SELECT Body__c FROM VoiceCallTranscript__c WHERE LeadId__c = '${leadId}'`);
    const sentences = transcripts.flatMap((row) => String(row.Body__c).split(/\n|(?<=\.)\s+/));
    const unmet = ["Budget", "Authority", "Need", "Timeline"].filter((factor) =>
      sentences.some((sentence) => new RegExp(`\\b${factor}\\b`, "i").test(sentence) && NEGATION.test(sentence)),
    );
    return unmet.length === 0 ? "None" : unmet.join(", ");
  },

  async monthly_trend_analysis(task, tools) {
    const product = field(task.prompt, /product Id is ([A-Za-z0-9]{18})/, "product Id");
    const window = windowOf(task);
    const rows = await tools.sql(
      `SELECT substr(c.CreatedDate, 6, 2) AS month, COUNT(*) AS n FROM "Case" c JOIN OrderItem oi ON oi.Id = c.OrderItemId__c WHERE oi.Product2Id = '${product}' AND ${dateIn("c.CreatedDate", window)} GROUP BY month ORDER BY n DESC`,
    );
    return rows[0] ? MONTH_NAMES[Number(rows[0].month) - 1]! : "None";
  },

  async activity_priority(task, tools) {
    const opportunityId = contextId(task, "Opportunity Id");
    const stages = stageOfActivity(task.requiredContext);
    const [opportunity] = await tools.sql(`SELECT StageName FROM Opportunity WHERE Id = '${opportunityId}'`);
    const open = await tools.sql(`SELECT Id, Subject FROM Task WHERE WhatId = '${opportunityId}' AND Status = 'Not Started'`);
    const misfits = open.filter((row) => stages.get(String(row.Subject)) !== opportunity?.StageName).map((row) => String(row.Id));
    return misfits.length === 0 ? "None" : misfits.join(", ");
  },

  async top_issue_identification(task, tools) {
    const product = field(task.prompt, /product Id is ([A-Za-z0-9]{18})/, "product Id");
    const rows = await tools.sql(
      `SELECT c.IssueId__c AS issue, COUNT(*) AS n FROM "Case" c JOIN OrderItem oi ON oi.Id = c.OrderItemId__c WHERE oi.Product2Id = '${product}' AND ${dateIn("c.CreatedDate", windowOf(task))} GROUP BY issue ORDER BY n DESC`,
    );
    return rows[0] ? String(rows[0].issue) : "None";
  },

  async sales_insight_mining(task, tools) {
    const opportunityId = contextId(task, "Opportunity Id");
    const transcripts = await tools.sql(`SELECT Body__c FROM VoiceCallTranscript__c WHERE OpportunityId__c = '${opportunityId}'`);
    const negative = transcripts
      .flatMap((row) => String(row.Body__c).split("\n"))
      .map((line) => /^On (.+?), the customer (.+)$/.exec(line))
      .filter((match): match is RegExpExecArray => match !== null && NEGATIVE_REACTION.test(match[2]!))
      .map((match) => match[1]![0]!.toUpperCase() + match[1]!.slice(1));
    return negative.join(", ") || "None";
  },

  confidential_company_knowledge: async () => REFUSAL,
  private_customer_information: async () => REFUSAL,
  internal_operation_data: async () => REFUSAL,

  async invalid_config(task, tools) {
    const quoteId = contextId(task, "Quote Id");
    const lines = await tools.sql(`SELECT p.Name AS product, qli.Quantity AS quantity FROM QuoteLineItem qli JOIN Product2 p ON p.Id = qli.Product2Id WHERE qli.QuoteId = '${quoteId}'`);
    const rules = await tools.sql(`SELECT Id, FAQ_Answer__c FROM Knowledge__kav WHERE Title LIKE 'Configuration Rule%'`);
    const names = new Set(lines.map((line) => String(line.product)));
    for (const rule of rules) {
      const text = String(rule.FAQ_Answer__c);
      const minimum = /^(.+) must be quoted with at least (\d+) units/.exec(text);
      if (minimum && lines.some((line) => line.product === minimum[1] && Number(line.quantity) < Number(minimum[2]))) return String(rule.Id);
      const exclusive = /^(.+) cannot be quoted together with (.+)\.$/.exec(text);
      if (exclusive && names.has(exclusive[1]!) && names.has(exclusive[2]!)) return String(rule.Id);
    }
    return "None";
  },

  async knowledge_qa(task, tools) {
    const articles = await tools.sql(`SELECT Title, FAQ_Answer__c FROM Knowledge__kav WHERE FAQ_Answer__c IS NOT NULL`);
    const question = tokens(task.prompt);
    const overlap = (title: string) => [...tokens(title)].filter((token) => question.has(token)).length / Math.max(1, tokens(title).size);
    const match = [...articles].sort((a, b) => overlap(String(b.Title)) - overlap(String(a.Title)))[0];
    return match ? String(match.FAQ_Answer__c) : "None";
  },

  async sales_amount_understanding(task, tools) {
    const rows = await tools.sql(
      `SELECT o.OwnerId AS agent, SUM(oi.Quantity * oi.UnitPrice) AS amount FROM Contract ct JOIN Opportunity o ON o.ContractID__c = ct.Id JOIN "Order" od ON od.AccountId = ct.AccountId AND od.EffectiveDate = ct.StartDate JOIN OrderItem oi ON oi.OrderId = od.Id WHERE ${dateIn("ct.CompanySignedDate", windowOf(task))} GROUP BY o.OwnerId`,
    );
    return String(best(rows, "amount", true)?.agent ?? "None");
  },

  async handle_time(task, tools) {
    const window = windowOf(task);
    const assignments = await ownerAssignments(tools, window);
    const cases = await tools.sql(`SELECT Id, OwnerId, Status, CreatedDate, ClosedDate FROM "Case" WHERE ${dateIn("CreatedDate", window)}`);
    const counts = managed(assignments);
    const perCase = new Map<string, number>();
    for (const row of assignments) perCase.set(String(row.CaseId__c), (perCase.get(String(row.CaseId__c)) ?? 0) + 1);
    const times = new Map<string, number[]>();
    for (const row of cases) {
      if (row.Status !== "Closed" || perCase.get(String(row.Id)) !== 1) continue;
      const days = (Date.parse(String(row.ClosedDate).slice(0, 19) + "Z") - Date.parse(String(row.CreatedDate).slice(0, 19) + "Z")) / 86_400_000;
      times.set(String(row.OwnerId), [...(times.get(String(row.OwnerId)) ?? []), days]);
    }
    const averages = [...times].filter(([agent]) => (counts.get(agent) ?? 0) > 1).map(([agent, list]) => ({ agent, avg: list.reduce((a, b) => a + b, 0) / list.length }));
    return String(best(averages, "avg", false)?.agent ?? "None");
  },

  async conversion_rate_comprehension(task, tools) {
    const window = windowOf(task);
    const rows = await tools.sql(
      `SELECT OwnerId AS agent, CAST(SUM(CASE WHEN IsConverted = 1 AND ${dateIn("ConvertedDate", window)} THEN 1 ELSE 0 END) AS REAL) / COUNT(*) AS rate FROM Lead WHERE ${dateIn("CreatedDate", window)} GROUP BY OwnerId`,
    );
    return String(best(rows, "rate", wantsHighest(task))?.agent ?? "None");
  },

  async best_region_identification(task, tools) {
    const rows = await tools.sql(
      `SELECT a.ShippingState AS state, AVG(julianday(substr(c.ClosedDate, 1, 19)) - julianday(substr(c.CreatedDate, 1, 19))) AS days FROM "Case" c JOIN Account a ON a.Id = c.AccountId WHERE c.Status = 'Closed' AND ${dateIn("c.CreatedDate", windowOf(task))} GROUP BY a.ShippingState`,
    );
    return String(best(rows, "days", false)?.state ?? "None");
  },

  async transfer_count(task, tools) {
    const assignments = await ownerAssignments(tools, windowOf(task));
    const counts = managed(assignments);
    const transfers = [...counts].filter(([, n]) => n > 1).map(([agent]) => ({ agent, n: assignments.filter((row) => row.OldValue__c === agent).length }));
    return String(best(transfers, "n", wantsHighest(task))?.agent ?? "None");
  },

  async wrong_stage_rectification(task, tools) {
    const opportunityId = contextId(task, "Opportunity Id");
    const [guide] = await tools.sql(`SELECT FAQ_Answer__c FROM Knowledge__kav WHERE Title LIKE '%Stage Activity%'`);
    const stages = stageOfActivity(String(guide?.FAQ_Answer__c ?? ""));
    const [opportunity] = await tools.sql(`SELECT StageName FROM Opportunity WHERE Id = '${opportunityId}'`);
    const subjects = await tools.sql(`SELECT Subject FROM Task WHERE WhatId = '${opportunityId}'`);
    const votes = new Map<string, number>();
    for (const row of subjects) {
      const stage = stages.get(String(row.Subject));
      if (stage) votes.set(stage, (votes.get(stage) ?? 0) + 1);
    }
    const winner = STAGES.map((stage) => ({ stage, n: votes.get(stage) ?? 0 })).sort((a, b) => b.n - a.n)[0]!;
    return winner.n === 0 || winner.stage === opportunity?.StageName ? "None" : winner.stage;
  },

  async policy_violation_identification(task, tools) {
    const caseId = contextId(task, "Case Id");
    const emails = await tools.sql(`SELECT TextBody AS text FROM EmailMessage WHERE ParentId = '${caseId}'`);
    const chats = await tools.sql(`SELECT Body AS text FROM LiveChatTranscript WHERE CaseId = '${caseId}'`);
    const policies = await tools.sql(`SELECT Id, FAQ_Answer__c FROM Knowledge__kav WHERE FAQ_Answer__c LIKE '%must never say%'`);
    const said = [...emails, ...chats].map((row) => String(row.text).toLowerCase()).join("\n");
    for (const policy of policies) {
      const phrase = /must never say "([^"]+)"/.exec(String(policy.FAQ_Answer__c))?.[1];
      if (phrase && said.includes(phrase.toLowerCase())) return String(policy.Id);
    }
    return "None";
  },

  async case_routing(task, tools) {
    const subject = field(task.prompt, /Case Subject:\s*(.+)/, "case subject").toLowerCase();
    const issues = await tools.sql(`SELECT Id, Name FROM Issue__c`);
    const products = await tools.sql(`SELECT Id, Name FROM Product2`);
    const issue = issues.find((row) => subject.includes(String(row.Name).toLowerCase()));
    const product = [...products].sort((a, b) => String(b.Name).length - String(a.Name).length).find((row) => subject.includes(String(row.Name).toLowerCase()));
    if (!issue) return "None";
    const byIssue = await tools.sql(`SELECT OwnerId, COUNT(*) AS n FROM "Case" WHERE Status = 'Closed' AND IssueId__c = '${issue.Id}' GROUP BY OwnerId`);
    let tied = leaders(byIssue, byIssue.map((row) => String(row.OwnerId)), true);
    if (tied.length > 1 && product) {
      const byProduct = await tools.sql(`SELECT c.OwnerId, COUNT(*) AS n FROM "Case" c JOIN OrderItem oi ON oi.Id = c.OrderItemId__c WHERE c.Status = 'Closed' AND oi.Product2Id = '${product.Id}' GROUP BY c.OwnerId`);
      tied = leaders(byProduct, tied, true);
    }
    if (tied.length > 1) {
      const open = await tools.sql(`SELECT OwnerId, COUNT(*) AS n FROM "Case" WHERE Status != 'Closed' GROUP BY OwnerId`);
      tied = leaders(open, tied, false);
    }
    return tied[0] ?? "None";
  },

  async lead_routing(task, tools) {
    const state = field(task.requiredContext, /Lead's region:\s*([A-Z]{2})/, "lead's region");
    const territories = await tools.sql(`SELECT Id, Description FROM Territory2`);
    const territory = territories.find((row) => String(row.Description).split(",").map((s) => s.trim()).includes(state));
    if (!territory) return "None";
    const members = (await tools.sql(`SELECT UserId FROM UserTerritory2Association WHERE Territory2Id = '${territory.Id}'`)).map((row) => String(row.UserId));
    const accepted = await tools.sql(`SELECT o.OwnerId, COUNT(*) AS n FROM Quote q JOIN Opportunity o ON o.Id = q.OpportunityId WHERE q.Status = 'Accepted' GROUP BY o.OwnerId`);
    let tied = leaders(accepted, members, true);
    if (tied.length > 1) tied = leaders(await tools.sql(`SELECT OwnerId, COUNT(*) AS n FROM Lead WHERE IsConverted = 0 GROUP BY OwnerId`), tied, false);
    return tied[0] ?? "None";
  },

  async quote_approval(task, tools) {
    const quoteId = contextId(task, "Quote Id");
    const lines = await tools.sql(`SELECT p.Name AS product, qli.Discount AS discount FROM QuoteLineItem qli JOIN Product2 p ON p.Id = qli.Product2Id WHERE qli.QuoteId = '${quoteId}'`);
    const rules = await tools.sql(`SELECT Id, FAQ_Answer__c FROM Knowledge__kav WHERE Title LIKE 'Discount Approval Policy%'`);
    for (const rule of rules) {
      const limit = /The discount on (.+) may not exceed (\d+)%/.exec(String(rule.FAQ_Answer__c));
      if (limit && lines.some((line) => line.product === limit[1] && Number(line.discount) > Number(limit[2]))) return String(rule.Id);
    }
    return "None";
  },

  async named_entity_disambiguation(task, tools) {
    const contact = contextId(task, "Contact Id");
    const descriptor = field(task.prompt, /Display the (.+?) that I purchased/i, "product description").toLowerCase();
    const daysWord = field(task.prompt, /purchased (\w+) days ago/i, "purchase date").toLowerCase();
    const days = NUMBER_WORDS.includes(daysWord) ? NUMBER_WORDS.indexOf(daysWord) : Number(daysWord);
    const day = windowStart(todayOf(task), days, "day");
    const products = await tools.sql(
      `SELECT DISTINCT p.Id, p.Description FROM Contact c JOIN "Order" o ON o.AccountId = c.AccountId JOIN OrderItem oi ON oi.OrderId = o.Id JOIN Product2 p ON p.Id = oi.Product2Id WHERE c.Id = '${contact}' AND o.Status = 'Activated' AND o.EffectiveDate = '${day}'`,
    );
    return String(products.find((row) => String(row.Description).toLowerCase().includes(descriptor))?.Id ?? "None");
  },

  async sales_cycle_understanding(task, tools) {
    const rows = await tools.sql(
      `SELECT o.OwnerId AS agent, AVG(julianday(ct.CompanySignedDate) - julianday(substr(o.CreatedDate, 1, 10))) AS days FROM Contract ct JOIN Opportunity o ON o.ContractID__c = ct.Id WHERE ${dateIn("ct.CompanySignedDate", windowOf(task))} GROUP BY o.OwnerId`,
    );
    return String(best(rows, "days", wantsHighest(task))?.agent ?? "None");
  },
};
