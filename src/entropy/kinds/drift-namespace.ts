import type { OrgChange } from "../../org/index.js";
import type { KindPlan, PerturbationKind } from "../kind.js";
import { customBase, type Dose, eligibleNames, firstFree, pickNames, rngFor } from "./drift-common.js";

const DOSE: Dose = { none: 0, low: 0.03, medium: 0.07, high: 0.1 };
/** Namespaces of made-up managed packages; the seed picks one per run, as an org installs one package. */
const NAMESPACES = ["acme", "crmx", "sfplus", "zencx", "orbit", "nimbus"];

/** Fields taken over by a managed package's field (`acme__Status__c`), labelled as before. */
export const namespacePrefix: PerturbationKind = {
  name: "drift.namespace",
  family: "drift",
  description: "fields taken over by a managed package: a namespaced custom field with the same label (Status -> acme__Status__c)",
  plan(input): KindPlan {
    const rng = rngFor(this.name, input);
    const namespace = rng.pick(NAMESPACES);
    const taken = new Set<string>();
    const changes: OrgChange[] = [];
    for (const group of pickNames(
      eligibleNames(input, () => true),
      DOSE,
      input.level,
      rng,
    )) {
      const to = firstFree(input.schema, group, [`${namespace}__${customBase(group.field)}__c`], taken);
      for (const object of group.objects) changes.push({ op: "rename_field", object, from: group.name, to });
    }
    return { summary: `${changes.length} fields moved to the managed package ${namespace}__`, changes, text: [], distractorIds: [] };
  },
};
