import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { loadOrgImage, runSosl, SqliteOrgStore } from "../../src/org/index.js";
import { QueryPool } from "../../src/org/query-pool.js";
import { matches } from "../../src/org/sosl/match.js";
import { SAMPLE_ORG } from "../support/helpers.js";

/**
 * Ten terms of 30 single-character wildcards before a common ending, over every e-mail body: the
 * search scans the whole table inside one statement and matches nothing, so it never hands a row
 * back. How slow a pattern is depends on the regular-expression engine (Node.js 26's gives up
 * backtracking early), so the search runs under a 1 ms limit that no scan of the table meets.
 */
const ENDINGS = ["er", "on", "an", "in", "re", "es", "te", "at", "ti", "or"];
const BOMB = `FIND {(${ENDINGS.map((ending) => `${"?*".repeat(30)}${ending}`).join(" OR ")})} IN ALL FIELDS RETURNING EmailMessage(Id)`;

let pool: QueryPool;
let store: SqliteOrgStore;
let strict: SqliteOrgStore;
let today: string;

beforeAll(async () => {
  const { image, schema, source } = loadOrgImage(SAMPLE_ORG);
  pool = new QueryPool(1);
  store = new SqliteOrgStore(schema, source, image, { limits: { timeoutMs: 300 } }, pool);
  strict = new SqliteOrgStore(schema, source, image, { limits: { timeoutMs: 1 } }, pool);
  today = await store.today();
});

afterAll(async () => {
  await store.close();
  await strict.close();
  await pool.close();
});

describe("SOSL runs in the query pool, under its time limit", () => {
  it("a wildcard bomb is stopped at the limit by killing its query process, not run on the caller's thread", async () => {
    // Warm: the process has the image before the bomb, so the kill below is the bomb's.
    expect((await runSosl(store, "FIND {Acme} IN NAME FIELDS RETURNING Account(Id)", today)).ok).toBe(true);
    const before = pool.processIds();
    const outcome = await runSosl(strict, BOMB, today);
    expect(outcome).toMatchObject({ ok: false, code: "QUERY_TIMEOUT", message: "the search ran longer than 1 ms and was stopped" });
    // The process that ran it was killed and replaced: the matching ran there, inside its statement.
    expect(pool.processIds()).not.toEqual(before);
    // The search after it is answered by the replacement.
    const after = await runSosl(store, "FIND {Acme} IN NAME FIELDS RETURNING Account(Id, Name)", today);
    expect(after.ok).toBe(true);
  }, 60_000);

  it("matches as before: tokens, wildcards, phrases and NOT", () => {
    expect(matches({ kind: "term", text: "acme" }, ["The ACME corp"])).toBe(true);
    expect(matches({ kind: "term", text: "acm" }, ["The ACME corp"])).toBe(false);
    expect(matches({ kind: "term", text: "ac**e" }, ["The ACME corp"])).toBe(true);
    expect(matches({ kind: "term", text: "ac?e" }, ["The ACME corp"])).toBe(true);
    expect(matches({ kind: "phrase", words: ["acme", "corp"] }, ["The ACME, corp"])).toBe(true);
    expect(matches({ kind: "not", expr: { kind: "term", text: "acme" } }, ["other"])).toBe(true);
  });
});
