import fc from "fast-check";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { runOrgTool, type SqliteOrgStore } from "../../src/org/index.js";
import { openSqliteOrg, SAMPLE_ORG } from "../support/helpers.js";

/**
 * Property tests: whatever text a purple agent sends as SOQL or SOSL, it gets records or a
 * Salesforce-style error, within the time limit, and the org is unchanged afterwards.
 */
let org: SqliteOrgStore;
// INVALID_ARGUMENTS: a blank text is refused by the tool's own schema before it reaches the engine.
const ERROR_CODES = new Set([
  "INVALID_ARGUMENTS",
  "MALFORMED_QUERY",
  "INVALID_FIELD",
  "INVALID_TYPE",
  "MALFORMED_SEARCH",
  "INVALID_SEARCH",
  "QUERY_TIMEOUT",
  "SQL_ERROR",
  "QUERY_FAILED",
]);
const SEEDS = [
  "SELECT Id, Subject, Account.ShippingState FROM Case WHERE Status = 'Closed' AND CreatedDate = LAST_N_DAYS:30 ORDER BY CreatedDate DESC LIMIT 5",
  "SELECT OwnerId, COUNT(Id) n FROM Case WHERE Id IN (SELECT CaseId__c FROM CaseHistory__c) GROUP BY OwnerId HAVING COUNT(Id) > 1",
  "SELECT CALENDAR_MONTH(CreatedDate), COUNT(Id) FROM Case GROUP BY CALENDAR_MONTH(CreatedDate)",
  "SELECT Name, (SELECT Id FROM Cases LIMIT 2) FROM Account WHERE Industry LIKE 'Elec%'",
  "FIND {network scalability} IN ALL FIELDS RETURNING Knowledge__kav(Id, Title WHERE Title LIKE 'Why%' LIMIT 3)",
  'FIND {"must never say" OR refund*} RETURNING Knowledge__kav(Id), Case(Id, Subject)',
];
const TOKENS = [
  "SELECT",
  "FROM",
  "WHERE",
  "AND",
  "OR",
  "NOT",
  "IN",
  "LIKE",
  "GROUP BY",
  "HAVING",
  "ORDER BY",
  "LIMIT",
  "OFFSET",
  "COUNT()",
  "COUNT(Id)",
  "Id",
  "Name",
  "Status",
  "Case",
  "Account",
  "Account.Name",
  "Owner.Name",
  "CreatedDate",
  "=",
  "!=",
  "<",
  ">",
  "(",
  ")",
  ",",
  "'x'",
  "'%a%'",
  "5",
  "2023-01-01",
  "2023-01-01T00:00:00Z",
  "TODAY",
  "LAST_N_DAYS:3",
  "null",
  "true",
  "FIND",
  "{abc}",
  "RETURNING",
  "Knowledge__kav(Id)",
  ";",
  "--",
  "/*",
  "'",
  "\\",
  "DROP TABLE Account",
  "UNION SELECT",
  "ALL ROWS",
  "IsDeleted",
];

let before: unknown;
const snapshot = async () => {
  const outcome = await org.query(
    `SELECT (SELECT COUNT(*) FROM Account) a, (SELECT COUNT(*) FROM "Case") c, (SELECT COUNT(*) FROM Lead) l, (SELECT group_concat(Name) FROM Issue__c) i`,
  );
  return outcome.ok ? outcome.rows : outcome;
};

beforeAll(async () => {
  org = await openSqliteOrg(SAMPLE_ORG, { workers: 2, limits: { timeoutMs: 2_000 } });
  before = await snapshot();
});
afterAll(() => org.close());

async function answersProperly(text: string): Promise<void> {
  const request = text.trimStart().startsWith("FIND") ? ({ tool: "sosl_search", search: text } as const) : ({ tool: "soql_query", query: text } as const);
  // The org's statement limit (timeoutMs above) bounds each query: past it, QUERY_TIMEOUT.
  const outcome = await runOrgTool(org, request, { today: "2023-06-15" });
  if (!outcome.ok) expect(ERROR_CODES, `${outcome.code}: ${outcome.message}`).toContain(outcome.code);
  else expect(Array.isArray(outcome.kind === "records" ? outcome.records : outcome.objects)).toBe(true);
}

const mutated = fc
  .tuple(
    fc.constantFrom(...SEEDS),
    fc.array(fc.tuple(fc.nat(), fc.constantFrom("delete", "insert", "swap", "token"), fc.string({ maxLength: 3 }), fc.constantFrom(...TOKENS)), { minLength: 1, maxLength: 4 }),
  )
  .map(([seed, edits]) =>
    edits.reduce((text, [position, kind, chars, token]) => {
      const at = text.length === 0 ? 0 : position % text.length;
      if (kind === "delete") return text.slice(0, at) + text.slice(at + 1 + (position % 5));
      if (kind === "insert") return text.slice(0, at) + chars + text.slice(at);
      if (kind === "token") return `${text.slice(0, at)} ${token} ${text.slice(at)}`;
      return text.slice(0, at) + text.slice(at + 1, at + 2) + text.slice(at, at + 1) + text.slice(at + 2);
    }, seed),
  );

describe("any query text gets records or a Salesforce-style error", () => {
  it("mutated corpus queries", async () => {
    await fc.assert(fc.asyncProperty(mutated, answersProperly), { numRuns: 300, seed: 42 });
  }, 120_000);

  it("random token soups", async () => {
    await fc.assert(
      fc.asyncProperty(
        fc.array(fc.constantFrom(...TOKENS), { minLength: 1, maxLength: 14 }).map((tokens) => tokens.join(" ")),
        answersProperly,
      ),
      { numRuns: 300, seed: 7 },
    );
  }, 120_000);

  it("arbitrary strings", async () => {
    await fc.assert(fc.asyncProperty(fc.string({ maxLength: 200 }), answersProperly), { numRuns: 200, seed: 3 });
  }, 120_000);

  it("leaves the org unchanged", async () => {
    expect(await snapshot()).toEqual(before);
  });
});
