import type { FieldInfo, OrgSchema } from "../../org/index.js";
import { Random } from "../../util/index.js";
import type { Level, PlanInput } from "../kind.js";

/** The share of the eligible field names a drift style changes at each level. */
export type Dose = Readonly<Record<Level, number>>;

/** A field name and the objects that have it: drift changes a name the same way in all of them, so a task's text can follow it. */
export interface NameGroup {
  readonly name: string;
  readonly objects: readonly string[];
  /** The field in the first object that has it (all share the name's meaning). */
  readonly field: FieldInfo;
}

/**
 * The field names a style may change: every object that has the name has it unsettled (not
 * Id, Name, IsDeleted, nor added or changed by an earlier kind) and eligible; sorted, so the
 * seed alone decides the pick.
 */
export function eligibleNames(input: PlanInput, eligible: (field: FieldInfo) => boolean): NameGroup[] {
  const groups = new Map<string, { objects: string[]; field: FieldInfo; ok: boolean }>();
  for (const object of input.schema.objects) {
    for (const field of object.fields) {
      const group = groups.get(field.name) ?? { objects: [], field, ok: true };
      group.objects.push(object.name);
      if (input.settled.has(`${object.name}.${field.name}`) || !eligible(field)) group.ok = false;
      groups.set(field.name, group);
    }
  }
  return [...groups]
    .filter(([, group]) => group.ok)
    .map(([name, group]) => ({ name, objects: group.objects, field: group.field }))
    .sort((a, b) => byLocale(a.name, b.name));
}

/** `localeCompare`'s order (the default locale's collation), from one collator rather than one made per comparison. */
const byLocale = new Intl.Collator().compare;

/** The dose's share of the groups, at least one above level none, picked by the seed. */
export function pickNames(groups: readonly NameGroup[], dose: Dose, level: Level, rng: Random): NameGroup[] {
  if (level === "none" || groups.length === 0) return [];
  const count = Math.max(1, Math.round(dose[level] * groups.length));
  return rng.sample(groups, count);
}

/** A seeded source for one kind at one level. */
export const rngFor = (kind: string, input: PlanInput) => new Random(`${kind}:${input.seed}:${input.level}`);

/** Is a name free in every object of the group (no field of that name yet)? */
export function freeIn(schema: OrgSchema, objects: readonly string[], name: string, taken: ReadonlySet<string>): boolean {
  if (taken.has(name.toLowerCase())) return false;
  return objects.every((objectName) => !schema.objects.find((object) => object.name === objectName)?.fields.some((field) => field.name.toLowerCase() === name.toLowerCase()));
}

/** A standard field's base for a custom replacement: `AccountId` → `Account`, `Status` → `Status`. */
export function customBase(field: FieldInfo): string {
  const base = field.name.endsWith("__c") ? field.name.slice(0, -3) : field.name;
  return field.type === "reference" && /Id$|ID$/.test(base) && base.length > 2 ? base.slice(0, -2) : base;
}

/** Is this a standard field (no `__c`)? */
export const isStandard = (field: FieldInfo) => !field.name.endsWith("__c");

/** The first candidate name free in all the group's objects (with `_2`, `_3` ... appended before `__c` when all are taken). */
export function firstFree(schema: OrgSchema, group: NameGroup, candidates: readonly string[], taken: Set<string>): string {
  for (const candidate of candidates) {
    if (freeIn(schema, group.objects, candidate, taken)) {
      taken.add(candidate.toLowerCase());
      return candidate;
    }
  }
  const last = candidates[candidates.length - 1]!.replace(/__c$/, "");
  for (let n = 2; ; n++) {
    const candidate = `${last}_${n}__c`;
    if (freeIn(schema, group.objects, candidate, taken)) {
      taken.add(candidate.toLowerCase());
      return candidate;
    }
  }
}
