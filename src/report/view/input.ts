import { z } from "zod";
import { EpisodeConditionSchema } from "../../log/index.js";
import { orderDimensions } from "../../scoring/index.js";
import { EntropicError, type ErrorDetails, parseOrThrow } from "../../util/index.js";
import { CategoryFiguresSchema, EpisodeMetricsSchema, ResultsSchema, RunBlockSchema, RunTimingSchema, SummarySchema } from "../results-schema.js";
import { RankingSchema } from "../track.js";
import { RobustnessBlockSchema, TrialsBlockSchema } from "../trials.js";

/**
 * The parts of a results object that the report, `show` and `compare` read, checked at the
 * boundary: a results file is read from disk and may come from another version or be edited.
 * Keys the views do not read are dropped; keys a failed episode lacks are optional.
 */
const NumberOrNull = z.number().nullable();

const StepSchema = z.object({
  turn: z.number(),
  action: z.string(),
  ok: z.boolean().optional(),
  observation: z.string().optional(),
  rows: z.number().optional(),
  purple_ms: z.number(),
  green_ms: z.number(),
  sent_tokens: z.number(),
  received_tokens: z.number(),
  reported_usage: z.object({ input_tokens: z.number(), output_tokens: z.number() }).optional(),
});

const EntropyEventsSchema = z.object({
  renamed_in_text: z.array(z.string()).default([]),
  drift_exposure: z.array(z.string()).default([]),
  passages: z.array(z.string()).default([]),
  distractor_records_seen: z.number().default(0),
  distractor_ids_in_answer: z.array(z.string()).default([]),
});

const TaskEntrySchema = z.object({
  task_idx: z.union([z.string(), z.number()]).transform(String),
  task_category: z.string(),
  /** Runs with trials or a clean twin: which trial, in which view, touched by which perturbation kinds. */
  trial: z.number().int().optional(),
  condition: EpisodeConditionSchema.optional(),
  touched_by: z.array(z.string()).optional(),
  task_query: z.string().default(""),
  dataset_reference: z.object({ reward_metric: z.string().optional() }).optional(),
  crm_reward: z.number(),
  total_score: z.number(),
  dimension_scores: z.record(z.string(), NumberOrNull),
  agent_answer: z.string().optional(),
  expected_answer: z.string().optional(),
  success: z.boolean(),
  error: z.string().optional(),
  unscored: z.string().nullable().optional(),
  metrics: EpisodeMetricsSchema.optional(),
  timing: z.object({ total_seconds: z.number(), purple_agent_seconds: z.number(), green_agent_seconds: z.number() }).optional(),
  original: z.object({ reward: z.number(), parsed_answer: z.array(z.string()) }).optional(),
  termination: z.string(),
  entropy_events: EntropyEventsSchema.default({ renamed_in_text: [], drift_exposure: [], passages: [], distractor_records_seen: 0, distractor_ids_in_answer: [] }),
  judge: z.object({ method: z.string(), source: z.string(), model: z.string().nullable(), raw_output: z.string().nullable(), fallback: z.string().optional() }).optional(),
  not_applicable: z.record(z.string(), z.string()).optional(),
  optimum: z.object({ turns: z.number(), queries: z.number(), tokens: z.number() }).optional(),
  warnings: z.array(z.string()).optional(),
  /** Would the zero-work purple have passed it? Null (or absent, in older results) when the run has no chance floor. */
  floor_passed: z.boolean().nullable().default(null),
  trajectory: z.object({ termination: z.string(), steps: z.array(StepSchema) }).default({ termination: "unknown", steps: [] }),
});

/** One org change of an entropy plan, read leniently: the views print what they recognise. */
const OrgChangeSchema = z
  .object({
    op: z.string(),
    object: z.string().default(""),
    from: z.string().optional(),
    to: z.string().optional(),
    field: z.union([z.string(), z.object({ name: z.string() }).loose()]).optional(),
    note: z.string().optional(),
    ids: z.array(z.string()).optional(),
    records: z.array(z.unknown()).optional(),
  })
  .loose();
export type OrgChangeInput = z.infer<typeof OrgChangeSchema>;

/**
 * One kind of perturbation, in either layout: the plan's own (its org changes, text changes and
 * distractor Ids in full) or the results' summary of it (`summarisePlan`: renamed and deprecated
 * fields as `Object.Field -> New`, added fields, records per object, counts).
 */
const PlannedKindSchema = z.object({
  kind: z.string(),
  family: z.string(),
  level: z.string(),
  description: z.string().default(""),
  summary: z.string().default(""),
  changes: z.array(OrgChangeSchema).default([]),
  text: z.array(z.unknown()).default([]),
  distractor_ids: z.array(z.string()).default([]),
  renamed: z.array(z.string()).default([]),
  deprecated: z.array(z.string()).default([]),
  added_fields: z.array(z.string()).default([]),
  records: z.record(z.string(), z.number()).default({}),
  tasks_with_text: z.number().optional(),
  distractor_records: z.number().optional(),
});

/** The chance floor and the lift over it; absent in results written before the floor was measured, read as null. */
const FloorFigures = { floor: NumberOrNull.default(null), floor_passed: NumberOrNull.default(null), lift: NumberOrNull.default(null) };

/** Why results written before the chance floor have none. */
const FLOOR_ABSENT_REASON = "the results were written before the chance floor was measured";

const CategorySchema = CategoryFiguresSchema.extend(FloorFigures);
const UsageSchema = z.object({ calls: z.number(), failures: z.number(), input_tokens: z.number(), output_tokens: z.number() });

/**
 * What the views read of a results file: ResultsSchema's blocks where results of every layout have
 * them as written now, and lenient stand-ins (defaults, optional keys) where older layouts differ.
 */
export const ReportResultsSchema = z.object({
  participants: ResultsSchema.shape.participants,
  results: z.array(TaskEntrySchema),
  summary: SummarySchema.extend(FloorFigures),
  dimension_averages: z.record(z.string(), NumberOrNull),
  by_category: z.record(z.string(), CategorySchema),
  extension_metrics: z.object({ drift_level: z.string(), rot_level: z.string() }),
  timestamp: z.string(),
  version: z.string(),
  original: z.object({ scores: z.object({ accuracy: NumberOrNull, accuracy_percent: NumberOrNull }) }),
  timing: RunTimingSchema,
  green_agent: z.object({ name: z.string(), versions: z.record(z.string(), z.string()) }).optional(),
  seed: z.number(),
  dataset: z.string(),
  data_sources: z
    .object({
      tasks: z.object({
        path: z.string(),
        kind: z.string(),
        builtFrom: z
          .object({
            source: z.object({ path: z.string(), sha256: z.string() }),
            key: z.string().optional(),
            seed: z.number().optional(),
            version: z.number(),
            trials: z.number().optional(),
            missing: z.array(z.object({ idx: z.number(), category: z.string(), trial: z.number().optional() })),
          })
          .optional(),
      }),
      org: z.object({ path: z.string(), kind: z.string() }),
      check: z.object({ referenced_ids: z.number(), missing_ids: z.number(), examples: z.array(z.string()), allowed_mismatch: z.boolean() }).optional(),
    })
    .optional(),
  config: z.record(z.string(), z.unknown()),
  ignored_config_keys: z.array(z.string()).default([]),
  status: z.string().optional(),
  run: RunBlockSchema,
  weights: z.record(z.string(), z.number()),
  calibration: z.object({ source: z.string(), digest: z.string() }).optional(),
  entropy: z
    .object({
      /** Layout of this version: the drift renames per object, the rot records per object. */
      rename_map: z.record(z.string(), z.record(z.string(), z.string())).default({}),
      injected_records: z.record(z.string(), z.number()).default({}),
      /** Layout of the entropy plan (one entry per kind of perturbation, with its org changes). */
      kinds: z.array(PlannedKindSchema).optional(),
    })
    .loose()
    .default({ rename_map: {}, injected_records: {} }),
  judge: z.object({
    mode: z.string(),
    primary_model: z.string().nullable(),
    cheap_model: z.string().nullable(),
    verdicts: z.record(z.string(), z.number()),
    usage: z.record(z.string(), UsageSchema).nullable(),
  }),
  terminations: z.record(z.string(), z.number()).default({}),
  /** The zero-work strategy and its answers per category, or why the results have no floor. */
  chance_floor: z
    .object({
      strategy: z.string().nullable(),
      remap_ids: z.boolean().nullable(),
      answers: z.record(z.string(), z.object({ metric: z.string(), answer: z.union([z.array(z.string()), z.literal("refusal")]) })).nullable(),
      reason: z.string().nullable(),
    })
    .default({ strategy: null, remap_ids: null, answers: null, reason: FLOOR_ABSENT_REASON }),
  log_file: z.string().optional(),
  /** The leaderboard's ranking keys (src/report/track.ts); absent in results written before them. */
  ranked: RankingSchema.shape.ranked.optional(),
  unranked_reasons: RankingSchema.shape.unranked_reasons.optional(),
  track_fingerprint: RankingSchema.shape.track_fingerprint.optional(),
  trials: TrialsBlockSchema.optional(),
  robustness: RobustnessBlockSchema.optional(),
});

export type ReportResults = z.infer<typeof ReportResultsSchema>;

/**
 * The dimensions a results file holds, in the registry's order; one this build does not know (a
 * file of another build) follows them, shown by its name with its values as recorded.
 */
export function resultsDimensions(results: Pick<ReportResults, "weights" | "dimension_averages">): string[] {
  return orderDimensions([...Object.keys(results.weights), ...Object.keys(results.dimension_averages)]);
}
export type TaskEntry = ReportResults["results"][number];
export type CompactStep = TaskEntry["trajectory"]["steps"][number];

/** A results object that cannot be read: the message names the source and the field. */
export class ResultsInputError extends EntropicError {
  override readonly name = "ResultsInputError";
  constructor(message: string, details?: ErrorDetails) {
    super("invalid_request", message, details);
  }
}

/**
 * Checks a results object (the green agent's data part; a leaderboard file wrapping it in
 * `results[0]` is unwrapped) and returns the parts the views read.
 */
export function parseReportResults(document: unknown, source: string): ReportResults {
  return parseOrThrow(ReportResultsSchema, unwrap(document), (fault) => new ResultsInputError(`${source} is not a results object of this green agent: ${fault}`));
}

function unwrap(document: unknown): unknown {
  if (typeof document !== "object" || document === null) return document;
  const results = (document as { results?: unknown }).results;
  const first: unknown = Array.isArray(results) ? results[0] : undefined;
  return typeof first === "object" && first !== null && "version" in first && "summary" in first ? first : document;
}
