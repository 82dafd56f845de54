import { createHash } from "node:crypto";
import { z } from "zod";
import { categorySpec } from "../datasets/index.js";
import type { EpisodeRecord, Optimum } from "../log/index.js";
import type { OrgSchema } from "../org/index.js";
import { queryText } from "../protocol/index.js";
import { describeSchema } from "../tools/index.js";
import { episodePassed } from "./success.js";

/**
 * What a careful agent needs per task category. The steps come from a written plan for the real
 * tasks' wording (docs/scoring.md lists every one: a look at the schema, the least queries the
 * category's definition needs, the answer), not from a solver that knows how the sample was
 * generated; the tokens and the fields the queries read are measured from the reference solver
 * (`entropic-crmarena calibrate`), which follows such a plan on the sample org. The efficiency
 * dimensions measure an episode against these, with one look around allowed beyond the plan
 * (src/scoring/dimensions/, LOOK_AROUND); DRIFT_ADAPTATION applies where drift renamed one of the fields.
 */
export const CategoryCalibrationSchema = z
  .object({
    /** The careful agent's steps, one turn each: its look at the schema first, its answer last. */
    plan: z.array(z.string().min(1)).min(1),
    turns: z.number().int().positive(),
    queries: z.number().int().nonnegative(),
    /** Transcript tokens allowed on top of the first message. */
    tokens: z.number().int().nonnegative(),
    /** Fields the category's queries read, as `Object.Field` in the org's original names. */
    fields: z.array(z.string()),
    /** Calibration episodes behind the measured figures. */
    episodes: z.number().int().positive(),
  })
  .refine((entry) => entry.turns === entry.plan.length, { message: "turns must be the number of steps of the plan", path: ["turns"] })
  .refine((entry) => entry.queries <= Math.max(0, entry.plan.length - 1), { message: "a plan's queries are among its steps, the answer not", path: ["queries"] });
export type CategoryCalibration = z.infer<typeof CategoryCalibrationSchema>;

export const CalibrationSchema = z.object({
  version: z.literal(2),
  source: z.string(),
  measured: z.object({ tasks_per_category: z.number().int(), seeds: z.array(z.number().int()), levels: z.array(z.string()) }),
  /** Tokens of the largest describe_schema turn the solver took: the look around every category is allowed. */
  look_around_tokens: z.number().int().nonnegative(),
  categories: z.record(z.string(), CategoryCalibrationSchema),
});
export type Calibration = z.infer<typeof CalibrationSchema>;

/** A short fingerprint of a calibration, recorded in every log so a score says what it was measured against. */
export function calibrationDigest(calibration: Calibration): string {
  return createHash("sha256").update(JSON.stringify(calibration)).digest("hex").slice(0, 16);
}

/**
 * The optimum of a category. A category the calibration has not measured (another task set)
 * gets the most generous figures measured for any category, so it is never scored harsher than
 * the plans are.
 */
export function optimumFor(calibration: Calibration, category: string): Optimum & { fields: readonly string[] } {
  const lookAroundTokens = calibration.look_around_tokens;
  // A category may be measured under another's entry (its catalogue's calibrationKey).
  const measured = calibration.categories[categorySpec(category)?.calibrationKey ?? category];
  if (measured) return { turns: measured.turns, queries: measured.queries, tokens: measured.tokens, lookAroundTokens, fields: measured.fields };
  const all = Object.values(calibration.categories);
  return {
    turns: Math.max(1, ...all.map((entry) => entry.turns)),
    queries: Math.max(0, ...all.map((entry) => entry.queries)),
    tokens: Math.max(0, ...all.map((entry) => entry.tokens)),
    lookAroundTokens,
    fields: [],
  };
}

/** Tokens allowed per planned query the solver did not need to make: a query and a result of a few dozen rows. */
export const TOKENS_PER_PLANNED_QUERY = 1500;

/** Does a step's action query the org (a plan step that is neither the look at the schema nor the answer)? */
const isQueryStep = (index: number, plan: readonly string[]) => index > 0 && index < plan.length - 1;

/**
 * The calibration from the careful plans and solver episodes (every one of them must have
 * passed): per category, the plan's turns and queries, the most transcript tokens the solver
 * needed (plus TOKENS_PER_PLANNED_QUERY for each planned query it did without), and the union
 * of the fields its queries read. A solver that needs more steps than a plan shows the plan is
 * wrong: that is an error, not a figure to take.
 */
export function measureCalibration(
  records: readonly EpisodeRecord[],
  schema: OrgSchema,
  measured: Calibration["measured"],
  source: string,
  plans: Readonly<Record<string, readonly string[]>>,
  /** Tokens of one describe_schema of the whole org (and of no less than the solver's own describes). */
  wholeDescribeTokens = 0,
  /**
   * A reference that needs more turns or queries than a plan: an error (the sample's solver: the
   * plan misses a step), or "plan": the plan's turns and queries stand as the optimum and the
   * reference's tokens are taken as measured (the twins' analyst reads real wording on a full-size
   * org, where a careful agent may take a step a plan does without; it is not the plan's judge).
   */
  overPlan: "error" | "plan" = "error",
): Calibration {
  type Tally = { turns: number; queries: number; tokens: number; fields: Set<string>; episodes: number };
  const tallies = new Map<string, Tally>();
  let lookAroundTokens = wholeDescribeTokens;
  for (const record of records) {
    const { trajectory } = record;
    if (!episodePassed(record)) throw new Error(`calibration needs a solved episode; task ${record.task.idx} (${record.task.category}) was not solved`);
    const tokens = trajectory.steps.reduce((sum, step) => sum + step.sent.tokens + step.received.tokens, 0) - trajectory.firstMessageTokens;
    const queries = trajectory.steps.filter((step) => queryText(step.action) !== undefined);
    for (const step of trajectory.steps) {
      if (step.action.kind === "tool" && step.action.tool === describeSchema.name) lookAroundTokens = Math.max(lookAroundTokens, step.sent.tokens + step.received.tokens);
    }
    const tally = tallies.get(trajectory.category) ?? { turns: 1, queries: 0, tokens: 0, fields: new Set<string>(), episodes: 0 };
    tally.turns = Math.max(tally.turns, trajectory.steps.length);
    tally.queries = Math.max(tally.queries, queries.length);
    tally.tokens = Math.max(tally.tokens, tokens);
    for (const step of queries) for (const field of fieldsReadBy(queryText(step.action)!, schema)) tally.fields.add(field);
    tally.episodes++;
    tallies.set(trajectory.category, tally);
  }
  const categories: Record<string, CategoryCalibration> = {};
  for (const [category, tally] of [...tallies].sort(([a], [b]) => a.localeCompare(b))) {
    const plan = plans[category];
    if (!plan) throw new Error(`no careful plan for category ${category}: write its steps in the calibration file's categories.${category}.plan`);
    const plannedQueries = plan.filter((_, index) => isQueryStep(index, plan)).length;
    if (overPlan === "error" && (tally.turns > plan.length || tally.queries > plannedQueries))
      throw new Error(
        `the reference solver needed ${tally.turns} turns and ${tally.queries} queries on ${category}, more than its careful plan (${plan.length} steps, ${plannedQueries} queries): the plan misses a step`,
      );
    categories[category] = {
      plan: [...plan],
      turns: plan.length,
      queries: plannedQueries,
      tokens: tally.tokens + TOKENS_PER_PLANNED_QUERY * Math.max(0, plannedQueries - tally.queries),
      fields: [...tally.fields].sort(),
      episodes: tally.episodes,
    };
  }
  return { version: 2, source, measured, look_around_tokens: lookAroundTokens, categories };
}

const IDENTIFIER_PATH = /[A-Za-z_][A-Za-z0-9_]*(?:\.[A-Za-z_][A-Za-z0-9_]*)*/g;

/**
 * The fields a SOQL query or SOSL search reads, as `Object.Field`: every name in it that is a
 * field of an object the query names, following relationship paths (`Account.ShippingState` from
 * Case reads Case.AccountId and Account.ShippingState). Over-inclusive on purpose: a name that
 * is a field of a named object counts, wherever it stands.
 */
export function fieldsReadBy(query: string, schema: OrgSchema): string[] {
  const objects = new Map(schema.objects.map((object) => [object.name.toLowerCase(), object]));
  const paths = [...query.replace(/'(?:[^'\\]|\\.)*'/g, "''").matchAll(IDENTIFIER_PATH)].map((match) => match[0].split("."));
  // Object names as written (the solver writes them so), so that keywords such as ORDER BY name no object.
  const byExactName = new Map(schema.objects.map((object) => [object.name, object]));
  const named = new Set(paths.flatMap((path) => path.filter((part) => byExactName.has(part)).map((part) => byExactName.get(part)!)));
  const found = new Set<string>();
  const fieldOf = (objectName: string, name: string) => objects.get(objectName.toLowerCase())?.fields.find((field) => field.name.toLowerCase() === name.toLowerCase());
  for (const path of paths) {
    for (const start of named) {
      let object = start.name;
      for (const [i, part] of path.entries()) {
        if (i === 0 && part.toLowerCase() === object.toLowerCase()) continue;
        const last = i === path.length - 1;
        const field = last ? fieldOf(object, part) : (fieldOf(object, `${part}Id`) ?? fieldOf(object, part.replace(/__r$/i, "__c")));
        if (!field) break;
        found.add(`${object}.${field.name}`);
        if (!last) object = field.references[0] ?? object;
      }
    }
  }
  return [...found].sort();
}
