import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { introspectSchema, loadOrgImage, type ObjectInfo, type OrgStore, quoteIdent, runOrgTool, runSoql, runSosl, SqliteOrgStore } from "../../src/org/index.js";
import { openSqliteOrg, SAMPLE_ORG } from "../support/helpers.js";
import { SOQL_CORPUS } from "../support/soql-corpus-cases.js";
import { flatten, round, sorted } from "../support/soql-helpers.js";

/**
 * Salesforce's recycle bin: on an org whose objects have `IsDeleted` (as the assessment's copy
 * does), SOQL and SOSL leave deleted records out unless the query ends with ALL ROWS. The org is
 * the sample with the flag added and records deleted by hand; every expected result comes from a
 * hand-written SQLite query with the IsDeleted filter written out.
 */
const TODAY = "2023-06-15";

let base: SqliteOrgStore;
/** The sample with IsDeleted on every object, all false: must answer exactly as the sample does. */
let zero: SqliteOrgStore;
/** The sample with IsDeleted and a recycle bin (see `fillRecycleBin`). */
let org: SqliteOrgStore;
let bin: RecycleBin;

interface RecycleBin {
  /** Every deleted record's Id. */
  readonly ids: ReadonlySet<string>;
  /** Live accounts whose only High-priority cases are deleted ones. */
  readonly highOnlyInBin: readonly string[];
  /** Live cases whose account is deleted. */
  readonly casesOfDeletedAccounts: readonly string[];
  /** A deleted case whose subject contains the words "all rows". */
  readonly allRowsSubject: { readonly id: string; readonly subject: string };
  /** A deleted article whose title has a word no live record has. */
  readonly uniqueArticle: { readonly id: string; readonly word: string };
}

/** A copy of the base org with `IsDeleted` (INTEGER 0/1, as the assessment adds it) on every object. */
function withDeletedFlag(source: OrgStore, label: string, fill: (db: Database.Database, objects: readonly ObjectInfo[]) => void = () => {}): SqliteOrgStore {
  // The store's image is private to the backend: read the same source again.
  const db = new Database(loadOrgImage(source.source).image);
  try {
    for (const object of source.schema.objects) db.exec(`ALTER TABLE ${quoteIdent(object.name)} ADD COLUMN "IsDeleted" INTEGER NOT NULL DEFAULT 0`);
    fill(db, source.schema.objects);
    return new SqliteOrgStore(introspectSchema(db), label, db.serialize(), { workers: 2 });
  } finally {
    db.close();
  }
}

type Row = Record<string, unknown>;

/** Inserts a deleted copy of `row` with a new Id of the object's key prefix; returns the Id. */
function insertDeleted(db: Database.Database, object: ObjectInfo, row: Row, serial: number, changes: Row = {}): string {
  const id = `${object.keyPrefix ?? "a00"}DEL${String(serial).padStart(12, "0")}`;
  const record: Row = { ...row, ...changes, Id: id, IsDeleted: 1 };
  const columns = Object.keys(record);
  db.prepare(`INSERT INTO ${quoteIdent(object.name)} (${columns.map(quoteIdent).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`).run(
    ...columns.map((column) => record[column] ?? null),
  );
  return id;
}

/**
 * Deletes records in the ways rot and real users do: near-duplicate copies of every fourth record
 * of each object (rot), some real cases and accounts moved to the bin, and a few records shaped to
 * catch a filter missing in one place (a semi-join's inner query, a child subquery, SOSL).
 */
function fillRecycleBin(db: Database.Database, objects: readonly ObjectInfo[]): RecycleBin {
  const ids = new Set<string>();
  let serial = 0;
  const byName = (name: string) => objects.find((object) => object.name === name)!;
  for (const object of objects) {
    const rows = db.prepare(`SELECT * FROM ${quoteIdent(object.name)} ORDER BY rowid`).all() as Row[];
    rows.forEach((row, i) => {
      if (i % 4 !== 0) return;
      // Deleted opportunities are worth ten times more, so SUM and MAX notice them.
      const changes = object.name === "Opportunity" && typeof row.Amount === "number" ? { Amount: row.Amount * 10 } : {};
      ids.add(insertDeleted(db, object, row, serial++, changes));
    });
  }
  const kase = byName("Case");
  const realCases = db.prepare(`SELECT Id FROM "Case" WHERE Id NOT LIKE '500DEL%' ORDER BY Id`).pluck().all() as string[];
  for (const id of realCases.filter((_, i) => i % 7 === 3)) ids.add(id);
  db.prepare(
    `UPDATE "Case" SET IsDeleted = 1 WHERE Id IN (${realCases
      .filter((_, i) => i % 7 === 3)
      .map(() => "?")
      .join(", ")})`,
  ).run(...realCases.filter((_, i) => i % 7 === 3));
  const deletedAccounts = db.prepare(`SELECT AccountId FROM "Case" WHERE IsDeleted = 0 GROUP BY AccountId ORDER BY AccountId LIMIT 2`).pluck().all() as string[];
  db.prepare(`UPDATE Account SET IsDeleted = 1 WHERE Id IN (?, ?)`).run(...deletedAccounts);
  for (const id of deletedAccounts) ids.add(id);
  const casesOfDeletedAccounts = db
    .prepare(`SELECT Id FROM "Case" WHERE IsDeleted = 0 AND AccountId IN (?, ?)`)
    .pluck()
    .all(...deletedAccounts) as string[];
  const template = db.prepare(`SELECT * FROM "Case" WHERE IsDeleted = 0 ORDER BY Id LIMIT 1`).get() as Row;
  const highOnlyInBin = db
    .prepare(`SELECT Id FROM Account WHERE IsDeleted = 0 AND Id NOT IN (SELECT AccountId FROM "Case" WHERE Priority = 'High' AND IsDeleted = 0) ORDER BY Id LIMIT 3`)
    .pluck()
    .all() as string[];
  for (const accountId of highOnlyInBin) ids.add(insertDeleted(db, kase, template, serial++, { AccountId: accountId, Priority: "High" }));
  const subject = "Purged all rows";
  const allRowsSubject = { id: insertDeleted(db, kase, template, serial++, { Subject: subject }), subject };
  ids.add(allRowsSubject.id);
  const article = db.prepare(`SELECT * FROM Knowledge__kav ORDER BY Id LIMIT 1`).get() as Row;
  const word = "Zyxwvutsrq";
  const uniqueArticle = { id: insertDeleted(db, byName("Knowledge__kav"), article, serial++, { Title: `${word} recovery guide` }), word };
  ids.add(uniqueArticle.id);
  return { ids, highOnlyInBin, casesOfDeletedAccounts, allRowsSubject, uniqueArticle };
}

beforeAll(async () => {
  base = await openSqliteOrg(SAMPLE_ORG, { workers: 2 });
  zero = withDeletedFlag(base, "sample, IsDeleted all false");
  org = withDeletedFlag(base, "sample with a recycle bin", (db, objects) => {
    bin = fillRecycleBin(db, objects);
  });
});
afterAll(async () => {
  await Promise.all([base.close(), zero.close(), org.close()]);
});

async function sql(query: string): Promise<Row[]> {
  const outcome = await org.query(query, { maxRows: 5000 });
  if (!outcome.ok) throw new Error(`expected SQL failed: ${outcome.message}\n${query}`);
  return outcome.rows as Row[];
}

async function soql(text: string, on: OrgStore = org): Promise<{ records: Row[]; totalSize: number }> {
  const outcome = await runSoql(on, text, TODAY);
  if (!outcome.ok) throw new Error(`${text}\n→ ${outcome.code}: ${outcome.message}`);
  return outcome;
}

const flat = async (text: string) => round((await soql(text)).records.map((record) => flatten(record)));

/** The live-records condition on a table alias, written out for the expected SQL. */
type Live = (alias: string) => string;
const LIVE: Live = (alias) => `${alias}.IsDeleted = 0`;
const EVERY_ROW: Live = () => "1";

/** A query whose expected result is `sql(LIVE)` as written and `sql(EVERY_ROW)` with ALL ROWS. */
interface DeletedCase {
  readonly soql: string;
  readonly sql: (live: Live) => string;
  readonly ordered?: boolean;
}

const CASES: Record<string, DeletedCase[]> = {
  records: [
    { soql: "SELECT Id, Subject FROM Case WHERE Priority = 'High'", sql: (live) => `SELECT Id, Subject FROM "Case" c WHERE c.Priority = 'High' AND ${live("c")}` },
    // The filter must not bind to the last OR term only.
    {
      soql: "SELECT Id FROM Case WHERE Status = 'Closed' OR Priority = 'Low'",
      sql: (live) => `SELECT Id FROM "Case" c WHERE (c.Status = 'Closed' OR c.Priority = 'Low') AND ${live("c")}`,
    },
    { soql: "SELECT Id FROM Case WHERE NOT Status = 'Closed'", sql: (live) => `SELECT Id FROM "Case" c WHERE c.Status <> 'Closed' AND ${live("c")}` },
    { soql: "SELECT Id, Title FROM Knowledge__kav", sql: (live) => `SELECT Id, Title FROM Knowledge__kav k WHERE ${live("k")}` },
    { soql: "SELECT Id, Name FROM Account", sql: (live) => `SELECT Id, Name FROM Account a WHERE ${live("a")}` },
    { soql: "SELECT Id FROM Case ORDER BY Id LIMIT 5 OFFSET 2", sql: (live) => `SELECT Id FROM "Case" c WHERE ${live("c")} ORDER BY Id LIMIT 5 OFFSET 2`, ordered: true },
    {
      soql: "SELECT Id, Amount FROM Opportunity ORDER BY Amount DESC, Id LIMIT 10",
      sql: (live) => `SELECT Id, Amount FROM Opportunity o WHERE ${live("o")} ORDER BY Amount DESC, Id LIMIT 10`,
      ordered: true,
    },
  ],
  aggregates: [
    {
      soql: "SELECT COUNT(Id), SUM(Amount), MAX(Amount) FROM Opportunity",
      sql: (live) => `SELECT COUNT(*) AS expr0, SUM(Amount) AS expr1, MAX(Amount) AS expr2 FROM Opportunity o WHERE ${live("o")}`,
    },
    { soql: "SELECT COUNT(Id) n FROM Case WHERE Status = 'Closed'", sql: (live) => `SELECT COUNT(*) AS n FROM "Case" c WHERE c.Status = 'Closed' AND ${live("c")}` },
    {
      soql: "SELECT COUNT(Id), SUM(TotalPrice) FROM QuoteLineItem WHERE Quote.Status = 'Accepted'",
      sql: (live) => `SELECT COUNT(*) AS expr0, SUM(l.TotalPrice) AS expr1 FROM QuoteLineItem l JOIN Quote q ON q.Id = l.QuoteId WHERE q.Status = 'Accepted' AND ${live("l")}`,
    },
  ],
  "GROUP BY and HAVING": [
    { soql: "SELECT Status, COUNT(Id) n FROM Case GROUP BY Status", sql: (live) => `SELECT Status, COUNT(*) AS n FROM "Case" c WHERE ${live("c")} GROUP BY Status` },
    {
      soql: "SELECT Account.ShippingState, COUNT(Id) FROM Case GROUP BY Account.ShippingState",
      sql: (live) => `SELECT a.ShippingState AS ShippingState, COUNT(*) AS expr0 FROM "Case" c JOIN Account a ON a.Id = c.AccountId WHERE ${live("c")} GROUP BY a.ShippingState`,
    },
    {
      soql: "SELECT OwnerId, COUNT(Id) FROM Lead GROUP BY OwnerId HAVING COUNT(Id) > 15",
      sql: (live) => `SELECT OwnerId, COUNT(*) AS expr0 FROM Lead l WHERE ${live("l")} GROUP BY OwnerId HAVING COUNT(*) > 15`,
    },
    {
      soql: "SELECT CALENDAR_YEAR(CreatedDate) y, COUNT(Id) FROM Case GROUP BY CALENDAR_YEAR(CreatedDate)",
      sql: (live) => `SELECT CAST(substr(CreatedDate, 1, 4) AS INTEGER) AS y, COUNT(*) AS expr0 FROM "Case" c WHERE ${live("c")} GROUP BY 1`,
    },
  ],
  "relationship paths (parents are read whatever their IsDeleted)": [
    { soql: "SELECT Id, Account.Name FROM Case", sql: (live) => `SELECT c.Id, a.Name AS "Account.Name" FROM "Case" c JOIN Account a ON a.Id = c.AccountId WHERE ${live("c")}` },
    {
      soql: "SELECT Id FROM Case WHERE Account.Industry = 'Electronics'",
      sql: (live) => `SELECT c.Id FROM "Case" c JOIN Account a ON a.Id = c.AccountId WHERE a.Industry = 'Electronics' AND ${live("c")}`,
    },
    {
      soql: "SELECT Id, Contact.Account.Name FROM Case",
      sql: (live) => `SELECT c.Id, a.Name AS "Contact.Account.Name" FROM "Case" c JOIN Contact ct ON ct.Id = c.ContactId JOIN Account a ON a.Id = ct.AccountId WHERE ${live("c")}`,
    },
  ],
  "semi-joins and anti-joins (the inner query is filtered too)": [
    {
      soql: "SELECT Id FROM Account WHERE Id IN (SELECT AccountId FROM Case WHERE Priority = 'High')",
      sql: (live) => `SELECT Id FROM Account a WHERE a.Id IN (SELECT AccountId FROM "Case" c WHERE c.Priority = 'High' AND ${live("c")}) AND ${live("a")}`,
    },
    {
      soql: "SELECT Id FROM Account WHERE Id NOT IN (SELECT AccountId FROM Case WHERE Priority = 'High')",
      sql: (live) => `SELECT Id FROM Account a WHERE a.Id NOT IN (SELECT AccountId FROM "Case" c WHERE c.Priority = 'High' AND ${live("c")}) AND ${live("a")}`,
    },
    {
      soql: "SELECT Id FROM Case WHERE AccountId IN (SELECT Id FROM Account WHERE Industry = 'Electronics')",
      sql: (live) => `SELECT Id FROM "Case" c WHERE c.AccountId IN (SELECT Id FROM Account a WHERE a.Industry = 'Electronics' AND ${live("a")}) AND ${live("c")}`,
    },
  ],
};

describe("SOQL hides recycle-bin records unless ALL ROWS", () => {
  for (const [feature, cases] of Object.entries(CASES)) {
    describe(feature, () => {
      for (const entry of cases) {
        it(entry.soql, async () => {
          const [live, every] = [round(await sql(entry.sql(LIVE))), round(await sql(entry.sql(EVERY_ROW)))];
          // The recycle bin must change the answer, or the case proves nothing.
          expect(sorted(live)).not.toEqual(sorted(every));
          const [actual, actualAll] = [await flat(entry.soql), await flat(`${entry.soql} ALL ROWS`)];
          if (entry.ordered) {
            expect(actual).toEqual(live);
            expect(actualAll).toEqual(every);
          } else {
            expect(sorted(actual)).toEqual(sorted(live));
            expect(sorted(actualAll)).toEqual(sorted(every));
          }
        });
      }
    });
  }

  it("answers COUNT() with the live total, the whole table with ALL ROWS, and honours an explicit IsDeleted filter", async () => {
    const count = async (query: string) => Number((await sql(query))[0]!.n);
    const [live, deleted] = [await count(`SELECT COUNT(*) AS n FROM "Case" WHERE IsDeleted = 0`), await count(`SELECT COUNT(*) AS n FROM "Case" WHERE IsDeleted = 1`)];
    expect(deleted).toBeGreaterThan(0);
    const expectations: [string, number][] = [
      ["SELECT COUNT() FROM Case", live],
      ["SELECT COUNT() FROM Case ALL ROWS", live + deleted],
      ["SELECT COUNT() FROM Case all rows", live + deleted],
      ["SELECT COUNT() FROM Case\n  All   Rows  ", live + deleted],
      // As on Salesforce: without ALL ROWS a query never sees the bin, whatever it asks.
      ["SELECT COUNT() FROM Case WHERE IsDeleted = true", 0],
      ["SELECT COUNT() FROM Case WHERE IsDeleted = true ALL ROWS", deleted],
      ["SELECT COUNT() FROM Case WHERE IsDeleted = false ALL ROWS", live],
      ["SELECT COUNT() FROM Case WHERE IsDeleted = false", live],
      [
        "SELECT COUNT() FROM Case WHERE Status = 'Closed' OR Priority = 'Low'",
        await count(`SELECT COUNT(*) AS n FROM "Case" WHERE (Status = 'Closed' OR Priority = 'Low') AND IsDeleted = 0`),
      ],
    ];
    for (const [query, total] of expectations) expect((await soql(query)).totalSize, query).toBe(total);
  });

  it("returns exactly the recycle bin for WHERE IsDeleted = true ALL ROWS, and nothing without ALL ROWS", async () => {
    const binIds = (await sql(`SELECT Id FROM "Case" WHERE IsDeleted = 1`)).map((row) => row.Id);
    expect((await soql("SELECT Id FROM Case WHERE IsDeleted = true")).records).toEqual([]);
    const all = await soql("SELECT Id, IsDeleted FROM Case WHERE IsDeleted = true ALL ROWS");
    expect(all.records.map((record) => record.Id).sort()).toEqual([...binIds].sort());
    expect(all.records.every((record) => record.IsDeleted === 1)).toBe(true);
    expect(binIds.every((id) => bin.ids.has(String(id)))).toBe(true);
  });

  it("reads 'all rows' inside a string literal as text, not as ALL ROWS", async () => {
    const { id, subject } = bin.allRowsSubject;
    expect((await soql(`SELECT Id FROM Case WHERE Subject = '${subject}'`)).records).toEqual([]);
    expect((await soql(`SELECT Id FROM Case WHERE Subject = '${subject}' ALL ROWS`)).records.map((record) => record.Id)).toEqual([id]);
    expect((await soql(`SELECT Id FROM Case WHERE Subject = 'it\\'s' OR Subject = '${subject}' ALL ROWS`)).records.map((record) => record.Id)).toEqual([id]);
    const unclosed = await runSoql(org, `SELECT Id FROM Case WHERE Subject = '${subject}`, TODAY);
    expect(unclosed).toMatchObject({ ok: false, code: "MALFORMED_QUERY" });
  });

  it("refuses ALL ROWS anywhere but at the end", async () => {
    for (const query of [
      "SELECT Id FROM Case ALL ROWS LIMIT 5",
      "SELECT Id FROM Case ALL ROWS WHERE Status = 'Closed'",
      "SELECT Id, (SELECT Id FROM Cases ALL ROWS) FROM Account",
    ]) {
      const outcome = await runSoql(org, query, TODAY);
      expect(outcome, query).toMatchObject({ ok: false, code: "MALFORMED_QUERY", message: "ALL ROWS must end the query, after LIMIT and OFFSET" });
    }
  });

  it("filters child-relationship subqueries, and ALL ROWS returns their deleted children", async () => {
    const cases = await sql(`SELECT Id, AccountId, IsDeleted FROM "Case" WHERE Priority = 'High' ORDER BY Id`);
    const accounts = await sql(`SELECT Id, IsDeleted FROM Account`);
    for (const allRows of [false, true]) {
      const outcome = await soql(`SELECT Id, (SELECT Id FROM Cases WHERE Priority = 'High' ORDER BY Id) FROM Account${allRows ? " ALL ROWS" : ""}`);
      const expectedAccounts = accounts.filter((row) => allRows || row.IsDeleted === 0).map((row) => row.Id);
      expect(outcome.records.map((record) => record.Id).sort()).toEqual([...expectedAccounts].sort());
      for (const account of outcome.records) {
        const mine = cases.filter((row) => row.AccountId === account.Id && (allRows || row.IsDeleted === 0)).map((row) => ({ Id: row.Id }));
        expect(account.Cases).toEqual(mine.length === 0 ? null : { totalSize: mine.length, done: true, records: mine });
      }
      // Accounts whose High cases are all deleted: no children live, some with ALL ROWS.
      for (const id of bin.highOnlyInBin) expect(outcome.records.find((record) => record.Id === id)!.Cases === null).toBe(!allRows);
    }
  });

  it("filters a semi-join's inner query", async () => {
    const query = "SELECT Id FROM Account WHERE Id IN (SELECT AccountId FROM Case WHERE Priority = 'High')";
    const ids = async (text: string) => new Set((await soql(text)).records.map((record) => String(record.Id)));
    const [live, all] = [await ids(query), await ids(`${query} ALL ROWS`)];
    expect(bin.highOnlyInBin.length).toBeGreaterThan(0);
    for (const id of bin.highOnlyInBin) {
      expect(live.has(id)).toBe(false);
      expect(all.has(id)).toBe(true);
    }
  });

  it("reads a deleted parent's fields through a live child's lookup", async () => {
    expect(bin.casesOfDeletedAccounts.length).toBeGreaterThan(0);
    const outcome = await soql(`SELECT Id, Account.Name FROM Case WHERE Id IN ('${bin.casesOfDeletedAccounts.join("', '")}')`);
    expect(outcome.records).toHaveLength(bin.casesOfDeletedAccounts.length);
    for (const record of outcome.records) expect((record.Account as Row).Name).toEqual(expect.any(String));
  });

  it("sql_query shows the stored tables as they are, recycle bin included", async () => {
    const raw = await runOrgTool(org, { tool: "sql_query", query: `SELECT COUNT(*) AS n FROM "Case"` });
    const counted = await soql("SELECT COUNT() FROM Case ALL ROWS");
    expect(raw.ok && raw.kind === "records" && raw.records[0]!.n).toBe(counted.totalSize);
    expect(counted.totalSize).toBeGreaterThan((await soql("SELECT COUNT() FROM Case")).totalSize);
  });
});

describe("SOSL never returns recycle-bin records", () => {
  const ids = async (search: string, on: OrgStore = org) => {
    const outcome = await runSosl(on, search, TODAY);
    if (!outcome.ok) throw new Error(`${search} → ${outcome.code}: ${outcome.message}`);
    return outcome.records.map((record) => String(record.Id));
  };

  it("finds only live records, per RETURNING object and without RETURNING", async () => {
    for (const search of [
      "FIND {scalability} RETURNING Knowledge__kav(Id)",
      "FIND {aisha} IN NAME FIELDS RETURNING Contact(Id), Lead(Id)",
      "FIND {error} RETURNING Case(Id)",
      "FIND {aisha}",
    ]) {
      const found = await ids(search);
      const before = await ids(search, zero);
      expect(found.length, search).toBeGreaterThan(0);
      expect(
        found.filter((id) => bin.ids.has(id)),
        search,
      ).toEqual([]);
      // Live records are untouched, except the real ones moved to the bin.
      expect(found, search).toEqual(before.filter((id) => !bin.ids.has(id)));
    }
  });

  it("applies a RETURNING WHERE, ORDER BY and LIMIT to live records", async () => {
    const outcome = await runSosl(org, "FIND {policy} RETURNING Knowledge__kav(Id, Title WHERE Title LIKE '%Policy%' ORDER BY Title DESC, Id LIMIT 3)", TODAY);
    const expected = await sql(`SELECT Id, Title FROM Knowledge__kav WHERE Title LIKE '%Policy%' AND IsDeleted = 0 ORDER BY Title DESC, Id LIMIT 3`);
    expect(outcome.ok && outcome.records).toEqual(expected);
  });

  it("does not find a word only a deleted record has, and has no ALL ROWS", async () => {
    const { id, word } = bin.uniqueArticle;
    expect(await ids(`FIND {${word}} RETURNING Knowledge__kav(Id)`)).toEqual([]);
    expect((await soql(`SELECT Id FROM Knowledge__kav WHERE Title LIKE '${word}%' ALL ROWS`)).records.map((record) => record.Id)).toEqual([id]);
    for (const search of [`FIND {${word}} RETURNING Knowledge__kav(Id ORDER BY Title ALL ROWS)`, `FIND {${word}} RETURNING Knowledge__kav(Id WHERE Title != null ALL ROWS)`]) {
      expect(await runSosl(org, search, TODAY), search).toMatchObject({ ok: false, code: "MALFORMED_SEARCH", message: expect.stringMatching(/ALL ROWS is not part of SOSL/) });
    }
  });
});

describe("an org whose IsDeleted are all false answers as the org without the flag", () => {
  const answer = async (on: OrgStore, text: string) => {
    const { elapsedMs: _elapsed, ...rest } = await runSoql(on, text, TODAY);
    return rest;
  };

  it("gives every corpus query the same result, with and without ALL ROWS", async () => {
    const queries = Object.values(SOQL_CORPUS)
      .flat()
      .map((entry) => entry.soql);
    queries.push(
      ...Object.values(CASES)
        .flat()
        .map((entry) => entry.soql),
      "SELECT COUNT() FROM Case",
      "SELECT Id, (SELECT Id FROM Cases ORDER BY Id) FROM Account",
    );
    for (const query of queries) {
      const expected = await answer(base, query);
      expect(expected.ok, query).toBe(true);
      expect(await answer(zero, query), query).toEqual(expected);
      expect(await answer(zero, `${query} ALL ROWS`), `${query} ALL ROWS`).toEqual(expected);
      expect(await answer(base, `${query} ALL ROWS`), `${query} ALL ROWS on the base org`).toEqual(expected);
    }
  });

  it("gives searches the same result", async () => {
    for (const search of [
      "FIND {network scalability} RETURNING Knowledge__kav(Id, Title)",
      "FIND {(login OR installation) AND error} RETURNING Case(Id, Subject)",
      "FIND {aisha} IN NAME FIELDS RETURNING Contact(Id), Lead(Id)",
      "FIND {refund}",
    ]) {
      const { elapsedMs: _a, ...expected } = await runSosl(base, search, TODAY);
      const { elapsedMs: _b, ...actual } = await runSosl(zero, search, TODAY);
      expect(actual, search).toEqual(expected);
    }
  });
});
