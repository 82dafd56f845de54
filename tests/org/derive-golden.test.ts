import { createHash } from "node:crypto";
import Database from "better-sqlite3";
import { describe, expect, it } from "vitest";
import { type Level, planChanges, planDigest, planEntropy } from "../../src/entropy/index.js";
import { deriveImage, readRecordIdsFrom } from "../../src/org/derive.js";
import { loadOrgImage, type OrgSchema, quoteIdent, type SqlRow, schemaAfter } from "../../src/org/index.js";
import { loadTaskFile } from "../../src/tasks/load.js";
import { canonicalId, IdRemap } from "../../src/util/index.js";
import { SAMPLE_ORG, SAMPLE_TASKS } from "../support/helpers.js";

/*
 * What a derived copy holds, pinned: every table's definition and rows (in rowid order), the
 * copy's record Ids and its latest date, hashed, at a few seeds and levels, and the schema as
 * sqlite_master lists it. The hashes were computed with the copy as it was made before the remap
 * moved out of SQL callbacks (rebuilt in place); any change to how a copy is made must leave its
 * content the same, byte for byte. (`ENTROPIC_PRINT_GOLDEN=1` prints what a run gives.)
 */

const base = loadOrgImage(SAMPLE_ORG);
const tasks = loadTaskFile(SAMPLE_TASKS).tasks;
const baseDb = new Database(base.image, { readonly: true });
const baseRows = new Map(base.schema.objects.map((object) => [object.name, baseDb.prepare(`SELECT * FROM ${quoteIdent(object.name)}`).all() as SqlRow[]]));
baseDb.close();

/** An org that is not only tables (an index): its copy is made by the rebuild in place. */
const indexedImage = (() => {
  const db = new Database(base.image);
  try {
    db.exec('CREATE INDEX "Account_Name" ON "Account" ("Name")');
    return db.serialize();
  } finally {
    db.close();
  }
})();

function contentHashes(image: Uint8Array): Record<string, string> {
  const db = new Database(Buffer.from(image.buffer, image.byteOffset, image.byteLength), { readonly: true });
  try {
    // The schema as a purple's SELECT on sqlite_master lists it (in its order; the pages where tables start aside).
    const entries = db.prepare("SELECT type, name, tbl_name, sql FROM sqlite_master").raw().all() as unknown[][];
    const hashes: Record<string, string> = { "(sqlite_master)": createHash("sha256").update(JSON.stringify(entries)).digest("hex").slice(0, 16) };
    const tables = db.prepare("SELECT name, sql FROM sqlite_master WHERE type = 'table' ORDER BY name").all() as { name: string; sql: string }[];
    for (const table of tables) {
      const hash = createHash("sha256").update(table.sql).update("\0");
      // quote() spells each value with its storage class (1 and 1.0 and '1' differ).
      const columns = (db.prepare(`PRAGMA table_info(${quoteIdent(table.name)})`).all() as { name: string }[]).map((column) => `quote(${quoteIdent(column.name)})`);
      for (const row of db
        .prepare(`SELECT ${columns.join(", ")} FROM ${quoteIdent(table.name)} ORDER BY rowid`)
        .raw()
        .iterate())
        hash.update(`${(row as string[]).join("\u0001")}\n`);
      hashes[table.name] = hash.digest("hex").slice(0, 16);
    }
    return hashes;
  } finally {
    db.close();
  }
}

/** The copy's record Ids, object by object in Id order. */
function idsOf(image: Uint8Array, schema: OrgSchema): string[] {
  const db = new Database(Buffer.from(image.buffer, image.byteOffset, image.byteLength), { readonly: true });
  try {
    return [...readRecordIdsFrom(db, schema)];
  } finally {
    db.close();
  }
}

const sameKeys = (keys: readonly string[], ids: readonly string[]) => {
  const expected = new Set(ids.map((id) => canonicalId(id) ?? id));
  return keys.length === expected.size && keys.every((key) => expected.has(key));
};

interface Case {
  readonly seed: number;
  readonly drift: Level;
  readonly rot: Level;
  readonly secret?: string;
  /** The org with an index (the sample org when absent). */
  readonly indexed?: boolean;
}

const CASES: readonly Case[] = [
  { seed: 7, drift: "high", rot: "high", secret: "golden secret" },
  { seed: 3, drift: "low", rot: "medium", secret: "another secret" },
  { seed: 11, drift: "medium", rot: "low" },
  { seed: 5, drift: "high", rot: "high", secret: "golden secret", indexed: true },
];

function derived(spec: Case) {
  const plan = planEntropy({
    seed: spec.seed,
    drift_level: spec.drift,
    rot_level: spec.rot,
    schema: base.schema,
    tasks,
    library: tasks,
    rows: (object) => baseRows.get(object) ?? [],
  });
  const remap = spec.secret === undefined ? undefined : IdRemap.forRun(spec.seed, spec.secret);
  const copy = deriveImage(spec.indexed ? indexedImage : base.image, base.schema, planChanges(plan), remap);
  return {
    plan: planDigest(plan).slice(0, 16),
    tables: contentHashes(copy.image),
    ids: createHash("sha256")
      .update(idsOf(copy.image, schemaAfter(base.schema, planChanges(plan))).join("\n"))
      .digest("hex")
      .slice(0, 16),
    keysAreTheIds: "keys" in copy ? sameKeys(copy.keys, idsOf(copy.image, schemaAfter(base.schema, planChanges(plan)))) : true,
    today: copy.today,
  };
}

const goldenKey = (spec: Case) => `${spec.seed} ${spec.drift} ${spec.rot}${spec.indexed ? " indexed" : ""}`;

describe("a derived copy's content", () => {
  it.each(CASES)("is the pinned one at seed $seed, drift $drift, rot $rot (indexed: $indexed)", (spec) => {
    const got = derived(spec);
    if (process.env.ENTROPIC_PRINT_GOLDEN) process.stdout.write(`GOLDEN ${JSON.stringify({ key: goldenKey(spec), got })}\n`);
    expect(got).toEqual(EXPECTED[goldenKey(spec)]);
  });
});

/** Computed by the copy as main (101c261) made it. */
const EXPECTED: Record<string, unknown> = {
  "7 high high": {
    plan: "1e7f1f28c2692a06",
    tables: {
      "(sqlite_master)": "83fb00d0c3c53f00",
      Account: "42eaef43345f565e",
      Case: "25e090b7937cda44",
      CaseHistory__c: "149456078bd7a3ed",
      Contact: "24b7529fbec64fbe",
      Contract: "72527ca0299b8d77",
      EmailMessage: "6c2fbfbced898d02",
      Event: "9e8c27402f3f15bb",
      Issue__c: "5a8e2364e6584ba2",
      Knowledge__kav: "69a30effe6fa6324",
      Lead: "fbfe5d8e174e944e",
      LiveChatTranscript: "043e8a37c79ad61c",
      Opportunity: "8aad63506803f7da",
      OpportunityLineItem: "c59767d211f8ad29",
      Order: "65e9fb4789e328df",
      OrderItem: "9e223b104722c74b",
      Pricebook2: "6a7e61b93f1e4391",
      PricebookEntry: "28b98a936dcb35bf",
      Product2: "95dc5de6e8bbe8ee",
      ProductCategory: "9fc085acf96c8eba",
      ProductCategoryProduct: "85366fcd35481c4d",
      Quote: "665fda74469e3613",
      QuoteLineItem: "209183984b09cf0a",
      Task: "d639b0e8ae27d340",
      Territory2: "a938b256ca5f807a",
      User: "02eabb50a7d0961d",
      UserTerritory2Association: "649615e870a68cdc",
      VoiceCallTranscript__c: "07d039145f362195",
    },
    ids: "4a010808198f04eb",
    keysAreTheIds: true,
    today: "2025-12-31",
  },
  "3 low medium": {
    plan: "6870cf4a37846639",
    tables: {
      "(sqlite_master)": "6146639fb1b478ab",
      Account: "d13fbfda91c03d0f",
      Case: "517aac8a7b9b674e",
      CaseHistory__c: "2db6c58a6c1af71e",
      Contact: "1dec54848b08f478",
      Contract: "c9f673c95d9b2b0d",
      EmailMessage: "59d1c22d09438dc0",
      Event: "13bb3be57a8c9cba",
      Issue__c: "345c5fc06dfd299b",
      Knowledge__kav: "a10563896446742f",
      Lead: "5a3c98e010c3cabc",
      LiveChatTranscript: "cd481b687eaeaf07",
      Opportunity: "3ca56abf5472d3e6",
      OpportunityLineItem: "69b8b44b680cc8f7",
      Order: "11cbc54770723266",
      OrderItem: "471ffe043ed443ce",
      Pricebook2: "0410df36ac4266a7",
      PricebookEntry: "2016f79ee36e736c",
      Product2: "8c81e3db6fcb0438",
      ProductCategory: "13f47037a89220c4",
      ProductCategoryProduct: "5880aa4d4eb91a83",
      Quote: "38f26e581c232a5c",
      QuoteLineItem: "1aafa6dfe1450933",
      Task: "4e76c9267aa80173",
      Territory2: "5aa8e25efe41c8d9",
      User: "5d34e2336328f88f",
      UserTerritory2Association: "15b2562a6148554e",
      VoiceCallTranscript__c: "33dd34550c5a75c4",
    },
    ids: "1cdb825f6510f7d8",
    keysAreTheIds: true,
    today: "2025-12-31",
  },
  "11 medium low": {
    plan: "5af8426c65a8a99a",
    tables: {
      "(sqlite_master)": "2b576832b2e818a2",
      Account: "a908202a24af8b85",
      Case: "f0c941d57e2fc296",
      CaseHistory__c: "762a8b4eae115f27",
      Contact: "25e10c5118da8881",
      Contract: "12736605b316bff9",
      EmailMessage: "7f075e43f7b85385",
      Event: "7d9d2d9a5ac805ee",
      Issue__c: "dae16a6b2007d5b1",
      Knowledge__kav: "858e1e3e94e62191",
      Lead: "d0f265a8c640acaa",
      LiveChatTranscript: "d04f5226437b4cd4",
      Opportunity: "068aaed33abb165b",
      OpportunityLineItem: "e79844d017efbbb2",
      Order: "6b53d08f685481f6",
      OrderItem: "8308cab7a768926e",
      Pricebook2: "a6e114201f7d7dd7",
      PricebookEntry: "11fdf42826ecae83",
      Product2: "a730b9365f4e08d3",
      ProductCategory: "45ffb18efc4c0939",
      ProductCategoryProduct: "5f1ae45a1d446e67",
      Quote: "d0b9df65dc6b6cff",
      QuoteLineItem: "5cfb28c852d562f9",
      Task: "0ce5754d84212ebc",
      Territory2: "eeac92bf6bfb4560",
      User: "113d6c1dac62fd3b",
      UserTerritory2Association: "e6858a84376dcfe5",
      VoiceCallTranscript__c: "66c73fc8aad64fb1",
    },
    ids: "0f478017e58f5ba2",
    keysAreTheIds: true,
    today: "2025-12-31",
  },
  "5 high high indexed": {
    plan: "a55eb86884fe3237",
    tables: {
      "(sqlite_master)": "998b046e10981b96",
      Account: "4fa5d50ebfa96778",
      Case: "2c3f6c458bc206b2",
      CaseHistory__c: "fe61c5e0d06ca132",
      Contact: "13cf53345350b2ad",
      Contract: "15fd35a59c2e0a7e",
      EmailMessage: "adf7c27131082c5b",
      Event: "62bacd839af39126",
      Issue__c: "a43a4970f3422cd4",
      Knowledge__kav: "52a748ad0057f9d8",
      Lead: "afca2c1b8532a853",
      LiveChatTranscript: "ff2b6c5a1354182e",
      Opportunity: "a8e0e25e64f697b9",
      OpportunityLineItem: "063736efde917a91",
      Order: "d64304a25cdf75a2",
      OrderItem: "62f04864704716be",
      Pricebook2: "38a09e7d109f5ea0",
      PricebookEntry: "fd8a81cb5922423e",
      Product2: "3dc84ff6ba15f81d",
      ProductCategory: "907c7c080814e523",
      ProductCategoryProduct: "d9de007891951f1d",
      Quote: "16d6a2f367d8aa44",
      QuoteLineItem: "915648c889eb9e06",
      Task: "9a05956c4e7bf96b",
      Territory2: "e233694d6e69c8fe",
      User: "6eb1c44b6cc278d8",
      UserTerritory2Association: "03e264fd68fea659",
      VoiceCallTranscript__c: "2f19659bb8f81d34",
    },
    ids: "47f63db065d71de1",
    keysAreTheIds: true,
    today: "2026-01-18",
  },
};
