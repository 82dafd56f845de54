import { createHash } from "node:crypto";
import { z } from "zod";
import type { EpisodeRecord, Optimum } from "../log/index.js";
import type { OrgSchema } from "../org/index.js";
import { queryText } from "../protocol/index.js";

/**
 * What a careful agent needs per task category, measured from the reference solver purple
 * (`entropic-crmarena calibrate`): the most turns (its describe_schema and its answer included),
 * data queries and transcript tokens beyond the task message it needed on any calibration task,
 * and the fields its queries read. The efficiency dimensions measure an episode against these,
 * so the solver itself scores 100; DRIFT_ADAPTATION applies where drift renamed one of the fields.
 */
export const CategoryCalibrationSchema = z.object({
  turns: z.number().int().positive(),
  queries: z.number().int().nonnegative(),
  /** Transcript tokens allowed on top of the first message. */
  tokens: z.number().int().nonnegative(),
  /** Fields the category's queries read, as `Object.Field` in the org's original names. */
  fields: z.array(z.string()),
  /** Calibration episodes behind these figures. */
  episodes: z.number().int().positive(),
});
export type CategoryCalibration = z.infer<typeof CategoryCalibrationSchema>;

export const CalibrationSchema = z.object({
  version: z.literal(1),
  source: z.string(),
  measured: z.object({ tasks_per_category: z.number().int(), seeds: z.array(z.number().int()), levels: z.array(z.string()) }),
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
 * the solver was.
 */
export function optimumFor(calibration: Calibration, category: string): Optimum & { fields: readonly string[] } {
  const measured = calibration.categories[category];
  if (measured) return { turns: measured.turns, queries: measured.queries, tokens: measured.tokens, fields: measured.fields };
  const all = Object.values(calibration.categories);
  return {
    turns: Math.max(1, ...all.map((entry) => entry.turns)),
    queries: Math.max(0, ...all.map((entry) => entry.queries)),
    tokens: Math.max(0, ...all.map((entry) => entry.tokens)),
    fields: [],
  };
}

/**
 * The calibration measured from solver episodes (every one of them must have passed): per
 * category, the maximum over its episodes, and the union of the fields its queries read.
 */
export function measureCalibration(records: readonly EpisodeRecord[], schema: OrgSchema, measured: Calibration["measured"], source: string): Calibration {
  const categories: Record<string, CategoryCalibration> = {};
  for (const record of records) {
    const { trajectory } = record;
    if (!record.score?.original.passed) throw new Error(`calibration needs a solved episode; task ${record.task.idx} (${record.task.category}) was not solved`);
    const tokens = trajectory.steps.reduce((sum, step) => sum + step.sent.tokens + step.received.tokens, 0) - trajectory.firstMessageTokens;
    const queries = trajectory.steps.filter((step) => queryText(step.action) !== undefined);
    const fields = new Set(queries.flatMap((step) => fieldsReadBy(queryText(step.action)!, schema)));
    const current = categories[trajectory.category];
    categories[trajectory.category] = {
      turns: Math.max(current?.turns ?? 1, trajectory.steps.length),
      queries: Math.max(current?.queries ?? 0, queries.length),
      tokens: Math.max(current?.tokens ?? 0, tokens),
      fields: [...new Set([...(current?.fields ?? []), ...fields])].sort(),
      episodes: (current?.episodes ?? 0) + 1,
    };
  }
  const sorted = Object.fromEntries(Object.entries(categories).sort(([a], [b]) => a.localeCompare(b)));
  return { version: 1, source, measured, categories: sorted };
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
