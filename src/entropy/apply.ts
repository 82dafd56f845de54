import Database from "better-sqlite3";
import { introspectSchema, listTables, quoteIdent } from "../org/introspect.js";
import { SqliteOrgStore, type OrgStore } from "../org/store.js";
import type { Level } from "../assessment/config.js";
import { planDrift, type RenameMap } from "./drift.js";
import { distractorRecords, type RotRow } from "./rot.js";

/** The perturbed world of one assessment, and what was done to build it. */
export interface PerturbedOrg {
  readonly org: OrgStore;
  readonly renames: RenameMap;
  /** Distractor records added per object. */
  readonly injected: Readonly<Record<string, number>>;
  /** Ids of every distractor record, to recognise answers built on them. */
  readonly distractorIds: ReadonlySet<string>;
}

/**
 * Builds the org an assessment's purple agent sees: every object gains Salesforce's `IsDeleted`
 * flag (false on real records, at every level, so the schema does not reveal the rot level),
 * rot adds deleted near-duplicate records, and drift renames columns. The base org is not touched:
 * this works on a copy, served by its own read-only query processes.
 */
export function perturbOrg(base: OrgStore, drift: Level, rot: Level, seed: number): PerturbedOrg {
  const renames = planDrift(base.schema, drift, seed);
  const db = new Database(base.image);
  const injected: Record<string, number> = {};
  const distractorIds = new Set<string>();
  try {
    for (const table of listTables(db)) {
      const object = base.schema.objects.find((candidate) => candidate.name === table);
      const idColumn = object?.fields.find((field) => field.type === "id")?.name ?? "Id";
      db.exec(`ALTER TABLE ${quoteIdent(table)} ADD COLUMN "IsDeleted" INTEGER NOT NULL DEFAULT 0`);
      // Without rot there is nothing to clone: skip reading every table.
      const rows = rot === "none" ? [] : (db.prepare(`SELECT * FROM ${quoteIdent(table)}`).all() as RotRow[]);
      const distractors = distractorRecords(table, rows, idColumn, rot, seed);
      if (distractors.length > 0) {
        const columns = Object.keys(distractors[0]!);
        const insert = db.prepare(`INSERT INTO ${quoteIdent(table)} (${columns.map(quoteIdent).join(", ")}) VALUES (${columns.map(() => "?").join(", ")})`);
        db.transaction(() => {
          for (const row of distractors) insert.run(columns.map((column) => row[column] ?? null));
        })();
        for (const row of distractors) distractorIds.add(String(row[idColumn]));
        injected[table] = distractors.length;
      }
      for (const [original, drifted] of Object.entries(renames[table] ?? {})) {
        db.exec(`ALTER TABLE ${quoteIdent(table)} RENAME COLUMN ${quoteIdent(original)} TO ${quoteIdent(drifted)}`);
      }
    }
    const originalNames = Object.fromEntries(Object.entries(renames).map(([table, map]) => [table, Object.fromEntries(Object.entries(map).map(([original, drifted]) => [drifted, original]))]));
    const schema = introspectSchema(db, originalNames);
    const org = new SqliteOrgStore(schema, `${base.source} (seed ${seed}, drift ${drift}, rot ${rot})`, db.serialize(), base.options);
    return { org, renames, injected, distractorIds };
  } finally {
    db.close();
  }
}
