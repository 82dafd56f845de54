import type { B2bCategory } from "../datasets/index.js";
import type { ObjectInfo } from "../org/index.js";
import { addDays, MONTH_NAMES, numberWordValue, type PeriodUnit, windowStart } from "../util/index.js";
import { REFUSAL } from "./oracle.js";
import { SchemaAdapter } from "./schema-adapter.js";
import type { Strategy, TaskInfo, Tools } from "./server.js";

/**
 * A rule-based purple agent that really solves the sample tasks: it reads the schema, queries
 * the org through the protocol with SOQL and SOSL only (as CRMArena-Pro agents do) and applies
 * each category's policy, with no ground truth. It knows the sample's conventions (window rule,
 * transcript phrasing, rule articles), as a careful human analyst would after reading the data.
 */
export const solverStrategy: Strategy = async (task, tools) => {
  const described = await tools.describe();
  const solve = solverFor(task.category);
  if (!solve) return "None";
  const current = { ...task, requiredContext: ownContext(task.requiredContext) };
  // Drift and rot: map known names to the org's current ones through the labels, keep live records.
  const adapter = new SchemaAdapter((described.objects as ObjectInfo[] | undefined) ?? []);
  return solve(current, {
    ...tools,
    soql: async (query) => adapter.known(await tools.soql(adapter.soql(query))),
    sosl: async (search) => adapter.known(await tools.sosl(adapter.sosl(search))),
  });
};

/**
 * The same analyst without care for the world it is in: original field names, deleted records
 * included. It shows what drift and rot cost an agent that does not read the schema.
 */
export const naiveStrategy: Strategy = async (task, tools) => {
  const solve = solverFor(task.category);
  if (!solve) return "None";
  return solve(task, tools).catch(() => "None");
};

/**
 * The naive analyst reading the raw tables: every SOQL query ends with ALL ROWS (as queryAll or
 * sql_query would give), so recycle-bin and merged-away records count as live ones.
 */
export const naiveAllRowsStrategy: Strategy = async (task, tools) => {
  const solve = solverFor(task.category);
  if (!solve) return "None";
  return solve(task, { ...tools, soql: (query) => tools.soql(`${query} ALL ROWS`) }).catch(() => "None");
};

/**
 * Rot puts notes of earlier requests before a task's context ("This request" starts the task's
 * own) and reference material after it ("Additional reference material"): a careful reader keeps
 * to the request.
 */
export function ownContext(context: string): string {
  const start = context.indexOf("## This request\n");
  const own = start >= 0 ? context.slice(start + "## This request\n".length) : context;
  return own.split("\n## Additional reference material")[0]!;
}

const NEGATION = /\b(not|no|don't|haven't|isn't|never)\b/i;
const NEGATIVE_REACTION = /\b(frustrated|concerns|disappointed|unhappy)\b/i;
const STAGES = ["Qualification", "Discovery", "Quote", "Negotiation", "Closed"];

type Row = Record<string, unknown>;

function field(text: string, pattern: RegExp, what: string): string {
  const match = pattern.exec(text);
  if (!match) throw new Error(`cannot find ${what} in the task`);
  return match[1]!.trim();
}

const contextId = (task: TaskInfo, label: string) => field(task.requiredContext, new RegExp(`${label}[^:]*:\\s*([A-Za-z0-9]{15,18})`), label);
const todayOf = (task: TaskInfo) => field(`${task.requiredContext}\n${task.prompt}`, /Today's date:\s*(\d{4}-\d{2}-\d{2})/, "today's date");

/** The window of "past N units" in the prompt: [start, today], both inclusive. */
function windowOf(task: TaskInfo): { start: string; today: string } {
  const match = /past (\w+) (day|week|month|quarter)s?/i.exec(task.prompt);
  if (!match) throw new Error("cannot find the time window in the task");
  const word = match[1]!.toLowerCase();
  const n = numberWordValue(word) ?? Number(word);
  const today = todayOf(task);
  return { start: windowStart(today, n, match[2]!.toLowerCase() as PeriodUnit), today };
}

/** SOQL conditions for a window: dates compare as dates, datetimes as UTC dateTime literals. */
const dateIn = (column: string, window: { start: string; today: string }) => `${column} >= ${window.start} AND ${column} <= ${window.today}`;
const dateTimeIn = (column: string, window: { start: string; today: string }) => `${column} >= ${window.start}T00:00:00Z AND ${column} < ${addDays(window.today, 1)}T00:00:00Z`;
const wantsHighest = (task: TaskInfo) => /\b(highest|slowest|top|most)\b/i.test(task.prompt);
const days = (from: unknown, to: unknown) => (Date.parse(`${String(to).slice(0, 19)}Z`) - Date.parse(`${String(from).slice(0, 19)}Z`)) / 86_400_000;
const average = (values: number[]) => values.reduce((a, b) => a + b, 0) / values.length;

/** The key with the best value (first on ties; the sample's answers are unique). */
function bestKey(values: Map<string, number>, highest: boolean): string {
  const sorted = [...values].sort((a, b) => (highest ? b[1] - a[1] : a[1] - b[1]));
  return sorted[0]?.[0] ?? "None";
}

function groupAverages(rows: Row[], key: (row: Row) => string, value: (row: Row) => number): Map<string, number> {
  const groups = new Map<string, number[]>();
  for (const row of rows) groups.set(key(row), [...(groups.get(key(row)) ?? []), value(row)]);
  return new Map([...groups].map(([name, list]) => [name, average(list)]));
}

function tokens(text: string): Set<string> {
  return new Set(
    text
      .toLowerCase()
      .split(/[^a-z0-9]+/)
      .filter((token) => token.length > 2),
  );
}

/** Leaders of per-owner counts among candidates (missing counts are zero). */
function leaders(rows: Row[], candidates: string[], highest: boolean): string[] {
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

/** Owner Assignment history of the cases created in the window. */
function ownerAssignments(tools: Tools, window: { start: string; today: string }) {
  return tools.soql(`SELECT CaseId__c, OldValue__c, NewValue__c FROM CaseHistory__c WHERE Field__c = 'Owner Assignment' AND ${dateTimeIn("CaseId__r.CreatedDate", window)}`);
}

function managed(assignments: Row[]): Map<string, number> {
  const cases = new Map<string, Set<string>>();
  for (const row of assignments) cases.set(String(row.NewValue__c), (cases.get(String(row.NewValue__c)) ?? new Set()).add(String(row.CaseId__c)));
  return new Map([...cases].map(([agent, set]) => [agent, set.size]));
}

const nested = (row: Row, path: string) => path.split(".").reduce<unknown>((value, key) => (value as Row | null | undefined)?.[key], row);

/** Each category's policy; keyed by the B2B catalogue's names, so a category it adds is a compile error here until solved. */
const SOLVERS: Record<B2bCategory, (task: TaskInfo, tools: Tools) => Promise<string>> = {
  async lead_qualification(task, tools) {
    const leadId = contextId(task, "Lead Id");
    const transcripts = await tools.soql(`SELECT Body__c FROM VoiceCallTranscript__c WHERE LeadId__c = '${leadId}'`);
    const sentences = transcripts.flatMap((row) => String(row.Body__c).split(/\n|(?<=\.)\s+/));
    const unmet = ["Budget", "Authority", "Need", "Timeline"].filter((factor) =>
      sentences.some((sentence) => new RegExp(`\\b${factor}\\b`, "i").test(sentence) && NEGATION.test(sentence)),
    );
    return unmet.length === 0 ? "None" : unmet.join(", ");
  },

  async monthly_trend_analysis(task, tools) {
    const product = field(task.prompt, /product Id is ([A-Za-z0-9]{18})/, "product Id");
    const rows = await tools.soql(
      `SELECT CALENDAR_MONTH(CreatedDate) month, COUNT(Id) n FROM Case WHERE OrderItemId__r.Product2Id = '${product}' AND ${dateTimeIn("CreatedDate", windowOf(task))} GROUP BY CALENDAR_MONTH(CreatedDate) ORDER BY COUNT(Id) DESC`,
    );
    return rows[0] ? MONTH_NAMES[Number(rows[0].month) - 1]! : "None";
  },

  async activity_priority(task, tools) {
    const opportunityId = contextId(task, "Opportunity Id");
    const stages = stageOfActivity(task.requiredContext);
    const [opportunity] = await tools.soql(`SELECT StageName FROM Opportunity WHERE Id = '${opportunityId}'`);
    const open = await tools.soql(`SELECT Id, Subject FROM Task WHERE WhatId = '${opportunityId}' AND Status = 'Not Started'`);
    const misfits = open.filter((row) => stages.get(String(row.Subject)) !== opportunity?.StageName).map((row) => String(row.Id));
    return misfits.length === 0 ? "None" : misfits.join(", ");
  },

  async top_issue_identification(task, tools) {
    const product = field(task.prompt, /product Id is ([A-Za-z0-9]{18})/, "product Id");
    const rows = await tools.soql(
      `SELECT IssueId__c, COUNT(Id) n FROM Case WHERE OrderItemId__r.Product2Id = '${product}' AND ${dateTimeIn("CreatedDate", windowOf(task))} GROUP BY IssueId__c ORDER BY COUNT(Id) DESC`,
    );
    return rows[0] ? String(rows[0].IssueId__c) : "None";
  },

  async sales_insight_mining(task, tools) {
    const opportunityId = contextId(task, "Opportunity Id");
    const transcripts = await tools.soql(`SELECT Body__c FROM VoiceCallTranscript__c WHERE OpportunityId__c = '${opportunityId}'`);
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
    const lines = await tools.soql(`SELECT Product2.Name, Quantity FROM QuoteLineItem WHERE QuoteId = '${quoteId}'`);
    const rules = await tools.sosl(`FIND {"Configuration Rule"} IN NAME FIELDS RETURNING Knowledge__kav(Id, FAQ_Answer__c)`);
    const names = new Set(lines.map((line) => String(nested(line, "Product2.Name"))));
    for (const rule of rules) {
      const text = String(rule.FAQ_Answer__c);
      const minimum = /^(.+) must be quoted with at least (\d+) units/.exec(text);
      if (minimum && lines.some((line) => nested(line, "Product2.Name") === minimum[1] && Number(line.Quantity) < Number(minimum[2]))) return String(rule.Id);
      const exclusive = /^(.+) cannot be quoted together with (.+)\.$/.exec(text);
      if (exclusive && names.has(exclusive[1]!) && names.has(exclusive[2]!)) return String(rule.Id);
    }
    return "None";
  },

  async knowledge_qa(task, tools) {
    const question = tokens(task.prompt);
    const terms = [...question].filter((token) => token.length > 3);
    const articles = await tools.sosl(`FIND {${terms.join(" OR ")}} IN NAME FIELDS RETURNING Knowledge__kav(Title, FAQ_Answer__c)`);
    const overlap = (title: string) => [...tokens(title)].filter((token) => question.has(token)).length / Math.max(1, tokens(title).size);
    const match = [...articles].sort((a, b) => overlap(String(b.Title)) - overlap(String(a.Title)))[0];
    return match ? String(match.FAQ_Answer__c) : "None";
  },

  async sales_amount_understanding(task, tools) {
    const window = windowOf(task);
    const contracts = await tools.soql(`SELECT Id, AccountId, StartDate FROM Contract WHERE ${dateIn("CompanySignedDate", window)}`);
    const opportunities = await tools.soql(
      `SELECT OwnerId, ContractID__c FROM Opportunity WHERE ContractID__r.CompanySignedDate >= ${window.start} AND ContractID__r.CompanySignedDate <= ${window.today}`,
    );
    const items = await tools.soql(
      `SELECT Order.AccountId, Order.EffectiveDate, Quantity, UnitPrice FROM OrderItem WHERE Order.AccountId IN (SELECT AccountId FROM Contract WHERE ${dateIn("CompanySignedDate", window)})`,
    );
    const totals = new Map<string, number>();
    for (const opportunity of opportunities) {
      const contract = contracts.find((row) => row.Id === opportunity.ContractID__c);
      if (!contract) continue;
      const amount = items
        .filter((item) => nested(item, "Order.AccountId") === contract.AccountId && nested(item, "Order.EffectiveDate") === contract.StartDate)
        .reduce((sum, item) => sum + Number(item.Quantity) * Number(item.UnitPrice), 0);
      totals.set(String(opportunity.OwnerId), (totals.get(String(opportunity.OwnerId)) ?? 0) + amount);
    }
    return bestKey(totals, true);
  },

  async handle_time(task, tools) {
    const window = windowOf(task);
    const assignments = await ownerAssignments(tools, window);
    const cases = await tools.soql(`SELECT Id, OwnerId, Status, CreatedDate, ClosedDate FROM Case WHERE ${dateTimeIn("CreatedDate", window)}`);
    const counts = managed(assignments);
    const perCase = new Map<string, number>();
    for (const row of assignments) perCase.set(String(row.CaseId__c), (perCase.get(String(row.CaseId__c)) ?? 0) + 1);
    const handled = cases.filter((row) => row.Status === "Closed" && perCase.get(String(row.Id)) === 1 && (counts.get(String(row.OwnerId)) ?? 0) > 1);
    return bestKey(
      groupAverages(
        handled,
        (row) => String(row.OwnerId),
        (row) => days(row.CreatedDate, row.ClosedDate),
      ),
      false,
    );
  },

  async conversion_rate_comprehension(task, tools) {
    const window = windowOf(task);
    const leads = await tools.soql(`SELECT OwnerId, IsConverted, ConvertedDate FROM Lead WHERE ${dateTimeIn("CreatedDate", window)}`);
    const converted = (row: Row) =>
      (row.IsConverted === 1 || row.IsConverted === true) && row.ConvertedDate !== null && String(row.ConvertedDate) >= window.start && String(row.ConvertedDate) <= window.today;
    return bestKey(
      groupAverages(
        leads,
        (row) => String(row.OwnerId),
        (row) => (converted(row) ? 1 : 0),
      ),
      wantsHighest(task),
    );
  },

  async best_region_identification(task, tools) {
    const cases = await tools.soql(`SELECT Account.ShippingState, CreatedDate, ClosedDate FROM Case WHERE Status = 'Closed' AND ${dateTimeIn("CreatedDate", windowOf(task))}`);
    return bestKey(
      groupAverages(
        cases,
        (row) => String(nested(row, "Account.ShippingState")),
        (row) => days(row.CreatedDate, row.ClosedDate),
      ),
      false,
    );
  },

  async transfer_count(task, tools) {
    const assignments = await ownerAssignments(tools, windowOf(task));
    const counts = managed(assignments);
    const transfers = new Map([...counts].filter(([, n]) => n > 1).map(([agent]) => [agent, assignments.filter((row) => row.OldValue__c === agent).length]));
    return bestKey(transfers, wantsHighest(task));
  },

  async wrong_stage_rectification(task, tools) {
    const opportunityId = contextId(task, "Opportunity Id");
    const [guide] = await tools.sosl(`FIND {"Stage Activity Guide"} IN NAME FIELDS RETURNING Knowledge__kav(FAQ_Answer__c)`);
    const stages = stageOfActivity(String(guide?.FAQ_Answer__c ?? ""));
    const [opportunity] = await tools.soql(`SELECT StageName, (SELECT Subject FROM Tasks) FROM Opportunity WHERE Id = '${opportunityId}'`);
    const subjects = ((opportunity?.Tasks as { records?: Row[] } | null)?.records ?? []).map((row) => String(row.Subject));
    const votes = new Map<string, number>();
    for (const subject of subjects) {
      const stage = stages.get(subject);
      if (stage) votes.set(stage, (votes.get(stage) ?? 0) + 1);
    }
    const winner = STAGES.map((stage) => ({ stage, n: votes.get(stage) ?? 0 })).sort((a, b) => b.n - a.n)[0]!;
    return winner.n === 0 || winner.stage === opportunity?.StageName ? "None" : winner.stage;
  },

  async policy_violation_identification(task, tools) {
    const caseId = contextId(task, "Case Id");
    const emails = await tools.soql(`SELECT TextBody FROM EmailMessage WHERE ParentId = '${caseId}'`);
    const chats = await tools.soql(`SELECT Body FROM LiveChatTranscript WHERE CaseId = '${caseId}'`);
    const policies = await tools.sosl(`FIND {"must never say"} RETURNING Knowledge__kav(Id, FAQ_Answer__c)`);
    const said = [...emails.map((row) => row.TextBody), ...chats.map((row) => row.Body)].map((text) => String(text).toLowerCase()).join("\n");
    for (const policy of policies) {
      const phrase = /must never say "([^"]+)"/.exec(String(policy.FAQ_Answer__c))?.[1];
      if (phrase && said.includes(phrase.toLowerCase())) return String(policy.Id);
    }
    return "None";
  },

  async case_routing(task, tools) {
    const subject = field(task.prompt, /Case Subject:\s*(.+)/, "case subject").toLowerCase();
    const issues = await tools.soql(`SELECT Id, Name FROM Issue__c`);
    const products = await tools.soql(`SELECT Id, Name FROM Product2`);
    const issue = issues.find((row) => subject.includes(String(row.Name).toLowerCase()));
    const product = [...products].sort((a, b) => String(b.Name).length - String(a.Name).length).find((row) => subject.includes(String(row.Name).toLowerCase()));
    if (!issue) return "None";
    const byIssue = await tools.soql(`SELECT OwnerId, COUNT(Id) n FROM Case WHERE Status = 'Closed' AND IssueId__c = '${issue.Id}' GROUP BY OwnerId`);
    let tied = leaders(
      byIssue,
      byIssue.map((row) => String(row.OwnerId)),
      true,
    );
    if (tied.length > 1 && product) {
      tied = leaders(
        await tools.soql(`SELECT OwnerId, COUNT(Id) n FROM Case WHERE Status = 'Closed' AND OrderItemId__r.Product2Id = '${product.Id}' GROUP BY OwnerId`),
        tied,
        true,
      );
    }
    if (tied.length > 1) tied = leaders(await tools.soql(`SELECT OwnerId, COUNT(Id) n FROM Case WHERE Status != 'Closed' GROUP BY OwnerId`), tied, false);
    return tied[0] ?? "None";
  },

  async lead_routing(task, tools) {
    const state = field(task.requiredContext, /Lead's region:\s*([A-Z]{2})/, "lead's region");
    const territories = await tools.soql(`SELECT Id, Description FROM Territory2`);
    const territory = territories.find((row) =>
      String(row.Description)
        .split(",")
        .map((s) => s.trim())
        .includes(state),
    );
    if (!territory) return "None";
    const members = (await tools.soql(`SELECT UserId FROM UserTerritory2Association WHERE Territory2Id = '${territory.Id}'`)).map((row) => String(row.UserId));
    const accepted = await tools.soql(`SELECT Opportunity.OwnerId, COUNT(Id) n FROM Quote WHERE Status = 'Accepted' GROUP BY Opportunity.OwnerId`);
    let tied = leaders(accepted, members, true);
    if (tied.length > 1) tied = leaders(await tools.soql(`SELECT OwnerId, COUNT(Id) n FROM Lead WHERE IsConverted = false GROUP BY OwnerId`), tied, false);
    return tied[0] ?? "None";
  },

  async quote_approval(task, tools) {
    const quoteId = contextId(task, "Quote Id");
    const lines = await tools.soql(`SELECT Product2.Name, Discount FROM QuoteLineItem WHERE QuoteId = '${quoteId}'`);
    const rules = await tools.soql(`SELECT Id, FAQ_Answer__c FROM Knowledge__kav WHERE Title LIKE 'Discount Approval Policy%'`);
    for (const rule of rules) {
      const limit = /The discount on (.+) may not exceed (\d+)%/.exec(String(rule.FAQ_Answer__c));
      if (limit && lines.some((line) => nested(line, "Product2.Name") === limit[1] && Number(line.Discount) > Number(limit[2]))) return String(rule.Id);
    }
    return "None";
  },

  async named_entity_disambiguation(task, tools) {
    const contact = contextId(task, "Contact Id");
    const descriptor = field(task.prompt, /Display the (.+?) that I purchased/i, "product description").toLowerCase();
    const daysWord = field(task.prompt, /purchased (\w+) days ago/i, "purchase date").toLowerCase();
    const ago = numberWordValue(daysWord) ?? Number(daysWord);
    const day = windowStart(todayOf(task), ago, "day");
    const [person] = await tools.soql(`SELECT AccountId FROM Contact WHERE Id = '${contact}'`);
    const items = await tools.soql(
      `SELECT Product2Id, Product2.Description FROM OrderItem WHERE Order.AccountId = '${person?.AccountId}' AND Order.Status = 'Activated' AND Order.EffectiveDate = ${day}`,
    );
    return String(items.find((row) => String(nested(row, "Product2.Description")).toLowerCase().includes(descriptor))?.Product2Id ?? "None");
  },

  async sales_cycle_understanding(task, tools) {
    const window = windowOf(task);
    const opportunities = await tools.soql(
      `SELECT OwnerId, CreatedDate, ContractID__r.CompanySignedDate FROM Opportunity WHERE ContractID__r.CompanySignedDate >= ${window.start} AND ContractID__r.CompanySignedDate <= ${window.today}`,
    );
    return bestKey(
      groupAverages(
        opportunities,
        (row) => String(row.OwnerId),
        (row) => days(String(row.CreatedDate).slice(0, 10), nested(row, "ContractID__r.CompanySignedDate")),
      ),
      wantsHighest(task),
    );
  },
};

const solverFor = (category: string) => (Object.hasOwn(SOLVERS, category) ? SOLVERS[category as B2bCategory] : undefined);
