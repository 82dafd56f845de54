import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { openOrg, runSoql, runSosl, type OrgStore } from "../src/org/index.js";
import { SAMPLE_ORG } from "./helpers.js";

/**
 * The SOQL/SOSL corpus. Every expected result is computed independently of the translator:
 * a hand-written SQLite query (date ranges worked out by hand from Salesforce's definitions,
 * for TODAY = 2023-06-15, a Thursday) or plain TypeScript over the rows.
 */
const TODAY = "2023-06-15";
let org: OrgStore;

beforeAll(() => {
  org = openOrg(SAMPLE_ORG, { workers: 2 });
});
afterAll(() => org.close());

async function sql(query: string): Promise<Record<string, unknown>[]> {
  const outcome = await org.query(query, { maxRows: 5000 });
  if (!outcome.ok) throw new Error(`expected SQL failed: ${outcome.message}\n${query}`);
  return outcome.rows as Record<string, unknown>[];
}

/** Nested Salesforce records as flat rows: `{Account: {ShippingState}}` → `{"Account.ShippingState"}`, attributes dropped. */
function flatten(record: Record<string, unknown>, prefix = ""): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === "attributes") continue;
    if (value !== null && typeof value === "object" && !Array.isArray(value) && !("records" in value)) Object.assign(flat, flatten(value as Record<string, unknown>, `${prefix}${key}.`));
    else flat[`${prefix}${key}`] = value;
  }
  return flat;
}

const byJson = (a: unknown, b: unknown) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);
const round = (rows: Record<string, unknown>[]) => rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === "number" ? Math.round(v * 1e6) / 1e6 : v])));

interface Case {
  readonly soql: string;
  readonly sql: string;
  /** Compare in order (queries with ORDER BY); otherwise as sets. */
  readonly ordered?: boolean;
  readonly allowEmpty?: boolean;
}

async function check({ soql, sql: expectedSql, ordered, allowEmpty }: Case) {
  const outcome = await runSoql(org, soql, TODAY);
  if (!outcome.ok) throw new Error(`${soql}\n→ ${outcome.code}: ${outcome.message}`);
  const expected = round(await sql(expectedSql));
  const actual = round(outcome.records.map((record) => flatten(record)));
  if (!allowEmpty) expect(expected.length, `expected rows for ${soql}`).toBeGreaterThan(0);
  if (ordered) expect(actual).toEqual(expected);
  else expect([...actual].sort(byJson)).toEqual([...expected].sort(byJson));
}

const OBJECTS = ["Account", "Contact", "User", "Case", "CaseHistory__c", "Issue__c", "Knowledge__kav", "EmailMessage", "LiveChatTranscript", "Lead", "Opportunity", "OpportunityLineItem", "Contract", "Quote", "QuoteLineItem", "Order", "OrderItem", "Product2", "ProductCategory", "ProductCategoryProduct", "Pricebook2", "PricebookEntry", "Task", "Event", "VoiceCallTranscript__c", "Territory2", "UserTerritory2Association"];

const corpus: Record<string, Case[]> = {
  "every object, names case-insensitive": OBJECTS.map((object, i) => ({
    soql: `SELECT Id FROM ${i % 2 ? object.toLowerCase() : object} ORDER BY Id LIMIT 3`,
    sql: `SELECT Id FROM "${object}" ORDER BY Id LIMIT 3`,
    ordered: true,
  })),
  "text comparison is case-insensitive": [
    { soql: "SELECT Id, Status FROM Case WHERE Status = 'closed'", sql: `SELECT Id, Status FROM "Case" WHERE Status = 'Closed'` },
    { soql: "SELECT Id FROM Account WHERE Industry = 'ELECTRONICS'", sql: `SELECT Id FROM Account WHERE Industry = 'Electronics'` },
    { soql: "SELECT Id FROM Lead WHERE Status = 'closed - converted'", sql: `SELECT Id FROM Lead WHERE Status = 'Closed - Converted'` },
    { soql: "SELECT Id FROM Opportunity WHERE StageName = 'negotiation'", sql: `SELECT Id FROM Opportunity WHERE StageName = 'Negotiation'` },
    { soql: "SELECT Id FROM Quote WHERE Status = 'accepted'", sql: `SELECT Id FROM Quote WHERE Status = 'Accepted'` },
    { soql: "SELECT Id FROM Task WHERE Status = 'NOT STARTED'", sql: `SELECT Id FROM Task WHERE Status = 'Not Started'` },
    { soql: "SELECT Id FROM CaseHistory__c WHERE Field__c = 'owner assignment'", sql: `SELECT Id FROM CaseHistory__c WHERE Field__c = 'Owner Assignment'` },
  ],
  "not equal": [
    { soql: "SELECT Id FROM Case WHERE Status != 'Closed'", sql: `SELECT Id FROM "Case" WHERE Status <> 'Closed'` },
    { soql: "SELECT Id FROM Case WHERE Priority <> 'high'", sql: `SELECT Id FROM "Case" WHERE Priority <> 'High'` },
    { soql: "SELECT Id FROM Opportunity WHERE StageName != 'Closed'", sql: `SELECT Id FROM Opportunity WHERE StageName <> 'Closed'` },
    { soql: "SELECT Id FROM Order WHERE Status != 'Activated'", sql: `SELECT Id FROM "Order" WHERE Status <> 'Activated'` },
  ],
  LIKE: [
    { soql: "SELECT Id FROM Product2 WHERE Name LIKE 'secure%'", sql: `SELECT Id FROM Product2 WHERE substr(lower(Name), 1, 6) = 'secure'` },
    { soql: "SELECT Id FROM Product2 WHERE Name LIKE '%suite'", sql: `SELECT Id FROM Product2 WHERE lower(Name) GLOB '*suite'` },
    { soql: "SELECT Id FROM Knowledge__kav WHERE Title LIKE '%Policy%'", sql: `SELECT Id FROM Knowledge__kav WHERE instr(lower(Title), 'policy') > 0` },
    { soql: "SELECT Id FROM Issue__c WHERE Name LIKE 'Log_n%'", sql: `SELECT Id FROM Issue__c WHERE lower(Name) GLOB 'log?n*'` },
    { soql: "SELECT Id FROM Account WHERE Name LIKE '%design%'", sql: `SELECT Id FROM Account WHERE instr(lower(Name), 'design') > 0` },
    { soql: "SELECT Id FROM Case WHERE Subject LIKE '%Failure%' AND Status = 'Closed'", sql: `SELECT Id FROM "Case" WHERE instr(lower(Subject), 'failure') > 0 AND Status = 'Closed'` },
    { soql: "SELECT Id FROM Contact WHERE NOT Email LIKE '%.example'", sql: `SELECT Id FROM Contact WHERE lower(Email) NOT GLOB '*.example'`, allowEmpty: true },
  ],
  "IN and NOT IN": [
    { soql: "SELECT Id FROM Case WHERE Priority IN ('High', 'low')", sql: `SELECT Id FROM "Case" WHERE Priority IN ('High', 'Low')` },
    { soql: "SELECT Id FROM Case WHERE Status NOT IN ('Closed', 'New')", sql: `SELECT Id FROM "Case" WHERE Status NOT IN ('Closed', 'New')` },
    { soql: "SELECT Id FROM Opportunity WHERE StageName IN ('Quote', 'Negotiation')", sql: `SELECT Id FROM Opportunity WHERE StageName IN ('Quote', 'Negotiation')` },
    { soql: "SELECT Id FROM Account WHERE ShippingState IN ('CA', 'ny', 'TX')", sql: `SELECT Id FROM Account WHERE ShippingState IN ('CA', 'NY', 'TX')`, allowEmpty: true },
    { soql: "SELECT Id FROM Opportunity WHERE Probability IN (10, 20)", sql: `SELECT Id FROM Opportunity WHERE Probability IN (10, 20)` },
    { soql: "SELECT Id FROM Quote WHERE Status NOT IN ('Draft')", sql: `SELECT Id FROM Quote WHERE Status <> 'Draft'` },
  ],
  numbers: [
    { soql: "SELECT Id FROM Opportunity WHERE Amount > 50000", sql: `SELECT Id FROM Opportunity WHERE Amount > 50000` },
    { soql: "SELECT Id FROM Opportunity WHERE Amount <= 10000", sql: `SELECT Id FROM Opportunity WHERE Amount <= 10000` },
    { soql: "SELECT Id FROM OrderItem WHERE Quantity >= 35", sql: `SELECT Id FROM OrderItem WHERE Quantity >= 35` },
    { soql: "SELECT Id FROM OrderItem WHERE UnitPrice < 1000.5", sql: `SELECT Id FROM OrderItem WHERE UnitPrice < 1000.5` },
    { soql: "SELECT Id FROM Account WHERE NumberOfEmployees > 4000", sql: `SELECT Id FROM Account WHERE NumberOfEmployees > 4000` },
    { soql: "SELECT Id FROM QuoteLineItem WHERE Discount > 25", sql: `SELECT Id FROM QuoteLineItem WHERE Discount > 25` },
    { soql: "SELECT Id FROM PricebookEntry WHERE UnitPrice = 5000", sql: `SELECT Id FROM PricebookEntry WHERE UnitPrice = 5000`, allowEmpty: true },
    { soql: "SELECT Id FROM Event WHERE DurationInMinutes != 60", sql: `SELECT Id FROM Event WHERE DurationInMinutes <> 60` },
  ],
  booleans: [
    { soql: "SELECT Id FROM Lead WHERE IsConverted = true", sql: `SELECT Id FROM Lead WHERE IsConverted = 1` },
    { soql: "SELECT Id FROM Lead WHERE IsConverted = FALSE", sql: `SELECT Id FROM Lead WHERE IsConverted = 0` },
    { soql: "SELECT Id FROM Product2 WHERE IsActive = true", sql: `SELECT Id FROM Product2 WHERE IsActive = 1` },
  ],
  nulls: [
    { soql: "SELECT Id FROM Case WHERE ClosedDate = null", sql: `SELECT Id FROM "Case" WHERE ClosedDate IS NULL` },
    { soql: "SELECT Id FROM Case WHERE ClosedDate != null", sql: `SELECT Id FROM "Case" WHERE ClosedDate IS NOT NULL` },
    { soql: "SELECT Id FROM Opportunity WHERE ContractID__c != NULL", sql: `SELECT Id FROM Opportunity WHERE ContractID__c IS NOT NULL` },
    { soql: "SELECT Id FROM Lead WHERE ConvertedDate = null AND IsConverted = false", sql: `SELECT Id FROM Lead WHERE ConvertedDate IS NULL AND IsConverted = 0` },
    { soql: "SELECT Id FROM CaseHistory__c WHERE OldValue__c != null", sql: `SELECT Id FROM CaseHistory__c WHERE OldValue__c IS NOT NULL` },
  ],
  "AND, OR, NOT and parentheses": [
    { soql: "SELECT Id FROM Case WHERE Status = 'Closed' AND Priority = 'High'", sql: `SELECT Id FROM "Case" WHERE Status = 'Closed' AND Priority = 'High'` },
    { soql: "SELECT Id FROM Case WHERE Status = 'New' OR Priority = 'Low'", sql: `SELECT Id FROM "Case" WHERE Status = 'New' OR Priority = 'Low'` },
    { soql: "SELECT Id FROM Case WHERE (Status = 'New' OR Status = 'Working') AND Priority = 'High'", sql: `SELECT Id FROM "Case" WHERE Status IN ('New', 'Working') AND Priority = 'High'`, allowEmpty: true },
    { soql: "SELECT Id FROM Case WHERE Status = 'Closed' AND (Priority = 'High' OR Priority = 'Low')", sql: `SELECT Id FROM "Case" WHERE Status = 'Closed' AND Priority <> 'Medium'` },
    { soql: "SELECT Id FROM Case WHERE NOT Status = 'Closed'", sql: `SELECT Id FROM "Case" WHERE Status <> 'Closed'` },
    { soql: "SELECT Id FROM Case WHERE NOT (Status = 'Closed' OR Priority = 'Low')", sql: `SELECT Id FROM "Case" WHERE Status <> 'Closed' AND Priority <> 'Low'` },
    { soql: "SELECT Id FROM Opportunity WHERE (StageName = 'Quote' AND Amount > 30000) OR (StageName = 'Discovery' AND Amount < 20000)", sql: `SELECT Id FROM Opportunity WHERE (StageName = 'Quote' AND Amount > 30000) OR (StageName = 'Discovery' AND Amount < 20000)` },
    { soql: "SELECT Id FROM Lead WHERE IsConverted = true AND NOT Title = 'CTO'", sql: `SELECT Id FROM Lead WHERE IsConverted = 1 AND Title <> 'CTO'` },
  ],
  "relationship fields": [
    { soql: "SELECT Id, Account.ShippingState FROM Case", sql: `SELECT c.Id, a.ShippingState AS "Account.ShippingState" FROM "Case" c JOIN Account a ON a.Id = c.AccountId` },
    { soql: "SELECT Id, Owner.FirstName, Owner.LastName FROM Case", sql: `SELECT c.Id, u.FirstName AS "Owner.FirstName", u.LastName AS "Owner.LastName" FROM "Case" c JOIN "User" u ON u.Id = c.OwnerId` },
    { soql: "SELECT Id, Owner.Name FROM Lead LIMIT 50", sql: `SELECT l.Id, u.FirstName || ' ' || u.LastName AS "Owner.Name" FROM Lead l JOIN "User" u ON u.Id = l.OwnerId LIMIT 50` },
    { soql: "SELECT Id, OrderItemId__r.Product2Id FROM Case", sql: `SELECT c.Id, oi.Product2Id AS "OrderItemId__r.Product2Id" FROM "Case" c JOIN OrderItem oi ON oi.Id = c.OrderItemId__c` },
    { soql: "SELECT Id, Contact.Account.Name FROM Case", sql: `SELECT c.Id, a.Name AS "Contact.Account.Name" FROM "Case" c JOIN Contact ct ON ct.Id = c.ContactId JOIN Account a ON a.Id = ct.AccountId` },
    { soql: "SELECT Id, Opportunity.StageName, Opportunity.Account.Industry FROM Quote", sql: `SELECT q.Id, o.StageName AS "Opportunity.StageName", a.Industry AS "Opportunity.Account.Industry" FROM Quote q JOIN Opportunity o ON o.Id = q.OpportunityId JOIN Account a ON a.Id = o.AccountId` },
    { soql: "SELECT Id, Quote.Status, Product2.Name FROM QuoteLineItem", sql: `SELECT l.Id, q.Status AS "Quote.Status", p.Name AS "Product2.Name" FROM QuoteLineItem l JOIN Quote q ON q.Id = l.QuoteId JOIN Product2 p ON p.Id = l.Product2Id` },
    { soql: "SELECT Id, CaseId__r.Subject FROM CaseHistory__c WHERE Field__c = 'Case Closed'", sql: `SELECT h.Id, c.Subject AS "CaseId__r.Subject" FROM CaseHistory__c h JOIN "Case" c ON c.Id = h.CaseId__c WHERE h.Field__c = 'Case Closed'` },
    { soql: "SELECT Id, Case.Subject FROM Case WHERE Case.Priority = 'High'", sql: `SELECT Id, Subject AS "Subject" FROM "Case" WHERE Priority = 'High'` },
    { soql: "SELECT Id FROM Case WHERE Account.ShippingState = 'ny'", sql: `SELECT c.Id FROM "Case" c JOIN Account a ON a.Id = c.AccountId WHERE a.ShippingState = 'NY'` },
    { soql: "SELECT Id FROM Opportunity WHERE Account.Industry = 'Automotive' AND Owner.LastName LIKE 'S%'", sql: `SELECT o.Id FROM Opportunity o JOIN Account a ON a.Id = o.AccountId JOIN "User" u ON u.Id = o.OwnerId WHERE a.Industry = 'Automotive' AND u.LastName LIKE 'S%'`, allowEmpty: true },
    { soql: "SELECT Id FROM Task WHERE What.StageName = 'Closed'", sql: `SELECT t.Id FROM Task t JOIN Opportunity o ON o.Id = t.WhatId WHERE o.StageName = 'Closed'` },
    { soql: "SELECT Id, Territory2.Name, User.LastName FROM UserTerritory2Association", sql: `SELECT x.Id, t.Name AS "Territory2.Name", u.LastName AS "User.LastName" FROM UserTerritory2Association x JOIN Territory2 t ON t.Id = x.Territory2Id JOIN "User" u ON u.Id = x.UserId` },
  ],
  "semi-joins and anti-joins": [
    { soql: "SELECT Id FROM Case WHERE OrderItemId__c IN (SELECT Id FROM OrderItem WHERE Quantity > 30)", sql: `SELECT Id FROM "Case" WHERE OrderItemId__c IN (SELECT Id FROM OrderItem WHERE Quantity > 30)` },
    { soql: "SELECT Id, Name FROM Account WHERE Id IN (SELECT AccountId FROM Case WHERE Priority = 'High')", sql: `SELECT Id, Name FROM Account WHERE Id IN (SELECT AccountId FROM "Case" WHERE Priority = 'High')` },
    { soql: "SELECT Id FROM Account WHERE Id NOT IN (SELECT AccountId FROM Case)", sql: `SELECT Id FROM Account WHERE Id NOT IN (SELECT AccountId FROM "Case")`, allowEmpty: true },
    { soql: "SELECT Id FROM User WHERE Id IN (SELECT OwnerId FROM Lead WHERE IsConverted = true)", sql: `SELECT Id FROM "User" WHERE Id IN (SELECT OwnerId FROM Lead WHERE IsConverted = 1)` },
    { soql: "SELECT Id FROM Opportunity WHERE Id NOT IN (SELECT OpportunityId FROM Quote)", sql: `SELECT Id FROM Opportunity WHERE Id NOT IN (SELECT OpportunityId FROM Quote)` },
    { soql: "SELECT Id FROM Knowledge__kav WHERE Id IN (SELECT Id FROM Knowledge__kav WHERE Title LIKE 'Why%')", sql: `SELECT Id FROM Knowledge__kav WHERE Title LIKE 'Why%'` },
  ],
  "typed date and datetime literals": [
    { soql: "SELECT Id FROM Opportunity WHERE CloseDate >= 2023-01-01 AND CloseDate < 2023-07-01", sql: `SELECT Id FROM Opportunity WHERE CloseDate BETWEEN '2023-01-01' AND '2023-06-30'` },
    { soql: "SELECT Id FROM Contract WHERE CompanySignedDate = 2022-03-15", sql: `SELECT Id FROM Contract WHERE CompanySignedDate = '2022-03-15'`, allowEmpty: true },
    { soql: "SELECT Id FROM Task WHERE ActivityDate > 2024-06-30", sql: `SELECT Id FROM Task WHERE ActivityDate > '2024-06-30'` },
    { soql: "SELECT Id FROM Order WHERE EffectiveDate <= 2020-12-31", sql: `SELECT Id FROM "Order" WHERE EffectiveDate <= '2020-12-31'` },
    { soql: "SELECT Id FROM Case WHERE CreatedDate > 2023-01-01T00:00:00Z", sql: `SELECT Id FROM "Case" WHERE CreatedDate > '2023-01-01T00:00:00.000+0000'` },
    { soql: "SELECT Id FROM Case WHERE CreatedDate < 2021-06-01T12:00:00Z AND CreatedDate >= 2021-01-01T00:00:00Z", sql: `SELECT Id FROM "Case" WHERE CreatedDate < '2021-06-01T12:00:00.000+0000' AND CreatedDate >= '2021-01-01T00:00:00.000+0000'` },
    { soql: "SELECT Id FROM Lead WHERE CreatedDate >= 2022-01-01T02:00:00+02:00", sql: `SELECT Id FROM Lead WHERE CreatedDate >= '2022-01-01T00:00:00.000+0000'` },
    { soql: "SELECT Id FROM EmailMessage WHERE MessageDate < 2020-03-01T00:00:00-05:00", sql: `SELECT Id FROM EmailMessage WHERE MessageDate < '2020-03-01T05:00:00.000+0000'` },
  ],
  "relative date literals (TODAY = 2023-06-15)": [
    { soql: "SELECT Id FROM Task WHERE ActivityDate = LAST_N_DAYS:60", sql: `SELECT Id FROM Task WHERE ActivityDate BETWEEN '2023-04-16' AND '2023-06-15'` },
    { soql: "SELECT Id FROM Lead WHERE CreatedDate = LAST_N_DAYS:90", sql: `SELECT Id FROM Lead WHERE substr(CreatedDate, 1, 10) BETWEEN '2023-03-17' AND '2023-06-15'` },
    { soql: "SELECT Id FROM Task WHERE ActivityDate = NEXT_N_DAYS:30", sql: `SELECT Id FROM Task WHERE ActivityDate BETWEEN '2023-06-16' AND '2023-07-15'` },
    { soql: "SELECT Id FROM Task WHERE ActivityDate = LAST_N_MONTHS:3", sql: `SELECT Id FROM Task WHERE ActivityDate BETWEEN '2023-03-01' AND '2023-05-31'` },
    { soql: "SELECT Id FROM Task WHERE ActivityDate = THIS_MONTH", sql: `SELECT Id FROM Task WHERE ActivityDate BETWEEN '2023-06-01' AND '2023-06-30'` },
    { soql: "SELECT Id FROM Task WHERE ActivityDate = LAST_MONTH", sql: `SELECT Id FROM Task WHERE ActivityDate BETWEEN '2023-05-01' AND '2023-05-31'` },
    { soql: "SELECT Id FROM Task WHERE ActivityDate = NEXT_MONTH", sql: `SELECT Id FROM Task WHERE ActivityDate BETWEEN '2023-07-01' AND '2023-07-31'` },
    { soql: "SELECT Id FROM Task WHERE ActivityDate = THIS_QUARTER", sql: `SELECT Id FROM Task WHERE ActivityDate BETWEEN '2023-04-01' AND '2023-06-30'` },
    { soql: "SELECT Id FROM Task WHERE ActivityDate = LAST_QUARTER", sql: `SELECT Id FROM Task WHERE ActivityDate BETWEEN '2023-01-01' AND '2023-03-31'` },
    { soql: "SELECT Id FROM Task WHERE ActivityDate = NEXT_QUARTER", sql: `SELECT Id FROM Task WHERE ActivityDate BETWEEN '2023-07-01' AND '2023-09-30'` },
    { soql: "SELECT Id FROM Task WHERE ActivityDate = LAST_N_QUARTERS:2", sql: `SELECT Id FROM Task WHERE ActivityDate BETWEEN '2022-10-01' AND '2023-03-31'` },
    { soql: "SELECT Id FROM Case WHERE CreatedDate = LAST_N_QUARTERS:4", sql: `SELECT Id FROM "Case" WHERE substr(CreatedDate, 1, 10) BETWEEN '2022-04-01' AND '2023-03-31'` },
    { soql: "SELECT Id FROM Case WHERE CreatedDate = THIS_YEAR", sql: `SELECT Id FROM "Case" WHERE substr(CreatedDate, 1, 4) = '2023'` },
    { soql: "SELECT Id FROM Case WHERE CreatedDate = LAST_YEAR", sql: `SELECT Id FROM "Case" WHERE substr(CreatedDate, 1, 4) = '2022'` },
    { soql: "SELECT Id FROM Contract WHERE CompanySignedDate = LAST_N_YEARS:2", sql: `SELECT Id FROM Contract WHERE CompanySignedDate BETWEEN '2021-01-01' AND '2022-12-31'` },
    { soql: "SELECT Id FROM Task WHERE ActivityDate = THIS_WEEK", sql: `SELECT Id FROM Task WHERE ActivityDate BETWEEN '2023-06-11' AND '2023-06-17'`, allowEmpty: true },
    { soql: "SELECT Id FROM Task WHERE ActivityDate = LAST_WEEK", sql: `SELECT Id FROM Task WHERE ActivityDate BETWEEN '2023-06-04' AND '2023-06-10'`, allowEmpty: true },
    { soql: "SELECT Id FROM Task WHERE ActivityDate = TODAY", sql: `SELECT Id FROM Task WHERE ActivityDate = '2023-06-15'`, allowEmpty: true },
    { soql: "SELECT Id FROM Task WHERE ActivityDate = YESTERDAY", sql: `SELECT Id FROM Task WHERE ActivityDate = '2023-06-14'`, allowEmpty: true },
    { soql: "SELECT Id FROM Task WHERE ActivityDate = N_DAYS_AGO:20", sql: `SELECT Id FROM Task WHERE ActivityDate = '2023-05-26'`, allowEmpty: true },
    { soql: "SELECT Id FROM Task WHERE ActivityDate > TODAY", sql: `SELECT Id FROM Task WHERE ActivityDate > '2023-06-15'` },
    { soql: "SELECT Id FROM Task WHERE ActivityDate < THIS_YEAR", sql: `SELECT Id FROM Task WHERE ActivityDate < '2023-01-01'` },
    { soql: "SELECT Id FROM Task WHERE ActivityDate >= LAST_N_MONTHS:1 AND ActivityDate <= THIS_MONTH", sql: `SELECT Id FROM Task WHERE ActivityDate BETWEEN '2023-05-01' AND '2023-06-30'` },
    { soql: "SELECT Id FROM Case WHERE ClosedDate > LAST_MONTH", sql: `SELECT Id FROM "Case" WHERE substr(ClosedDate, 1, 10) >= '2023-06-01'` },
    { soql: "SELECT Id FROM Opportunity WHERE CloseDate != THIS_YEAR AND CloseDate = LAST_N_YEARS:1", sql: `SELECT Id FROM Opportunity WHERE substr(CloseDate, 1, 4) = '2022'` },
  ],
  "date functions": [
    { soql: "SELECT CALENDAR_MONTH(CreatedDate), COUNT(Id) FROM Case GROUP BY CALENDAR_MONTH(CreatedDate)", sql: `SELECT CAST(substr(CreatedDate, 6, 2) AS INTEGER) AS expr0, COUNT(*) AS expr1 FROM "Case" GROUP BY 1` },
    { soql: "SELECT CALENDAR_YEAR(CreatedDate) y, COUNT(Id) n FROM Lead GROUP BY CALENDAR_YEAR(CreatedDate)", sql: `SELECT CAST(substr(CreatedDate, 1, 4) AS INTEGER) AS y, COUNT(*) AS n FROM Lead GROUP BY 1` },
    { soql: "SELECT CALENDAR_QUARTER(CloseDate) q, COUNT(Id) n FROM Opportunity GROUP BY CALENDAR_QUARTER(CloseDate)", sql: `SELECT CASE WHEN CAST(substr(CloseDate, 6, 2) AS INTEGER) <= 3 THEN 1 WHEN CAST(substr(CloseDate, 6, 2) AS INTEGER) <= 6 THEN 2 WHEN CAST(substr(CloseDate, 6, 2) AS INTEGER) <= 9 THEN 3 ELSE 4 END AS q, COUNT(*) AS n FROM Opportunity GROUP BY 1` },
    { soql: "SELECT DAY_ONLY(CreatedDate) d, COUNT(Id) n FROM Case WHERE CreatedDate = THIS_YEAR GROUP BY DAY_ONLY(CreatedDate)", sql: `SELECT substr(CreatedDate, 1, 10) AS d, COUNT(*) AS n FROM "Case" WHERE substr(CreatedDate, 1, 4) = '2023' GROUP BY 1` },
    { soql: "SELECT DAY_IN_MONTH(ActivityDate) d, COUNT(Id) n FROM Task GROUP BY DAY_IN_MONTH(ActivityDate)", sql: `SELECT CAST(substr(ActivityDate, 9, 2) AS INTEGER) AS d, COUNT(*) AS n FROM Task GROUP BY 1` },
    { soql: "SELECT WEEK_IN_YEAR(ActivityDate) w, COUNT(Id) n FROM Task WHERE ActivityDate = THIS_YEAR GROUP BY WEEK_IN_YEAR(ActivityDate)", sql: `SELECT (CAST(strftime('%j', ActivityDate) AS INTEGER) - 1) / 7 + 1 AS w, COUNT(*) AS n FROM Task WHERE substr(ActivityDate, 1, 4) = '2023' GROUP BY 1` },
    { soql: "SELECT Id FROM Case WHERE CALENDAR_YEAR(CreatedDate) = 2022", sql: `SELECT Id FROM "Case" WHERE CreatedDate LIKE '2022-%'` },
    { soql: "SELECT Id FROM Case WHERE CALENDAR_MONTH(CreatedDate) = 11 AND CALENDAR_YEAR(CreatedDate) > 2021", sql: `SELECT Id FROM "Case" WHERE substr(CreatedDate, 6, 2) = '11' AND substr(CreatedDate, 1, 4) > '2021'` },
    { soql: "SELECT Id FROM Lead WHERE DAY_IN_WEEK(CreatedDate) = 1", sql: `SELECT Id FROM Lead WHERE strftime('%w', substr(CreatedDate, 1, 10)) = '0'` },
    { soql: "SELECT HOUR_IN_DAY(CreatedDate) h, COUNT(Id) n FROM Case GROUP BY HOUR_IN_DAY(CreatedDate)", sql: `SELECT CAST(substr(CreatedDate, 12, 2) AS INTEGER) AS h, COUNT(*) AS n FROM "Case" GROUP BY 1` },
  ],
  aggregates: [
    { soql: "SELECT COUNT(Id) FROM Case", sql: `SELECT COUNT(*) AS expr0 FROM "Case"` },
    { soql: "SELECT COUNT(ClosedDate) FROM Case", sql: `SELECT COUNT(ClosedDate) AS expr0 FROM "Case"` },
    { soql: "SELECT COUNT(Id) total FROM Lead WHERE IsConverted = true", sql: `SELECT COUNT(*) AS total FROM Lead WHERE IsConverted = 1` },
    { soql: "SELECT COUNT_DISTINCT(OwnerId) FROM Case", sql: `SELECT COUNT(DISTINCT OwnerId) AS expr0 FROM "Case"` },
    { soql: "SELECT SUM(Amount), AVG(Amount), MIN(Amount), MAX(Amount) FROM Opportunity", sql: `SELECT SUM(Amount) AS expr0, AVG(Amount) AS expr1, MIN(Amount) AS expr2, MAX(Amount) AS expr3 FROM Opportunity` },
    { soql: "SELECT SUM(Quantity) q, AVG(UnitPrice) FROM OrderItem", sql: `SELECT SUM(Quantity) AS q, AVG(UnitPrice) AS expr0 FROM OrderItem` },
    { soql: "SELECT MIN(CreatedDate), MAX(CreatedDate) FROM Case", sql: `SELECT MIN(CreatedDate) AS expr0, MAX(CreatedDate) AS expr1 FROM "Case"` },
    { soql: "SELECT MAX(CloseDate) latest FROM Opportunity WHERE StageName = 'Closed'", sql: `SELECT MAX(CloseDate) AS latest FROM Opportunity WHERE StageName = 'Closed'` },
    { soql: "SELECT AVG(Discount) FROM QuoteLineItem WHERE Discount > 0", sql: `SELECT AVG(Discount) AS expr0 FROM QuoteLineItem WHERE Discount > 0` },
    { soql: "SELECT COUNT(Id), SUM(TotalPrice) FROM QuoteLineItem WHERE Quote.Status = 'Accepted'", sql: `SELECT COUNT(*) AS expr0, SUM(l.TotalPrice) AS expr1 FROM QuoteLineItem l JOIN Quote q ON q.Id = l.QuoteId WHERE q.Status = 'Accepted'` },
  ],
  "GROUP BY and HAVING": [
    { soql: "SELECT OwnerId, COUNT(Id) FROM Case GROUP BY OwnerId", sql: `SELECT OwnerId, COUNT(*) AS expr0 FROM "Case" GROUP BY OwnerId` },
    { soql: "SELECT Status, COUNT(Id) n FROM Case GROUP BY Status", sql: `SELECT Status, COUNT(*) AS n FROM "Case" GROUP BY Status` },
    { soql: "SELECT Account.ShippingState, COUNT(Id) FROM Case GROUP BY Account.ShippingState", sql: `SELECT a.ShippingState AS ShippingState, COUNT(*) AS expr0 FROM "Case" c JOIN Account a ON a.Id = c.AccountId GROUP BY a.ShippingState` },
    { soql: "SELECT OrderItemId__r.Product2Id, COUNT(Id) FROM Case GROUP BY OrderItemId__r.Product2Id", sql: `SELECT oi.Product2Id AS Product2Id, COUNT(*) AS expr0 FROM "Case" c JOIN OrderItem oi ON oi.Id = c.OrderItemId__c GROUP BY oi.Product2Id` },
    { soql: "SELECT OwnerId, COUNT(Id) FROM Lead GROUP BY OwnerId HAVING COUNT(Id) > 15", sql: `SELECT OwnerId, COUNT(*) AS expr0 FROM Lead GROUP BY OwnerId HAVING COUNT(*) > 15` },
    { soql: "SELECT IssueId__c, COUNT(Id) n FROM Case WHERE Status = 'Closed' GROUP BY IssueId__c HAVING COUNT(Id) >= 10", sql: `SELECT IssueId__c, COUNT(*) AS n FROM "Case" WHERE Status = 'Closed' GROUP BY IssueId__c HAVING COUNT(*) >= 10` },
    { soql: "SELECT StageName, SUM(Amount) total, AVG(Probability) FROM Opportunity GROUP BY StageName", sql: `SELECT StageName, SUM(Amount) AS total, AVG(Probability) AS expr0 FROM Opportunity GROUP BY StageName` },
    { soql: "SELECT Status, Priority, COUNT(Id) FROM Case GROUP BY Status, Priority", sql: `SELECT Status, Priority, COUNT(*) AS expr0 FROM "Case" GROUP BY Status, Priority` },
    { soql: "SELECT WhatId, COUNT(Id) FROM Task WHERE Status = 'Not Started' GROUP BY WhatId HAVING COUNT(Id) > 3", sql: `SELECT WhatId, COUNT(*) AS expr0 FROM Task WHERE Status = 'Not Started' GROUP BY WhatId HAVING COUNT(*) > 3`, allowEmpty: true },
  ],
  "ORDER BY, NULLS, LIMIT, OFFSET": [
    { soql: "SELECT Id, Amount FROM Opportunity ORDER BY Amount DESC, Id LIMIT 10", sql: `SELECT Id, Amount FROM Opportunity ORDER BY Amount DESC, Id LIMIT 10`, ordered: true },
    { soql: "SELECT Id, ClosedDate FROM Case ORDER BY ClosedDate ASC NULLS FIRST, Id LIMIT 20", sql: `SELECT Id, ClosedDate FROM "Case" ORDER BY ClosedDate IS NOT NULL, ClosedDate, Id LIMIT 20`, ordered: true },
    { soql: "SELECT Id, ClosedDate FROM Case ORDER BY ClosedDate ASC NULLS LAST, Id LIMIT 20", sql: `SELECT Id, ClosedDate FROM "Case" ORDER BY ClosedDate IS NULL, ClosedDate, Id LIMIT 20`, ordered: true },
    { soql: "SELECT Id, ClosedDate FROM Case ORDER BY ClosedDate DESC, Id LIMIT 5", sql: `SELECT Id, ClosedDate FROM "Case" ORDER BY ClosedDate IS NULL, ClosedDate DESC, Id LIMIT 5`, ordered: true },
    { soql: "SELECT Id FROM Lead ORDER BY Id LIMIT 5 OFFSET 10", sql: `SELECT Id FROM Lead ORDER BY Id LIMIT 5 OFFSET 10`, ordered: true },
    { soql: "SELECT Name FROM Product2 ORDER BY Name DESC LIMIT 3", sql: `SELECT Name FROM Product2 ORDER BY Name DESC LIMIT 3`, ordered: true },
    { soql: "SELECT OwnerId, COUNT(Id) FROM Case GROUP BY OwnerId ORDER BY COUNT(Id) DESC, OwnerId LIMIT 3", sql: `SELECT OwnerId, COUNT(*) AS expr0 FROM "Case" GROUP BY OwnerId ORDER BY COUNT(*) DESC, OwnerId LIMIT 3`, ordered: true },
    { soql: "SELECT Id, Account.Name FROM Case ORDER BY Account.Name, Id LIMIT 10", sql: `SELECT c.Id, a.Name AS "Account.Name" FROM "Case" c JOIN Account a ON a.Id = c.AccountId ORDER BY a.Name, c.Id LIMIT 10`, ordered: true },
  ],
};

describe("SOQL corpus", () => {
  for (const [feature, cases] of Object.entries(corpus)) {
    describe(feature, () => {
      for (const entry of cases) it(entry.soql, () => check(entry));
    });
  }

  it("filters on a custom relationship path with a value from the data", async () => {
    const [row] = await sql(`SELECT oi.Product2Id AS p FROM "Case" c JOIN OrderItem oi ON oi.Id = c.OrderItemId__c LIMIT 1`);
    await check({ soql: `SELECT Id FROM Case WHERE OrderItemId__r.Product2Id = '${row!.p}'`, sql: `SELECT c.Id FROM "Case" c JOIN OrderItem oi ON oi.Id = c.OrderItemId__c WHERE oi.Product2Id = '${row!.p}'` });
  });

  it("matches a 15-character Id to its 18-character form", async () => {
    const [row] = await sql(`SELECT Id FROM Account LIMIT 1`);
    await check({ soql: `SELECT Id, Name FROM Account WHERE Id = '${String(row!.Id).slice(0, 15)}'`, sql: `SELECT Id, Name FROM Account WHERE Id = '${row!.Id}'` });
  });
});

describe("SOQL record shapes", () => {
  it("nests parent fields under the relationship with Salesforce attributes, null when the parent is missing", async () => {
    const outcome = await runSoql(org, "SELECT Id, Account.ShippingState, Owner.Name FROM Case ORDER BY Id LIMIT 1", TODAY);
    expect(outcome.ok).toBe(true);
    const [record] = outcome.ok ? outcome.records : [];
    const [expected] = await sql(`SELECT c.Id, c.AccountId, a.ShippingState, c.OwnerId, u.FirstName || ' ' || u.LastName AS name FROM "Case" c JOIN Account a ON a.Id = c.AccountId JOIN "User" u ON u.Id = c.OwnerId ORDER BY c.Id LIMIT 1`);
    expect(record).toEqual({
      Id: expected!.Id,
      Account: { attributes: { type: "Account", url: `/services/data/v58.0/sobjects/Account/${expected!.AccountId}` }, ShippingState: expected!.ShippingState },
      Owner: { attributes: { type: "User", url: `/services/data/v58.0/sobjects/User/${expected!.OwnerId}` }, Name: expected!.name },
    });
    const missing = await runSoql(org, "SELECT Id, ContractID__r.Status FROM Opportunity WHERE ContractID__c = null LIMIT 1", TODAY);
    expect(missing.ok && missing.records[0]).toMatchObject({ ContractID__r: null });
  });

  it("returns child relationship subqueries as {totalSize, done, records}, null without children", async () => {
    const outcome = await runSoql(org, "SELECT Id, (SELECT Id, Subject FROM Cases ORDER BY Id) FROM Account ORDER BY Id", TODAY);
    expect(outcome.ok).toBe(true);
    const cases = await sql(`SELECT Id, Subject, AccountId FROM "Case" ORDER BY Id`);
    for (const account of outcome.ok ? outcome.records : []) {
      const mine = cases.filter((row) => row.AccountId === account.Id).map(({ Id, Subject }) => ({ Id, Subject }));
      expect(account.Cases).toEqual(mine.length === 0 ? null : { totalSize: mine.length, done: true, records: mine });
    }
  });

  it("applies a child subquery's WHERE and its LIMIT per parent", async () => {
    const outcome = await runSoql(org, "SELECT Id, (SELECT Id FROM Tasks WHERE Status = 'Not Started' LIMIT 1) FROM Opportunity", TODAY);
    const tasks = await sql(`SELECT WhatId FROM Task WHERE Status = 'Not Started'`);
    for (const opportunity of outcome.ok ? outcome.records : []) {
      const count = tasks.filter((row) => row.WhatId === opportunity.Id).length;
      expect(opportunity.Tasks === null ? 0 : (opportunity.Tasks as { totalSize: number }).totalSize).toBe(Math.min(1, count));
    }
  });

  it("answers COUNT() with totalSize and no records, as Salesforce does", async () => {
    for (const [soql, expectedSql] of [
      ["SELECT COUNT() FROM Opportunity", `SELECT COUNT(*) AS n FROM Opportunity`],
      ["SELECT COUNT() FROM Case WHERE Status = 'closed'", `SELECT COUNT(*) AS n FROM "Case" WHERE Status = 'Closed'`],
      ["SELECT COUNT() FROM Lead WHERE CreatedDate = LAST_N_YEARS:2", `SELECT COUNT(*) AS n FROM Lead WHERE substr(CreatedDate, 1, 4) IN ('2021', '2022')`],
    ] as const) {
      const outcome = await runSoql(org, soql, TODAY);
      const [expected] = await sql(expectedSql);
      expect(outcome).toMatchObject({ ok: true, records: [], totalSize: expected!.n });
    }
  });
});

describe("Salesforce-style errors", () => {
  const errors: [string, string, RegExp][] = [
    ["SELEC Id FROM Case", "MALFORMED_QUERY", /^unexpected token: 'SELEC'\. ERROR at Row:1:Column:1$/],
    ["SELECT Id FROM Case WHERE", "MALFORMED_QUERY", /unexpected end of query/],
    ["SELECT Id FROM", "MALFORMED_QUERY", /./],
    ["SELECT Id FROM Widget", "INVALID_TYPE", /^sObject type 'Widget' is not supported\./],
    ["SELECT Statuz FROM Case", "INVALID_FIELD", /^No such column 'Statuz' on entity 'Case'\. If you are attempting to use a custom field, be sure to append the '__c'/],
    ["SELECT Id FROM Case WHERE Statuz = 'x'", "INVALID_FIELD", /No such column 'Statuz' on entity 'Case'/],
    ["SELECT Account.Nope FROM Case", "INVALID_FIELD", /No such column 'Nope' on entity 'Account'/],
    ["SELECT Foo.Name FROM Case", "INVALID_FIELD", /^Didn't understand relationship 'Foo' in field path/],
    ["SELECT Id FROM Case WHERE CreatedDate > 2023-01-01", "INVALID_FIELD", /value of filter criterion for field 'CreatedDate' must be of type dateTime and should not be enclosed in quotes/],
    ["SELECT Id FROM Case WHERE CreatedDate > '2023-01-01'", "INVALID_FIELD", /must be of type dateTime/],
    ["SELECT Id FROM Opportunity WHERE CloseDate = 2023-01-01T00:00:00Z", "INVALID_FIELD", /must be of type date and should not be enclosed in quotes/],
    ["SELECT Id FROM Opportunity WHERE Amount > '5'", "INVALID_FIELD", /must be of type double and should not be enclosed in quotes/],
    ["SELECT Id FROM Case WHERE Status = 5", "INVALID_FIELD", /must be of type string and should be enclosed in quotes/],
    ["SELECT Id, COUNT(Id) FROM Case", "MALFORMED_QUERY", /^Field must be grouped or aggregated: Id$/],
    ["SELECT Status, Priority, COUNT(Id) FROM Case GROUP BY Status", "MALFORMED_QUERY", /Field must be grouped or aggregated: Priority/],
    ["SELECT Id FROM Case WHERE Status = 'x' LIMIT 'a'", "MALFORMED_QUERY", /./],
    ["SELECT Id FROM Case WHERE CreatedDate = LAST_N_FORTNIGHTS:2", "MALFORMED_QUERY", /./],
    ["SELECT Id, (SELECT Id FROM Widgets) FROM Account", "INVALID_FIELD", /Didn't understand relationship 'Widgets'/],
  ];
  for (const [soql, code, message] of errors) {
    it(`${code}: ${soql}`, async () => {
      const outcome = await runSoql(org, soql, TODAY);
      expect(outcome.ok).toBe(false);
      if (!outcome.ok) {
        expect(outcome.code).toBe(code);
        expect(outcome.message).toMatch(message);
      }
    });
  }
});

/** A plain tokenizer for the expectations: lower-case alphanumeric runs. */
const words = (text: unknown) => String(text ?? "").toLowerCase().split(/[^\p{L}\p{N}]+/u).filter(Boolean);

describe("SOSL corpus", () => {
  async function searchIds(sosl: string): Promise<string[]> {
    const outcome = await runSosl(org, sosl, TODAY);
    if (!outcome.ok) throw new Error(`${sosl} → ${outcome.code}: ${outcome.message}`);
    return outcome.records.map((record) => String(record.Id)).sort();
  }

  async function expectedIds(object: string, fields: string[], predicate: (tokens: string[], text: string) => boolean): Promise<string[]> {
    const rows = await sql(`SELECT Id, ${fields.map((field) => `"${field}"`).join(", ")} FROM "${object}"`);
    return rows
      .filter((row) => {
        const text = fields.map((field) => String(row[field] ?? "")).join(" \u0000 ");
        return predicate(fields.flatMap((field) => words(row[field])), text.toLowerCase());
      })
      .map((row) => String(row.Id))
      .sort();
  }

  const KNOWLEDGE_TEXT = ["Title", "FAQ_Answer__c", "Summary", "UrlName"];

  const cases: [string, string, string[], (tokens: string[], text: string) => boolean][] = [
    ["FIND {scalability} IN ALL FIELDS RETURNING Knowledge__kav(Id)", "Knowledge__kav", KNOWLEDGE_TEXT, (t) => t.includes("scalability")],
    ["FIND {network scalability} RETURNING Knowledge__kav(Id)", "Knowledge__kav", KNOWLEDGE_TEXT, (t) => t.includes("network") && t.includes("scalability")],
    ["FIND {thermal OR firmware} RETURNING Knowledge__kav(Id)", "Knowledge__kav", KNOWLEDGE_TEXT, (t) => t.includes("thermal") || t.includes("firmware")],
    ["FIND {security AND NOT hpc} RETURNING Knowledge__kav(Id)", "Knowledge__kav", KNOWLEDGE_TEXT, (t) => t.includes("security") && !t.includes("hpc")],
    ['FIND {"must never say"} RETURNING Knowledge__kav(Id)', "Knowledge__kav", KNOWLEDGE_TEXT, (_t, text) => /must never say/.test(text)],
    ["FIND {polic*} RETURNING Knowledge__kav(Id)", "Knowledge__kav", KNOWLEDGE_TEXT, (t) => t.some((w) => w.startsWith("polic"))],
    ["FIND {l?cense} RETURNING Knowledge__kav(Id)", "Knowledge__kav", KNOWLEDGE_TEXT, (t) => t.some((w) => /^l.cense$/.test(w))],
    ["FIND {Aisha} IN NAME FIELDS RETURNING Contact(Id)", "Contact", ["FirstName", "LastName"], (t) => t.includes("aisha")],
    ["FIND {liu} IN NAME FIELDS RETURNING Lead(Id)", "Lead", ["FirstName", "LastName"], (t) => t.includes("liu")],
    ["FIND {prospect.example} IN EMAIL FIELDS RETURNING Lead(Id)", "Lead", ["Email"], (_t, text) => text.includes("prospect.example")],
    ["FIND {SecureAnalytics} IN NAME FIELDS RETURNING Product2(Id)", "Product2", ["Name"], (t) => t.includes("secureanalytics")],
    ["FIND {(login OR installation) AND error} RETURNING Case(Id)", "Case", ["Priority", "Subject", "Description", "Status"], (t) => (t.includes("login") || t.includes("installation")) && t.includes("error")],
    ["FIND {refund} RETURNING EmailMessage(Id)", "EmailMessage", ["Subject", "TextBody", "FromAddress", "ToIds"], (t) => t.includes("refund")],
  ];
  for (const [sosl, object, fields, predicate] of cases) {
    it(sosl, async () => {
      const expected = await expectedIds(object, fields, predicate);
      expect(expected.length).toBeGreaterThan(0);
      expect(await searchIds(sosl)).toEqual(expected);
    });
  }

  it("returns the requested fields, applies WHERE, ORDER BY and LIMIT per object, and a global LIMIT", async () => {
    const outcome = await runSosl(org, "FIND {policy} RETURNING Knowledge__kav(Id, Title WHERE Title LIKE '%Policy%' ORDER BY Title DESC LIMIT 2)", TODAY);
    const expected = await sql(`SELECT Id, Title FROM Knowledge__kav WHERE Title LIKE '%Policy%' ORDER BY Title DESC LIMIT 2`);
    expect(outcome.ok && outcome.records).toEqual(expected);
    const limited = await runSosl(org, "FIND {aisha} IN NAME FIELDS RETURNING Contact(Id), Lead(Id) LIMIT 2", TODAY);
    expect(limited.ok && limited.records.length).toBe(2);
  });

  it("groups searchRecords by RETURNING order", async () => {
    const outcome = await runSosl(org, "FIND {aisha} IN NAME FIELDS RETURNING Lead(Id), Contact(Id)", TODAY);
    const ids = outcome.ok ? outcome.records.map((record) => String(record.Id).slice(0, 3)) : [];
    expect(ids.length).toBeGreaterThan(1);
    expect(ids.lastIndexOf("00Q")).toBeLessThan(ids.indexOf("003") < 0 ? Infinity : ids.indexOf("003"));
  });

  const errors: [string, string, RegExp][] = [
    ["FIND Acme", "MALFORMED_SEARCH", /FIND must be followed by the search text in braces/],
    ["FIND {acme", "MALFORMED_SEARCH", /not closed/],
    ["FIND {a}", "INVALID_SEARCH", /longer than one character/],
    ["FIND {acme} IN BODY FIELDS", "MALFORMED_SEARCH", /ALL, NAME, EMAIL or PHONE/],
    ["FIND {acme} RETURNING Widget(Id)", "INVALID_TYPE", /sObject type 'Widget' is not supported/],
    ["FIND {acme} RETURNING Account(Nope)", "INVALID_FIELD", /No such column 'Nope' on entity 'Account'/],
    ["FIND {(acme} RETURNING Account", "MALFORMED_SEARCH", /parenthesis/],
    ["SEARCH {acme}", "MALFORMED_SEARCH", /starts with FIND/],
  ];
  for (const [sosl, code, message] of errors) {
    it(`${code}: ${sosl}`, async () => {
      const outcome = await runSosl(org, sosl, TODAY);
      expect(outcome).toMatchObject({ ok: false, code });
      expect(!outcome.ok && outcome.message).toMatch(message);
    });
  }
});
