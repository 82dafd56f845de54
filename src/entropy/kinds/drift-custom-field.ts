import type { OrgChange } from "../../org/index.js";
import type { KindPlan, PerturbationKind } from "../kind.js";
import { customBase, type Dose, eligibleNames, firstFree, isStandard, pickNames, rngFor } from "./drift-common.js";

const DOSE: Dose = { none: 0, low: 0.05, medium: 0.1, high: 0.15 };

/**
 * A standard field replaced by a custom field with the same label, as orgs do when a standard
 * field no longer fits (Priority → Priority__c, AccountId → Account__c with relationship Account__r).
 */
export const customFieldReplacement: PerturbationKind = {
  name: "drift.custom_field",
  family: "drift",
  description: "standard fields replaced by custom fields with the same label (Priority -> Priority__c; lookups get an __r relationship)",
  plan(input): KindPlan {
    const rng = rngFor(this.name, input);
    const taken = new Set<string>();
    const changes: OrgChange[] = [];
    for (const group of pickNames(eligibleNames(input, isStandard), DOSE, input.level, rng)) {
      const to = firstFree(input.schema, group, [`${customBase(group.field)}__c`, `${customBase(group.field)}_Custom__c`], taken);
      for (const object of group.objects) changes.push({ op: "rename_field", object, from: group.name, to });
    }
    return { summary: `${changes.length} standard fields replaced by custom fields`, changes, text: [], distractorIds: [] };
  },
};
