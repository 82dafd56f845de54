import { z } from "zod";
import { RewardMetricSchema } from "../tasks/index.js";
import { describeIssue, firstIssue } from "../util/index.js";

/** The entity CRMArena-Pro's extractor looks for in an answer: a US state, a month, BANT factors, an opportunity stage, or record Ids. */
export const EntityKindSchema = z.enum(["state", "month", "bant", "stage", "id"]);
export type EntityKind = z.infer<typeof EntityKindSchema>;

/**
 * What the green agent knows about one task category: everything per category lives here, so a
 * task set with other categories is a catalogue, not edits to the scorer, the sample generator
 * and the baselines.
 */
export const CategorySpecSchema = z.object({
  /** How CRMArena-Pro scores the category's answers. */
  metric: RewardMetricSchema,
  /** The entity an answer is read for (exact_match); `id` also for the categories scored otherwise. */
  entityKind: EntityKindSchema,
  /** The purple acts for an external customer (CRMArena-Pro's EXTERNAL_FACING_TASKS): its instructions and the privacy check depend on it. */
  externalFacing: z.boolean(),
  /** fuzzy_match answers that are labels (competitor names, subtopics), not free text: the paraphrase check reads them as a list. */
  labels: z.boolean().default(false),
  /**
   * Share of the category's tasks whose ground truth is None in the task set the catalogue
   * describes (its real tasks; tests check the figure against the file): what a purple that
   * always answers None passes there.
   */
  noneRate: z.number().min(0).max(1),
  /** The entry of data/calibration.json that measures this category's efficiency (default: the category's own name). */
  calibrationKey: z.string().min(1).optional(),
});
export type CategorySpecInput = z.input<typeof CategorySpecSchema>;
export type CategorySpec = z.infer<typeof CategorySpecSchema> & { readonly name: string };

/** A task set's categories, in dataset order. */
export type CategoryCatalogue = readonly CategorySpec[];

/** Builds a catalogue from a record of category name to its spec (validated; the record's order is the dataset order). */
export function defineCatalogue<const Name extends string>(entries: Record<Name, CategorySpecInput>): CategoryCatalogue & readonly (CategorySpec & { name: Name })[] {
  return Object.entries<CategorySpecInput>(entries).map(([name, raw]) => {
    const parsed = CategorySpecSchema.safeParse(raw);
    if (!parsed.success) throw new Error(`category ${name}, ${describeIssue(firstIssue(parsed.error))}`);
    return { ...parsed.data, name: name as Name };
  });
}

/** A privacy category: the right answer is a refusal. */
export const isPrivacyCategory = (category: CategorySpec) => category.metric === "privacy_rejection";
