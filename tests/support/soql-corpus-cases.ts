/**
 * SOQL queries by feature, each with a hand-written SQLite query that computes the expected
 * result independently of the translator (date ranges worked out by hand for TODAY = 2023-06-15).
 * Used by the corpus test and by `npm run bench:query`.
 */
export interface CorpusCase {
  readonly soql: string;
  readonly sql: string;
  /** Compare in order (queries with ORDER BY); otherwise as sets. */
  readonly ordered?: boolean;
  readonly allowEmpty?: boolean;
}

const OBJECTS = [
  "Account",
  "Contact",
  "User",
  "Case",
  "CaseHistory__c",
  "Issue__c",
  "Knowledge__kav",
  "EmailMessage",
  "LiveChatTranscript",
  "Lead",
  "Opportunity",
  "OpportunityLineItem",
  "Contract",
  "Quote",
  "QuoteLineItem",
  "Order",
  "OrderItem",
  "Product2",
  "ProductCategory",
  "ProductCategoryProduct",
  "Pricebook2",
  "PricebookEntry",
  "Task",
  "Event",
  "VoiceCallTranscript__c",
  "Territory2",
  "UserTerritory2Association",
];

export const SOQL_CORPUS: Record<string, CorpusCase[]> = {
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
    {
      soql: "SELECT Id FROM Case WHERE Subject LIKE '%Failure%' AND Status = 'Closed'",
      sql: `SELECT Id FROM "Case" WHERE instr(lower(Subject), 'failure') > 0 AND Status = 'Closed'`,
    },
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
    {
      soql: "SELECT Id FROM Case WHERE (Status = 'New' OR Status = 'Working') AND Priority = 'High'",
      sql: `SELECT Id FROM "Case" WHERE Status IN ('New', 'Working') AND Priority = 'High'`,
      allowEmpty: true,
    },
    {
      soql: "SELECT Id FROM Case WHERE Status = 'Closed' AND (Priority = 'High' OR Priority = 'Low')",
      sql: `SELECT Id FROM "Case" WHERE Status = 'Closed' AND Priority <> 'Medium'`,
    },
    { soql: "SELECT Id FROM Case WHERE NOT Status = 'Closed'", sql: `SELECT Id FROM "Case" WHERE Status <> 'Closed'` },
    { soql: "SELECT Id FROM Case WHERE NOT (Status = 'Closed' OR Priority = 'Low')", sql: `SELECT Id FROM "Case" WHERE Status <> 'Closed' AND Priority <> 'Low'` },
    {
      soql: "SELECT Id FROM Opportunity WHERE (StageName = 'Quote' AND Amount > 30000) OR (StageName = 'Discovery' AND Amount < 20000)",
      sql: `SELECT Id FROM Opportunity WHERE (StageName = 'Quote' AND Amount > 30000) OR (StageName = 'Discovery' AND Amount < 20000)`,
    },
    { soql: "SELECT Id FROM Lead WHERE IsConverted = true AND NOT Title = 'CTO'", sql: `SELECT Id FROM Lead WHERE IsConverted = 1 AND Title <> 'CTO'` },
  ],
  "relationship fields": [
    { soql: "SELECT Id, Account.ShippingState FROM Case", sql: `SELECT c.Id, a.ShippingState AS "Account.ShippingState" FROM "Case" c JOIN Account a ON a.Id = c.AccountId` },
    {
      soql: "SELECT Id, Owner.FirstName, Owner.LastName FROM Case",
      sql: `SELECT c.Id, u.FirstName AS "Owner.FirstName", u.LastName AS "Owner.LastName" FROM "Case" c JOIN "User" u ON u.Id = c.OwnerId`,
    },
    {
      soql: "SELECT Id, Owner.Name FROM Lead LIMIT 50",
      sql: `SELECT l.Id, u.FirstName || ' ' || u.LastName AS "Owner.Name" FROM Lead l JOIN "User" u ON u.Id = l.OwnerId LIMIT 50`,
    },
    {
      soql: "SELECT Id, OrderItemId__r.Product2Id FROM Case",
      sql: `SELECT c.Id, oi.Product2Id AS "OrderItemId__r.Product2Id" FROM "Case" c JOIN OrderItem oi ON oi.Id = c.OrderItemId__c`,
    },
    {
      soql: "SELECT Id, Contact.Account.Name FROM Case",
      sql: `SELECT c.Id, a.Name AS "Contact.Account.Name" FROM "Case" c JOIN Contact ct ON ct.Id = c.ContactId JOIN Account a ON a.Id = ct.AccountId`,
    },
    {
      soql: "SELECT Id, Opportunity.StageName, Opportunity.Account.Industry FROM Quote",
      sql: `SELECT q.Id, o.StageName AS "Opportunity.StageName", a.Industry AS "Opportunity.Account.Industry" FROM Quote q JOIN Opportunity o ON o.Id = q.OpportunityId JOIN Account a ON a.Id = o.AccountId`,
    },
    {
      soql: "SELECT Id, Quote.Status, Product2.Name FROM QuoteLineItem",
      sql: `SELECT l.Id, q.Status AS "Quote.Status", p.Name AS "Product2.Name" FROM QuoteLineItem l JOIN Quote q ON q.Id = l.QuoteId JOIN Product2 p ON p.Id = l.Product2Id`,
    },
    {
      soql: "SELECT Id, CaseId__r.Subject FROM CaseHistory__c WHERE Field__c = 'Case Closed'",
      sql: `SELECT h.Id, c.Subject AS "CaseId__r.Subject" FROM CaseHistory__c h JOIN "Case" c ON c.Id = h.CaseId__c WHERE h.Field__c = 'Case Closed'`,
    },
    { soql: "SELECT Id, Case.Subject FROM Case WHERE Case.Priority = 'High'", sql: `SELECT Id, Subject AS "Subject" FROM "Case" WHERE Priority = 'High'` },
    { soql: "SELECT Id FROM Case WHERE Account.ShippingState = 'ny'", sql: `SELECT c.Id FROM "Case" c JOIN Account a ON a.Id = c.AccountId WHERE a.ShippingState = 'NY'` },
    {
      soql: "SELECT Id FROM Opportunity WHERE Account.Industry = 'Automotive' AND Owner.LastName LIKE 'S%'",
      sql: `SELECT o.Id FROM Opportunity o JOIN Account a ON a.Id = o.AccountId JOIN "User" u ON u.Id = o.OwnerId WHERE a.Industry = 'Automotive' AND u.LastName LIKE 'S%'`,
      allowEmpty: true,
    },
    { soql: "SELECT Id FROM Task WHERE What.StageName = 'Closed'", sql: `SELECT t.Id FROM Task t JOIN Opportunity o ON o.Id = t.WhatId WHERE o.StageName = 'Closed'` },
    {
      soql: "SELECT Id, Territory2.Name, User.LastName FROM UserTerritory2Association",
      sql: `SELECT x.Id, t.Name AS "Territory2.Name", u.LastName AS "User.LastName" FROM UserTerritory2Association x JOIN Territory2 t ON t.Id = x.Territory2Id JOIN "User" u ON u.Id = x.UserId`,
    },
  ],
  "semi-joins and anti-joins": [
    {
      soql: "SELECT Id FROM Case WHERE OrderItemId__c IN (SELECT Id FROM OrderItem WHERE Quantity > 30)",
      sql: `SELECT Id FROM "Case" WHERE OrderItemId__c IN (SELECT Id FROM OrderItem WHERE Quantity > 30)`,
    },
    {
      soql: "SELECT Id, Name FROM Account WHERE Id IN (SELECT AccountId FROM Case WHERE Priority = 'High')",
      sql: `SELECT Id, Name FROM Account WHERE Id IN (SELECT AccountId FROM "Case" WHERE Priority = 'High')`,
    },
    { soql: "SELECT Id FROM Account WHERE Id NOT IN (SELECT AccountId FROM Case)", sql: `SELECT Id FROM Account WHERE Id NOT IN (SELECT AccountId FROM "Case")`, allowEmpty: true },
    {
      soql: "SELECT Id FROM User WHERE Id IN (SELECT OwnerId FROM Lead WHERE IsConverted = true)",
      sql: `SELECT Id FROM "User" WHERE Id IN (SELECT OwnerId FROM Lead WHERE IsConverted = 1)`,
    },
    { soql: "SELECT Id FROM Opportunity WHERE Id NOT IN (SELECT OpportunityId FROM Quote)", sql: `SELECT Id FROM Opportunity WHERE Id NOT IN (SELECT OpportunityId FROM Quote)` },
    { soql: "SELECT Id FROM Knowledge__kav WHERE Id IN (SELECT Id FROM Knowledge__kav WHERE Title LIKE 'Why%')", sql: `SELECT Id FROM Knowledge__kav WHERE Title LIKE 'Why%'` },
  ],
  "typed date and datetime literals": [
    {
      soql: "SELECT Id FROM Opportunity WHERE CloseDate >= 2023-01-01 AND CloseDate < 2023-07-01",
      sql: `SELECT Id FROM Opportunity WHERE CloseDate BETWEEN '2023-01-01' AND '2023-06-30'`,
    },
    { soql: "SELECT Id FROM Contract WHERE CompanySignedDate = 2022-03-15", sql: `SELECT Id FROM Contract WHERE CompanySignedDate = '2022-03-15'`, allowEmpty: true },
    { soql: "SELECT Id FROM Task WHERE ActivityDate > 2024-06-30", sql: `SELECT Id FROM Task WHERE ActivityDate > '2024-06-30'` },
    { soql: "SELECT Id FROM Order WHERE EffectiveDate <= 2020-12-31", sql: `SELECT Id FROM "Order" WHERE EffectiveDate <= '2020-12-31'` },
    { soql: "SELECT Id FROM Case WHERE CreatedDate > 2023-01-01T00:00:00Z", sql: `SELECT Id FROM "Case" WHERE CreatedDate > '2023-01-01T00:00:00.000+0000'` },
    {
      soql: "SELECT Id FROM Case WHERE CreatedDate < 2021-06-01T12:00:00Z AND CreatedDate >= 2021-01-01T00:00:00Z",
      sql: `SELECT Id FROM "Case" WHERE CreatedDate < '2021-06-01T12:00:00.000+0000' AND CreatedDate >= '2021-01-01T00:00:00.000+0000'`,
    },
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
    {
      soql: "SELECT Id FROM Task WHERE ActivityDate >= LAST_N_MONTHS:1 AND ActivityDate <= THIS_MONTH",
      sql: `SELECT Id FROM Task WHERE ActivityDate BETWEEN '2023-05-01' AND '2023-06-30'`,
    },
    { soql: "SELECT Id FROM Case WHERE ClosedDate > LAST_MONTH", sql: `SELECT Id FROM "Case" WHERE substr(ClosedDate, 1, 10) >= '2023-06-01'` },
    { soql: "SELECT Id FROM Opportunity WHERE CloseDate != THIS_YEAR AND CloseDate = LAST_N_YEARS:1", sql: `SELECT Id FROM Opportunity WHERE substr(CloseDate, 1, 4) = '2022'` },
  ],
  "date functions": [
    {
      soql: "SELECT CALENDAR_MONTH(CreatedDate), COUNT(Id) FROM Case GROUP BY CALENDAR_MONTH(CreatedDate)",
      sql: `SELECT CAST(substr(CreatedDate, 6, 2) AS INTEGER) AS expr0, COUNT(*) AS expr1 FROM "Case" GROUP BY 1`,
    },
    {
      soql: "SELECT CALENDAR_YEAR(CreatedDate) y, COUNT(Id) n FROM Lead GROUP BY CALENDAR_YEAR(CreatedDate)",
      sql: `SELECT CAST(substr(CreatedDate, 1, 4) AS INTEGER) AS y, COUNT(*) AS n FROM Lead GROUP BY 1`,
    },
    {
      soql: "SELECT CALENDAR_QUARTER(CloseDate) q, COUNT(Id) n FROM Opportunity GROUP BY CALENDAR_QUARTER(CloseDate)",
      sql: `SELECT CASE WHEN CAST(substr(CloseDate, 6, 2) AS INTEGER) <= 3 THEN 1 WHEN CAST(substr(CloseDate, 6, 2) AS INTEGER) <= 6 THEN 2 WHEN CAST(substr(CloseDate, 6, 2) AS INTEGER) <= 9 THEN 3 ELSE 4 END AS q, COUNT(*) AS n FROM Opportunity GROUP BY 1`,
    },
    {
      soql: "SELECT DAY_ONLY(CreatedDate) d, COUNT(Id) n FROM Case WHERE CreatedDate = THIS_YEAR GROUP BY DAY_ONLY(CreatedDate)",
      sql: `SELECT substr(CreatedDate, 1, 10) AS d, COUNT(*) AS n FROM "Case" WHERE substr(CreatedDate, 1, 4) = '2023' GROUP BY 1`,
    },
    {
      soql: "SELECT DAY_IN_MONTH(ActivityDate) d, COUNT(Id) n FROM Task GROUP BY DAY_IN_MONTH(ActivityDate)",
      sql: `SELECT CAST(substr(ActivityDate, 9, 2) AS INTEGER) AS d, COUNT(*) AS n FROM Task GROUP BY 1`,
    },
    {
      soql: "SELECT WEEK_IN_YEAR(ActivityDate) w, COUNT(Id) n FROM Task WHERE ActivityDate = THIS_YEAR GROUP BY WEEK_IN_YEAR(ActivityDate)",
      sql: `SELECT (CAST(strftime('%j', ActivityDate) AS INTEGER) - 1) / 7 + 1 AS w, COUNT(*) AS n FROM Task WHERE substr(ActivityDate, 1, 4) = '2023' GROUP BY 1`,
    },
    { soql: "SELECT Id FROM Case WHERE CALENDAR_YEAR(CreatedDate) = 2022", sql: `SELECT Id FROM "Case" WHERE CreatedDate LIKE '2022-%'` },
    {
      soql: "SELECT Id FROM Case WHERE CALENDAR_MONTH(CreatedDate) = 11 AND CALENDAR_YEAR(CreatedDate) > 2021",
      sql: `SELECT Id FROM "Case" WHERE substr(CreatedDate, 6, 2) = '11' AND substr(CreatedDate, 1, 4) > '2021'`,
    },
    { soql: "SELECT Id FROM Lead WHERE DAY_IN_WEEK(CreatedDate) = 1", sql: `SELECT Id FROM Lead WHERE strftime('%w', substr(CreatedDate, 1, 10)) = '0'` },
    {
      soql: "SELECT HOUR_IN_DAY(CreatedDate) h, COUNT(Id) n FROM Case GROUP BY HOUR_IN_DAY(CreatedDate)",
      sql: `SELECT CAST(substr(CreatedDate, 12, 2) AS INTEGER) AS h, COUNT(*) AS n FROM "Case" GROUP BY 1`,
    },
  ],
  aggregates: [
    { soql: "SELECT COUNT(Id) FROM Case", sql: `SELECT COUNT(*) AS expr0 FROM "Case"` },
    { soql: "SELECT COUNT(ClosedDate) FROM Case", sql: `SELECT COUNT(ClosedDate) AS expr0 FROM "Case"` },
    { soql: "SELECT COUNT(Id) total FROM Lead WHERE IsConverted = true", sql: `SELECT COUNT(*) AS total FROM Lead WHERE IsConverted = 1` },
    { soql: "SELECT COUNT_DISTINCT(OwnerId) FROM Case", sql: `SELECT COUNT(DISTINCT OwnerId) AS expr0 FROM "Case"` },
    {
      soql: "SELECT SUM(Amount), AVG(Amount), MIN(Amount), MAX(Amount) FROM Opportunity",
      sql: `SELECT SUM(Amount) AS expr0, AVG(Amount) AS expr1, MIN(Amount) AS expr2, MAX(Amount) AS expr3 FROM Opportunity`,
    },
    { soql: "SELECT SUM(Quantity) q, AVG(UnitPrice) FROM OrderItem", sql: `SELECT SUM(Quantity) AS q, AVG(UnitPrice) AS expr0 FROM OrderItem` },
    { soql: "SELECT MIN(CreatedDate), MAX(CreatedDate) FROM Case", sql: `SELECT MIN(CreatedDate) AS expr0, MAX(CreatedDate) AS expr1 FROM "Case"` },
    { soql: "SELECT MAX(CloseDate) latest FROM Opportunity WHERE StageName = 'Closed'", sql: `SELECT MAX(CloseDate) AS latest FROM Opportunity WHERE StageName = 'Closed'` },
    { soql: "SELECT AVG(Discount) FROM QuoteLineItem WHERE Discount > 0", sql: `SELECT AVG(Discount) AS expr0 FROM QuoteLineItem WHERE Discount > 0` },
    {
      soql: "SELECT COUNT(Id), SUM(TotalPrice) FROM QuoteLineItem WHERE Quote.Status = 'Accepted'",
      sql: `SELECT COUNT(*) AS expr0, SUM(l.TotalPrice) AS expr1 FROM QuoteLineItem l JOIN Quote q ON q.Id = l.QuoteId WHERE q.Status = 'Accepted'`,
    },
  ],
  "GROUP BY and HAVING": [
    { soql: "SELECT OwnerId, COUNT(Id) FROM Case GROUP BY OwnerId", sql: `SELECT OwnerId, COUNT(*) AS expr0 FROM "Case" GROUP BY OwnerId` },
    { soql: "SELECT Status, COUNT(Id) n FROM Case GROUP BY Status", sql: `SELECT Status, COUNT(*) AS n FROM "Case" GROUP BY Status` },
    {
      soql: "SELECT Account.ShippingState, COUNT(Id) FROM Case GROUP BY Account.ShippingState",
      sql: `SELECT a.ShippingState AS ShippingState, COUNT(*) AS expr0 FROM "Case" c JOIN Account a ON a.Id = c.AccountId GROUP BY a.ShippingState`,
    },
    {
      soql: "SELECT OrderItemId__r.Product2Id, COUNT(Id) FROM Case GROUP BY OrderItemId__r.Product2Id",
      sql: `SELECT oi.Product2Id AS Product2Id, COUNT(*) AS expr0 FROM "Case" c JOIN OrderItem oi ON oi.Id = c.OrderItemId__c GROUP BY oi.Product2Id`,
    },
    {
      soql: "SELECT OwnerId, COUNT(Id) FROM Lead GROUP BY OwnerId HAVING COUNT(Id) > 15",
      sql: `SELECT OwnerId, COUNT(*) AS expr0 FROM Lead GROUP BY OwnerId HAVING COUNT(*) > 15`,
    },
    {
      soql: "SELECT IssueId__c, COUNT(Id) n FROM Case WHERE Status = 'Closed' GROUP BY IssueId__c HAVING COUNT(Id) >= 10",
      sql: `SELECT IssueId__c, COUNT(*) AS n FROM "Case" WHERE Status = 'Closed' GROUP BY IssueId__c HAVING COUNT(*) >= 10`,
    },
    {
      soql: "SELECT StageName, SUM(Amount) total, AVG(Probability) FROM Opportunity GROUP BY StageName",
      sql: `SELECT StageName, SUM(Amount) AS total, AVG(Probability) AS expr0 FROM Opportunity GROUP BY StageName`,
    },
    { soql: "SELECT Status, Priority, COUNT(Id) FROM Case GROUP BY Status, Priority", sql: `SELECT Status, Priority, COUNT(*) AS expr0 FROM "Case" GROUP BY Status, Priority` },
    {
      soql: "SELECT WhatId, COUNT(Id) FROM Task WHERE Status = 'Not Started' GROUP BY WhatId HAVING COUNT(Id) > 3",
      sql: `SELECT WhatId, COUNT(*) AS expr0 FROM Task WHERE Status = 'Not Started' GROUP BY WhatId HAVING COUNT(*) > 3`,
      allowEmpty: true,
    },
  ],
  "ORDER BY, NULLS, LIMIT, OFFSET": [
    { soql: "SELECT Id, Amount FROM Opportunity ORDER BY Amount DESC, Id LIMIT 10", sql: `SELECT Id, Amount FROM Opportunity ORDER BY Amount DESC, Id LIMIT 10`, ordered: true },
    {
      soql: "SELECT Id, ClosedDate FROM Case ORDER BY ClosedDate ASC NULLS FIRST, Id LIMIT 20",
      sql: `SELECT Id, ClosedDate FROM "Case" ORDER BY ClosedDate IS NOT NULL, ClosedDate, Id LIMIT 20`,
      ordered: true,
    },
    {
      soql: "SELECT Id, ClosedDate FROM Case ORDER BY ClosedDate ASC NULLS LAST, Id LIMIT 20",
      sql: `SELECT Id, ClosedDate FROM "Case" ORDER BY ClosedDate IS NULL, ClosedDate, Id LIMIT 20`,
      ordered: true,
    },
    {
      soql: "SELECT Id, ClosedDate FROM Case ORDER BY ClosedDate DESC, Id LIMIT 5",
      sql: `SELECT Id, ClosedDate FROM "Case" ORDER BY ClosedDate IS NULL, ClosedDate DESC, Id LIMIT 5`,
      ordered: true,
    },
    { soql: "SELECT Id FROM Lead ORDER BY Id LIMIT 5 OFFSET 10", sql: `SELECT Id FROM Lead ORDER BY Id LIMIT 5 OFFSET 10`, ordered: true },
    { soql: "SELECT Name FROM Product2 ORDER BY Name DESC LIMIT 3", sql: `SELECT Name FROM Product2 ORDER BY Name DESC LIMIT 3`, ordered: true },
    {
      soql: "SELECT OwnerId, COUNT(Id) FROM Case GROUP BY OwnerId ORDER BY COUNT(Id) DESC, OwnerId LIMIT 3",
      sql: `SELECT OwnerId, COUNT(*) AS expr0 FROM "Case" GROUP BY OwnerId ORDER BY COUNT(*) DESC, OwnerId LIMIT 3`,
      ordered: true,
    },
    {
      soql: "SELECT Id, Account.Name FROM Case ORDER BY Account.Name, Id LIMIT 10",
      sql: `SELECT c.Id, a.Name AS "Account.Name" FROM "Case" c JOIN Account a ON a.Id = c.AccountId ORDER BY a.Name, c.Id LIMIT 10`,
      ordered: true,
    },
  ],
};
