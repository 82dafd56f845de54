import type { OrgChange } from "../../org/index.js";
import type { KindPlan, PerturbationKind } from "../kind.js";
import { customBase, type Dose, eligibleNames, firstFree, pickNames, rngFor } from "./drift-common.js";

const DOSE: Dose = { none: 0, low: 0.02, medium: 0.05, high: 0.08 };
/** The share of records whose value the deprecated field lost after the migration. */
const STALE_SHARE = 0.5;
const MIGRATED_ON = "2020-01-01";

/**
 * A field deprecated and kept beside its replacement: the new custom field holds every value;
 * the old one, documented as deprecated in describe_schema, stopped being maintained and has
 * lost about half of them. Only a purple that reads describe_schema sees which one to use.
 */
export const deprecatedField: PerturbationKind = {
  name: "drift.deprecated",
  family: "drift",
  description: "fields deprecated beside their replacement: the old field, marked deprecated in describe, is no longer maintained",
  plan(input): KindPlan {
    const rng = rngFor(this.name, input);
    const taken = new Set<string>();
    const changes: OrgChange[] = [];
    let stale = 0;
    // Lookups are left alone: a stale lookup would change which records a join finds, not just a value.
    for (const group of pickNames(
      eligibleNames(input, (field) => field.type !== "reference" && field.type !== "id"),
      DOSE,
      input.level,
      rng,
    )) {
      const to = firstFree(input.schema, group, [`${customBase(group.field)}_v2__c`], taken);
      for (const object of group.objects) {
        changes.push({ op: "copy_field", object, from: group.name, to });
        changes.push({
          op: "annotate_field",
          object,
          field: group.name,
          note: `deprecated since ${MIGRATED_ON}: use ${to}; no longer maintained, values may be missing`,
          replacedBy: to,
        });
        const idField = input.schema.objects.find((candidate) => candidate.name === object)?.fields.find((field) => field.type === "id")?.name ?? "Id";
        const ids = input
          .rows(object)
          .map((row) => String(row[idField]))
          .filter(() => rng.chance(STALE_SHARE));
        if (ids.length > 0) changes.push({ op: "set_values", object, field: group.name, ids, value: null });
        stale += ids.length;
      }
    }
    const deprecated = changes.filter((change) => change.op === "annotate_field").length;
    return { summary: `${deprecated} fields deprecated beside a replacement (${stale} stale values)`, changes, text: [], distractorIds: [] };
  },
};
