import { z } from "zod";
import type { OrgChange, OrgSchema, SqlRow } from "../org/index.js";
import type { TaskRecord } from "../tasks/index.js";

/*
 * The vocabulary of a perturbation kind: what a planner reads and what it decides. A kind
 * (kinds/) imports only this; the registry (registry.ts) and the planner (plan.ts) build on it.
 */

/** How strongly a family of perturbations is applied. */
export const LEVELS = ["none", "low", "medium", "high"] as const;
export const LevelSchema = z.enum(LEVELS);
export type Level = z.infer<typeof LevelSchema>;

/** Drift changes the schema under the purple; rot adds noise to the data and the context. */
export type Family = "drift" | "rot";

/** What a perturbation adds to the text of one task. */
export const TextChangeSchema = z.discriminatedUnion("op", [
  /**
   * A passage: `after` the task's context under "Additional reference material", or `before` it
   * under "Notes from earlier requests" (the task's own context then follows under "This request").
   */
  z.object({ op: z.literal("add_passage"), task: z.number().int(), title: z.string(), text: z.string(), placement: z.enum(["before", "after"]).default("after") }),
  /** A line in front of the task's context. */
  z.object({ op: z.literal("prefix_context"), task: z.number().int(), text: z.string() }),
]);
export type TextChange = z.infer<typeof TextChangeSchema>;

/** What one kind of perturbation decided: the changes, where, and why. */
export interface KindPlan {
  /** One sentence a reader of the results understands: what was done and how much. */
  readonly summary: string;
  readonly changes: readonly OrgChange[];
  readonly text: readonly TextChange[];
  /** Records that are not live data (deleted, archived, inactive copies): an answer naming one is a hallucination. */
  readonly distractorIds: readonly string[];
}

/** Everything a planner may read. Planners are pure functions of it. */
export interface PlanInput {
  readonly seed: number;
  /** The level of the kind's family. */
  readonly level: Level;
  /** The org as the kinds planned before this one leave it. */
  readonly schema: OrgSchema;
  /** `Object.Field` that no later kind may rename: added or already changed by a kind before. */
  readonly settled: ReadonlySet<string>;
  /** The tasks of this run (text is planned for them only). */
  readonly tasks: readonly TaskRecord[];
  /** Every task of the task set (for material shared across categories). */
  readonly library: readonly TaskRecord[];
  /** An object's stored records (before any change). */
  rows(object: string): readonly SqlRow[];
}

/** One kind of perturbation: a module that plans one realistic change. */
export interface PerturbationKind {
  readonly name: string;
  readonly family: Family;
  /** What it does, for docs and results. */
  readonly description: string;
  plan(input: PlanInput): KindPlan;
  /**
   * The same plan, with a pause (a `yield`) wherever the planner may let the event loop run:
   * for kinds whose work grows with the org or the task set. `plan` must give what this returns.
   */
  planSteps?(input: PlanInput): Generator<void, KindPlan, void>;
}

/** A kind's plan from its steps, without pausing (what a kind's `plan` is when it has `planSteps`). */
export function planAtOnce(steps: Generator<void, KindPlan, void>): KindPlan {
  for (;;) {
    const step = steps.next();
    if (step.done) return step.value;
  }
}
