import { createHash } from "node:crypto";
import { z } from "zod";
import { type OrgChange, OrgChangeSchema, type OrgSchema, type SqlRow, schemaAfter } from "../org/index.js";
import type { TaskRecord } from "../tasks/index.js";
import { pauseIfDue } from "../util/index.js";
import { LevelSchema, TextChangeSchema } from "./kind.js";
import { perturbationKinds } from "./registry.js";

/** The plan of one kind, as logged. */
export const PlannedKindSchema = z.object({
  kind: z.string(),
  family: z.enum(["drift", "rot"]),
  level: LevelSchema,
  description: z.string(),
  summary: z.string(),
  changes: z.array(OrgChangeSchema),
  text: z.array(TextChangeSchema),
  distractor_ids: z.array(z.string()),
});
export type PlannedKind = z.infer<typeof PlannedKindSchema>;

/** How much entropy a world has: a drift level and a rot level, spelled as the config and the results spell them. */
export const EntropyLevelsSchema = z.object({ drift_level: LevelSchema, rot_level: LevelSchema });
export type EntropyLevels = z.infer<typeof EntropyLevelsSchema>;

/** The whole entropy plan of a run: a pure, serialisable value of (org, tasks, levels, seed). */
export const EntropyPlanSchema = z.object({
  version: z.literal(1),
  seed: z.number().int(),
  /** The kinds the run asked for (all registered kinds when null). */
  only: z.array(z.string()).nullable(),
  // Spread in this place: a plan read back keeps its keys in this order, which its digest hashes.
  ...EntropyLevelsSchema.shape,
  kinds: z.array(PlannedKindSchema),
});
export type EntropyPlan = z.infer<typeof EntropyPlanSchema>;

export interface EntropyInput extends Readonly<EntropyLevels> {
  /** Only these kinds (by name); all registered kinds when absent. */
  readonly only?: readonly string[];
  readonly seed: number;
  readonly schema: OrgSchema;
  readonly tasks: readonly TaskRecord[];
  readonly library: readonly TaskRecord[];
  rows(object: string): readonly SqlRow[];
}

/** Fields no perturbation renames: the record Id, Name (the first example query names it), and the recycle-bin flag. */
const ALWAYS_SETTLED = ["Id", "Name", "IsDeleted"];

/** Plans every registered kind in order; each sees the schema the kinds before it leave. */
export function planEntropy(input: EntropyInput): EntropyPlan {
  const steps = planningSteps(input);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}

/**
 * The same plan as `planEntropy`, in slices of the event loop: between kinds, and within the
 * kinds whose work grows with the org or the task set (`planSteps`). Planning a full-size org
 * for 2,140 tasks takes about a second; in one piece it stalled every other assessment.
 */
export async function planEntropyInSlices(input: EntropyInput): Promise<EntropyPlan> {
  const steps = planningSteps(input);
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
    await pauseIfDue();
  }
}

/** The planning itself, pausing after each kind and wherever a kind's steps pause. */
function* planningSteps(input: EntropyInput): Generator<void, EntropyPlan, void> {
  let schema = input.schema;
  const settled = new Set(schema.objects.flatMap((object) => ALWAYS_SETTLED.map((field) => `${object.name}.${field}`)));
  const kinds: PlannedKind[] = [];
  for (const kind of perturbationKinds().filter((candidate) => !input.only || input.only.includes(candidate.name))) {
    const level = kind.family === "drift" ? input.drift_level : input.rot_level;
    const kindInput = { seed: input.seed, level, schema, settled, tasks: input.tasks, library: input.library, rows: input.rows };
    const planned = kind.planSteps ? yield* kind.planSteps(kindInput) : kind.plan(kindInput);
    kinds.push({
      kind: kind.name,
      family: kind.family,
      level,
      description: kind.description,
      summary: planned.summary,
      changes: [...planned.changes],
      text: [...planned.text],
      distractor_ids: [...planned.distractorIds],
    });
    schema = schemaAfter(schema, planned.changes);
    for (const change of planned.changes) for (const field of touchedFields(change)) settled.add(`${change.object}.${field}`);
    yield;
  }
  return { version: 1, seed: input.seed, only: input.only ? [...input.only] : null, drift_level: input.drift_level, rot_level: input.rot_level, kinds };
}

/** The fields a change creates or changes (later kinds leave them alone). */
function touchedFields(change: OrgChange): string[] {
  switch (change.op) {
    case "add_field":
      return [change.field.name];
    case "rename_field":
    case "copy_field":
      return [change.from, change.to];
    case "annotate_field":
      return [change.field];
    default:
      return [];
  }
}

/** Every change of the plan, in order, for the backend. */
export function planChanges(plan: EntropyPlan): OrgChange[] {
  return plan.kinds.flatMap((kind) => kind.changes);
}

/** Original name → new name of every field drift moved (renamed, or deprecated in favour of another), per object. */
export function movedFields(plan: EntropyPlan): Map<string, Map<string, string>> {
  const moved = new Map<string, Map<string, string>>();
  const put = (object: string, from: string, to: string) => moved.set(object, (moved.get(object) ?? new Map()).set(from, to));
  for (const change of planChanges(plan)) {
    if (change.op === "rename_field") put(change.object, change.from, change.to);
    if (change.op === "annotate_field" && change.replacedBy) put(change.object, change.field, change.replacedBy);
  }
  return moved;
}

/** A short digest of a plan, byte-for-byte: the same inputs give the same digest in any process. */
export function planDigest(plan: EntropyPlan): string {
  return createHash("sha256").update(JSON.stringify(plan)).digest("hex");
}

/** The plan as the results show it: per kind what it did, with counts instead of records. */
export function summarisePlan(plan: EntropyPlan) {
  return {
    seed: plan.seed,
    drift_level: plan.drift_level,
    rot_level: plan.rot_level,
    digest: planDigest(plan),
    kinds: plan.kinds.map((kind) => ({
      kind: kind.kind,
      family: kind.family,
      level: kind.level,
      summary: kind.summary,
      renamed: kind.changes.flatMap((change) => (change.op === "rename_field" ? [`${change.object}.${change.from} -> ${change.to}`] : [])),
      deprecated: kind.changes.flatMap((change) => (change.op === "annotate_field" && change.replacedBy ? [`${change.object}.${change.field} -> ${change.replacedBy}`] : [])),
      added_fields: kind.changes.flatMap((change) => (change.op === "add_field" ? [`${change.object}.${change.field.name}`] : [])),
      records: Object.fromEntries(
        kind.changes.filter((change) => change.op === "insert_records").map((change) => [change.object, change.op === "insert_records" ? change.records.length : 0]),
      ),
      tasks_with_text: new Set(kind.text.map((change) => change.task)).size,
      distractor_records: kind.distractor_ids.length,
    })),
  };
}
export type PlanSummary = ReturnType<typeof summarisePlan>;
