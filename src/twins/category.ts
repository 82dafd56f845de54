import type { B2bCategory } from "../datasets/index.js";
import type { TaskRecord } from "../tasks/index.js";
import type { Random } from "../util/index.js";
import type { TwinWorld } from "./world.js";

/** A ground truth as CRMArena-Pro writes it: a list of values, `[null]` for None. */
export type TwinAnswer = (string | null)[];

/** What a category makes of one real task: its texts with the entities replaced, and the answer on the twin org. */
export interface TwinDraft {
  readonly query: string;
  /** The task's `metadata.required`, with its Ids, names and "Today's date" replaced. */
  readonly required: string;
  readonly answer: TwinAnswer;
}

/** What a twin is made from: the real task, the twin org, and this twin's own seeded randomness. */
export interface TwinContext {
  readonly source: TaskRecord;
  readonly world: TwinWorld;
  /** Seeded by the set's key, the trial and the source task's idx, so a twin does not depend on the others. */
  readonly rng: Random;
  /** This twin is to be None (placeNones in build.ts: as many per category as the source has, placed by the key): a designed None, and otherwise not None. */
  readonly wantNone: boolean;
}

/**
 * One CRMArena-Pro category's twin maker. `twin` keeps the real task's wording and structure and
 * replaces its entities (Ids, names, products, dates, windows) with the twin org's, then computes
 * the ground truth with the category's answer program: queries over the unperturbed twin org,
 * written from the category's definition. It returns undefined when this draw gives no unique
 * answer of the wanted None-ness; the builder then draws again with fresh randomness.
 *
 * `enrich` adds what the category's twins need to the org (records, texts), before any twin is
 * made; enrichers run in registry order and write only the records their category owns, so one
 * category's records never move another's answers.
 */
export interface TwinCategory {
  readonly name: B2bCategory;
  enrich?(world: TwinWorld, rng: Random): void;
  twin(context: TwinContext): TwinDraft | undefined;
}

export function defineTwinCategory(category: TwinCategory): TwinCategory {
  return category;
}
