import type { OrgChange } from "../../org/index.js";
import type { KindPlan, PerturbationKind } from "../kind.js";
import { customBase, type Dose, eligibleNames, firstFree, pickNames, rngFor } from "./drift-common.js";

const DOSE: Dose = { none: 0, low: 0.2, medium: 0.35, high: 0.5 };
/** Words an admin puts in front of a custom field's name when it is redone; the label stays. */
const QUALIFIERS = ["Primary", "Main", "Core", "Record", "Linked"];

/** Custom fields renamed by an admin, label unchanged (Body__c → Primary_Body__c; CaseId__c → Linked_Case__c). */
export const customFieldRename: PerturbationKind = {
  name: "drift.custom_rename",
  family: "drift",
  description: "custom fields renamed with their label unchanged (Body__c -> Primary_Body__c)",
  plan(input): KindPlan {
    const rng = rngFor(this.name, input);
    const taken = new Set<string>();
    const changes: OrgChange[] = [];
    for (const group of pickNames(
      eligibleNames(input, (field) => field.name.endsWith("__c") && !/^[a-z0-9]+__/.test(field.name)),
      DOSE,
      input.level,
      rng,
    )) {
      const qualifiers = rng.shuffle(QUALIFIERS);
      const to = firstFree(
        input.schema,
        group,
        qualifiers.map((qualifier) => `${qualifier}_${customBase(group.field)}__c`),
        taken,
      );
      for (const object of group.objects) changes.push({ op: "rename_field", object, from: group.name, to });
    }
    return { summary: `${changes.length} custom fields renamed`, changes, text: [], distractorIds: [] };
  },
};
