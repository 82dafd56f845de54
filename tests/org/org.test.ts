import { createHash } from "node:crypto";
import { mkdirSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import Database from "better-sqlite3";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { OrgLoadError, openBackend, runOrgTool, type SqliteOrgStore } from "../../src/org/index.js";
import { ORG_COLUMNS } from "../../src/sample/index.js";
import { openSqliteOrg, SAMPLE_ORG } from "../support/helpers.js";

const dir = mkdtempSync(join(tmpdir(), "org-"));
const dbPath = join(dir, "crm.db");
let fromFile: SqliteOrgStore;
let sample: SqliteOrgStore;
const sha = (path: string) => createHash("sha256").update(readFileSync(path)).digest("hex");

beforeAll(async () => {
  const db = new Database(dbPath);
  db.exec(`
    CREATE TABLE Account (Id TEXT, Name TEXT, ShippingState TEXT);
    CREATE TABLE "Case" (Id TEXT, AccountId TEXT, ClosedDate TEXT, CreatedDate TEXT, Amount REAL);
    INSERT INTO Account VALUES ('001Wt00000AAAAAAAA', 'Acme', 'CA'), ('001Wt00000AAAAAAAB', 'None', 'None');
    INSERT INTO "Case" VALUES ('500Wt00000AAAAAAAA', '001Wt00000AAAAAAAA', 'None', '2023-01-01T10:00:00.000+0000', 5.5);
  `);
  db.close();
  fromFile = await openSqliteOrg(dbPath, { workers: 1 });
  sample = await openSqliteOrg(SAMPLE_ORG, { workers: 2 });
});

afterAll(async () => {
  await fromFile.close();
  await sample.close();
});

describe("loading", () => {
  it("reads a CRMArena-Pro SQLite file without touching it, 'None' as null", async () => {
    const before = sha(dbPath);
    const outcome = await fromFile.query(`SELECT * FROM "Case"`);
    expect(outcome.ok && outcome.rows).toEqual([
      { Id: "500Wt00000AAAAAAAA", AccountId: "001Wt00000AAAAAAAA", ClosedDate: null, CreatedDate: "2023-01-01T10:00:00.000+0000", Amount: 5.5 },
    ]);
    expect(sha(dbPath)).toBe(before);
  });

  it("introspects types and relationships from the data", () => {
    const kase = fromFile.findObject("case")!;
    expect(kase.keyPrefix).toBe("500");
    expect(kase.fields.map((field) => [field.name, field.type, field.references])).toEqual([
      ["Id", "id", []],
      ["AccountId", "reference", ["Account"]],
      ["ClosedDate", "string", []],
      ["CreatedDate", "datetime", []],
      ["Amount", "double", []],
    ]);
  });

  it("loads the bundled sample: 27 objects with the real columns", () => {
    expect(sample.schema.objects.map((object) => object.name).sort()).toEqual(Object.keys(ORG_COLUMNS).sort());
    for (const object of sample.schema.objects) expect(object.fields.map((field) => field.name)).toEqual(ORG_COLUMNS[object.name]);
    const kase = sample.findObject("Case")!;
    expect(kase.fields.find((field) => field.name === "OwnerId")!.references).toEqual(["User"]);
    expect(kase.fields.find((field) => field.name === "OrderItemId__c")!.references).toEqual(["OrderItem"]);
    expect(sample.findObject("Task")!.fields.find((field) => field.name === "WhatId")!.references).toEqual(["Opportunity"]);
    expect(sample.findObject("Lead")!.fields.find((field) => field.name === "IsConverted")!.type).toBe("boolean");
  });

  it("explains sources it cannot use", async () => {
    await expect(openBackend(join(dir, "missing"))).rejects.toThrow(OrgLoadError);
    const empty = join(dir, "empty");
    mkdirSync(empty);
    await expect(openBackend(empty)).rejects.toThrow(/has no \.csv files/);
    writeFileSync(join(dir, "not.db"), "hello");
    await expect(openBackend(join(dir, "not.db"))).rejects.toThrow(/not a readable SQLite database/);
  });

  it("refuses a CSV cut short inside its last row, naming the file and the fix", async () => {
    const cut = join(dir, "cut");
    mkdirSync(cut);
    // The last row has every column, its last value cut: it would load as a half value.
    writeFileSync(join(cut, "Account.csv"), "Id,Name\n001000000000001AAA,Acme\n001000000000002AAA,Glob");
    await expect(openBackend(cut)).rejects.toThrow(/Account\.csv does not end with a line break.*restore the file/);
    writeFileSync(join(cut, "Account.csv"), "Id,Name\n001000000000001AAA,Acme\n");
    const whole = await openBackend(cut);
    expect(await whole.rows("Account")).toHaveLength(1);
    await whole.close();
  });
});

describe("queries", () => {
  it("refuses every kind of write and leaves the org unchanged", async () => {
    for (const sql of [
      "DELETE FROM Account",
      "UPDATE Account SET Name = 'x'",
      "INSERT INTO Account VALUES ('a','b','c')",
      "DROP TABLE Account",
      "CREATE TABLE t(a)",
      "ATTACH DATABASE ':memory:' AS x",
      "PRAGMA query_only = 0",
      "  /* sneaky */ delete from Account",
      "SELECT 1; DELETE FROM Account",
      "VACUUM",
    ]) {
      const outcome = await sample.query(sql);
      expect(outcome.ok, sql).toBe(false);
    }
    const count = await sample.query("SELECT COUNT(*) AS n FROM Account");
    expect(count.ok && count.rows[0]!.n).toBe(sample.findObject("Account")!.rowCount);
  });

  it("stops a runaway query and keeps answering afterwards", async () => {
    const runaway = await sample.query("WITH RECURSIVE r(x) AS (SELECT 1 UNION ALL SELECT x + 1 FROM r) SELECT count(*) FROM r", { timeoutMs: 300 });
    expect(runaway).toMatchObject({ ok: false, code: "QUERY_TIMEOUT" });
    const next = await sample.query("SELECT COUNT(*) AS n FROM Issue__c");
    expect(next.ok && next.rows[0]!.n).toBe(15);
  });

  it("caps rows and bytes with a truncated flag", async () => {
    const rows = await sample.query("SELECT Id FROM Task", { maxRows: 10 });
    expect(rows.ok && rows.rows.length).toBe(10);
    expect(rows.ok && rows.truncated).toBe(true);
    const bytes = await sample.query("SELECT Body__c FROM VoiceCallTranscript__c", { maxBytes: 2_000 });
    expect(bytes.ok && bytes.truncated).toBe(true);
    expect(bytes.ok && JSON.stringify(bytes.rows).length).toBeLessThanOrEqual(2_000);
  });

  it("answers many concurrent queries", async () => {
    const outcomes = await Promise.all(Array.from({ length: 50 }, (_, i) => sample.query(`SELECT ${i} AS i, COUNT(*) AS n FROM Lead`)));
    expect(outcomes.map((outcome) => outcome.ok && outcome.rows[0]!.i)).toEqual(Array.from({ length: 50 }, (_, i) => i));
  });

  it("describes one object or all, and names unknown objects", async () => {
    expect(await runOrgTool(sample, { tool: "describe_schema", object: "issue__c" })).toMatchObject({ ok: true, kind: "schema", objects: [{ name: "Issue__c", rowCount: 15 }] });
    expect(await runOrgTool(sample, { tool: "describe_schema", object: "Widget" })).toMatchObject({
      ok: false,
      code: "INVALID_TYPE",
      message: expect.stringMatching(/^sObject type 'Widget' is not supported/),
    });
  });
});

describe("describe_schema", () => {
  it("names the relationship of every lookup SOQL can walk, and none for a field of several Ids", () => {
    const caseObject = sample.schema.objects.find((object) => object.name === "Case")!;
    expect(caseObject.fields.find((field) => field.name === "AccountId")).toMatchObject({ type: "reference", relationshipName: "Account" });
    expect(caseObject.fields.find((field) => field.name === "OrderItemId__c")).toMatchObject({ type: "reference", relationshipName: "OrderItemId__r" });
    const email = sample.schema.objects.find((object) => object.name === "EmailMessage")!;
    expect(email.fields.find((field) => field.name === "ToIds")?.relationshipName).toBeUndefined();
  });
});
