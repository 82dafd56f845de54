import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { type OrgStore, runSoql, runSosl } from "../../src/org/index.js";
import { openSqliteOrg, SAMPLE_ORG } from "../support/helpers.js";
import { type CorpusCase as Case, SOQL_CORPUS as corpus } from "../support/soql-corpus-cases.js";
import { flatten, round, sorted } from "../support/soql-helpers.js";

/**
 * The SOQL/SOSL corpus. Every expected result is computed independently of the translator:
 * a hand-written SQLite query (date ranges worked out by hand from Salesforce's definitions,
 * for TODAY = 2023-06-15, a Thursday) or plain TypeScript over the rows.
 */
const TODAY = "2023-06-15";
let org: OrgStore;

beforeAll(async () => {
  org = await openSqliteOrg(SAMPLE_ORG, { workers: 2 });
});
afterAll(() => org.close());

async function sql(query: string): Promise<Record<string, unknown>[]> {
  const outcome = await org.query(query, { maxRows: 5000 });
  if (!outcome.ok) throw new Error(`expected SQL failed: ${outcome.message}\n${query}`);
  return outcome.rows as Record<string, unknown>[];
}

async function check({ soql, sql: expectedSql, ordered, allowEmpty }: Case) {
  const outcome = await runSoql(org, soql, TODAY);
  if (!outcome.ok) throw new Error(`${soql}\n→ ${outcome.code}: ${outcome.message}`);
  const expected = round(await sql(expectedSql));
  const actual = round(outcome.records.map((record) => flatten(record)));
  if (!allowEmpty) expect(expected.length, `expected rows for ${soql}`).toBeGreaterThan(0);
  if (ordered) expect(actual).toEqual(expected);
  else expect(sorted(actual)).toEqual(sorted(expected));
}

describe("SOQL corpus", () => {
  for (const [feature, cases] of Object.entries(corpus)) {
    describe(feature, () => {
      for (const entry of cases) it(entry.soql, () => check(entry));
    });
  }

  it("filters on a custom relationship path with a value from the data", async () => {
    const [row] = await sql(`SELECT oi.Product2Id AS p FROM "Case" c JOIN OrderItem oi ON oi.Id = c.OrderItemId__c LIMIT 1`);
    await check({
      soql: `SELECT Id FROM Case WHERE OrderItemId__r.Product2Id = '${row!.p}'`,
      sql: `SELECT c.Id FROM "Case" c JOIN OrderItem oi ON oi.Id = c.OrderItemId__c WHERE oi.Product2Id = '${row!.p}'`,
    });
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
    const [expected] = await sql(
      `SELECT c.Id, c.AccountId, a.ShippingState, c.OwnerId, u.FirstName || ' ' || u.LastName AS name FROM "Case" c JOIN Account a ON a.Id = c.AccountId JOIN "User" u ON u.Id = c.OwnerId ORDER BY c.Id LIMIT 1`,
    );
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
    [
      "SELECT Id FROM Case WHERE CreatedDate > 2023-01-01",
      "INVALID_FIELD",
      /value of filter criterion for field 'CreatedDate' must be of type dateTime and should not be enclosed in quotes/,
    ],
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
const words = (text: unknown) =>
  String(text ?? "")
    .toLowerCase()
    .split(/[^\p{L}\p{N}]+/u)
    .filter(Boolean);

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
        return predicate(
          fields.flatMap((field) => words(row[field])),
          text.toLowerCase(),
        );
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
    [
      "FIND {(login OR installation) AND error} RETURNING Case(Id)",
      "Case",
      ["Priority", "Subject", "Description", "Status"],
      (t) => (t.includes("login") || t.includes("installation")) && t.includes("error"),
    ],
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
