import type { OrgChange, OrgSchema } from "../../org/index.js";
import { Random } from "../../util/index.js";
import { type KindPlan, type PerturbationKind, planAtOnce } from "../kind.js";
import { doseOf, nearDuplicateSteps, type Share } from "./rot-common.js";

const SHARE: Share = { none: 0, low: 0.05, medium: 0.1, high: 0.2 };
/** `IsDeleted` on every object that lacks it: false on every real record. */
export function recycleBinFlags(schema: OrgSchema): OrgChange[] {
  return schema.objects
    .filter((object) => !object.fields.some((field) => field.name === "IsDeleted"))
    .map((object) => ({
      op: "add_field",
      object: object.name,
      field: {
        name: "IsDeleted",
        label: "Deleted",
        type: "boolean",
        references: [],
        note: "recycle-bin flag: true marks a deleted record; SOQL hides deleted records unless the query ends with ALL ROWS",
      },
      value: 0,
    }));
}

/** Objects whose duplicates Salesforce merges (their recycle-bin records are the merge kind's). */
export const MERGEABLE = new Set(["Account", "Contact", "Lead", "Case"]);

/**
 * Salesforce's recycle bin: every object gets `IsDeleted` (false on every real record, at every
 * level, so the schema does not give the rot level away), and deleted near-duplicates of real
 * records. SOQL and SOSL hide them unless a query says ALL ROWS; sql_query shows the raw tables.
 */
export const recycleBin: PerturbationKind = {
  name: "rot.recycle_bin",
  family: "rot",
  description: "deleted near-duplicate records in the recycle bin (IsDeleted = true): hidden from SOQL unless ALL ROWS, visible to raw SQL",
  plan(input): KindPlan {
    return planAtOnce(this.planSteps!(input));
  },
  *planSteps(input): Generator<void, KindPlan, void> {
    const changes: OrgChange[] = [];
    const distractorIds: string[] = [];
    changes.push(...recycleBinFlags(input.schema));
    for (const object of input.schema.objects.filter((candidate) => !MERGEABLE.has(candidate.name))) {
      const rows = input.rows(object.name);
      const dose = doseOf(SHARE, input.level, rows.length);
      // No clones (level none): nothing to draw, so no generator and no taken Ids to set up.
      if (dose === 0) continue;
      const rng = new Random(`${this.name}:${input.seed}:${input.level}:${object.name}`);
      const taken = new Set(rows.map((row) => String(row.Id)));
      const clones = yield* nearDuplicateSteps(object, rows, dose, rng, taken, () => ({ IsDeleted: 1 }));
      if (clones.length === 0) continue;
      changes.push({ op: "insert_records", object: object.name, records: clones });
      distractorIds.push(...clones.map((clone) => String(clone.Id)));
      yield;
    }
    return { summary: `${distractorIds.length} deleted near-duplicates in the recycle bin`, changes, text: [], distractorIds };
  },
};
