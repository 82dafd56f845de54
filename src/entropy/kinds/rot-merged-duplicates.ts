import type { OrgChange } from "../../org/index.js";
import { Random } from "../../util/index.js";
import type { KindPlan, PerturbationKind } from "../kind.js";
import { doseOf, idFieldOf, nearDuplicates, type Share } from "./rot-common.js";
import { MERGEABLE, recycleBinFlags } from "./rot-recycle-bin.js";

const SHARE: Share = { none: 0, low: 0.05, medium: 0.1, high: 0.2 };

/**
 * Duplicates merged away, as Salesforce merges accounts, contacts, leads and cases: the losing
 * record is deleted and its MasterRecordId points at the surviving one (the real record).
 */
export const mergedDuplicates: PerturbationKind = {
  name: "rot.merged_duplicates",
  family: "rot",
  description: "duplicates merged away: deleted records whose MasterRecordId points at the surviving record",
  plan(input): KindPlan {
    // Merged records go to the recycle bin: the flag must exist even when this kind runs alone.
    const changes: OrgChange[] = recycleBinFlags(input.schema);
    const distractorIds: string[] = [];
    for (const object of input.schema.objects.filter((candidate) => MERGEABLE.has(candidate.name))) {
      changes.push({
        op: "add_field",
        object: object.name,
        field: {
          name: "MasterRecordId",
          label: "Master Record ID",
          type: "reference",
          references: [object.name],
          note: "set on a record deleted by a merge: the record it was merged into",
        },
        value: null,
      });
      const rows = input.rows(object.name);
      const dose = doseOf(SHARE, input.level, rows.length);
      // No duplicates (level none): nothing to draw, so no generator and no taken Ids to set up.
      if (dose === 0) continue;
      const idField = idFieldOf(object);
      const rng = new Random(`${this.name}:${input.seed}:${input.level}:${object.name}`);
      const taken = new Set(rows.map((row) => String(row[idField])));
      const losers = nearDuplicates(object, rows, dose, rng, taken, (survivor) => ({ IsDeleted: 1, MasterRecordId: survivor[idField] ?? null }));
      if (losers.length === 0) continue;
      changes.push({ op: "insert_records", object: object.name, records: losers });
      distractorIds.push(...losers.map((loser) => String(loser[idField])));
    }
    return { summary: `${distractorIds.length} duplicates merged away into real records`, changes, text: [], distractorIds };
  },
};
