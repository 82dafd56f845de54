import { readdirSync, readFileSync } from "node:fs";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { caseSafeSuffix, generateOrg, generateTasks, ORG_COLUMNS, REAL_ROW_COUNTS } from "../../src/sample/index.js";
import { SAMPLE_ORG, SAMPLE_TASKS } from "../support/helpers.js";

describe("the sample org generator", () => {
  it("is deterministic for a seed and differs across seeds", () => {
    const a = generateOrg(7, 0.1);
    const b = generateOrg(7, 0.1);
    const c = generateOrg(8, 0.1);
    expect(JSON.stringify(a.tables)).toBe(JSON.stringify(b.tables));
    expect(JSON.stringify(a.tables)).not.toBe(JSON.stringify(c.tables));
    expect(JSON.stringify(generateTasks(a, 7))).toBe(JSON.stringify(generateTasks(b, 7)));
  });

  it("the bundled sample is exactly what `org synth` generates (seed 42, scale 0.1)", () => {
    const org = generateOrg(42, 0.1);
    expect(JSON.parse(readFileSync(SAMPLE_TASKS, "utf8"))).toEqual(JSON.parse(JSON.stringify(generateTasks(org, 42))));
    expect(readdirSync(SAMPLE_ORG).sort()).toEqual(
      Object.keys(ORG_COLUMNS)
        .map((name) => `${name}.csv`)
        .sort(),
    );
    const accounts = readFileSync(join(SAMPLE_ORG, "Account.csv"), "utf8").trim().split("\n");
    expect(accounts[0]).toBe(ORG_COLUMNS.Account!.join(","));
    expect(accounts).toHaveLength(org.tables.Account!.length + 1);
  });

  it("reaches the real database's size at scale 1, with real Id shapes and formats", () => {
    const org = generateOrg(42, 1);
    const rows = Object.values(org.tables).reduce((sum, table) => sum + table.length, 0);
    const realRows = Object.values(REAL_ROW_COUNTS).reduce((sum, count) => sum + count, 0);
    expect(realRows).toBe(29_221);
    expect(rows).toBeGreaterThan(0.9 * realRows);
    expect(rows).toBeLessThan(1.1 * realRows);
    for (const [object, table] of Object.entries(org.tables)) {
      for (const row of table.slice(0, 20)) {
        expect(Object.keys(row).sort()).toEqual([...ORG_COLUMNS[object]!].sort());
        expect(String(row.Id)).toMatch(/^[a-zA-Z0-9]{3}Wt[a-zA-Z0-9]{13}$/);
        expect(String(row.Id).slice(15)).toBe(caseSafeSuffix(String(row.Id).slice(0, 15)));
      }
    }
    expect(String(org.tables.Case![0]!.CreatedDate)).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.000\+0000$/);
    expect(String(org.tables.Contract![0]!.CompanySignedDate)).toMatch(/^\d{4}-\d{2}-\d{2}$/);
    expect(org.tables.User![0]!.Id).toMatch(/^005/);
  });

  it("computes Salesforce's case-safe suffix", () => {
    // 001000000000001 has no capitals: suffix AAA; capitals set the bits.
    expect(caseSafeSuffix("001000000000001")).toBe("AAA");
    expect(caseSafeSuffix("005Wt000003NDqD")).toBe("IAW");
  });
});
