import type { OrgChange, SqlRow } from "../../org/index.js";
import { Random } from "../../util/index.js";
import type { KindPlan, PerturbationKind } from "../kind.js";
import { doseOf, idFieldOf, newId, type Share } from "./rot-common.js";

const SHARE: Share = { none: 0, low: 0.1, medium: 0.2, high: 0.3 };

/**
 * Live near-duplicates a careful agent tells apart by their fields: retired copies of products
 * (same name, IsActive false, an external Id of their own, no orders or cases), as catalogues
 * keep them after a relaunch.
 */
export const inactiveDuplicates: PerturbationKind = {
  name: "rot.inactive_duplicates",
  family: "rot",
  description: "retired copies of products: live records with the same name, IsActive false and no orders",
  plan(input): KindPlan {
    const object = input.schema.objects.find((candidate) => candidate.name === "Product2" && candidate.fields.some((field) => field.name === "IsActive"));
    if (!object) return { summary: "no products with IsActive", changes: [], text: [], distractorIds: [] };
    const rows = input.rows(object.name);
    const idField = idFieldOf(object);
    const rng = new Random(`${this.name}:${input.seed}:${input.level}`);
    const taken = new Set(rows.map((row) => String(row[idField])));
    const copies: SqlRow[] = rng.sample(rows, doseOf(SHARE, input.level, rows.length)).map((source, i) => {
      const copy: SqlRow = { ...source, IsActive: typeof source.IsActive === "string" ? "False" : 0 };
      copy[idField] = newId(object.keyPrefix ?? "01t", rng, taken, [String(source[idField])]);
      if ("External_ID__c" in source) copy.External_ID__c = `${String(source.External_ID__c ?? "PRD")}-OLD${i + 1}`;
      return copy;
    });
    const changes: OrgChange[] = copies.length > 0 ? [{ op: "insert_records", object: object.name, records: copies }] : [];
    return { summary: `${copies.length} retired product copies (IsActive false)`, changes, text: [], distractorIds: copies.map((copy) => String(copy[idField])) };
  },
};
