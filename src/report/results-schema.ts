import { z } from "zod";
import type { summarisePlan } from "../entropy/index.js";
import {
  DataSourceSchema,
  DimensionScoresSchema,
  IdRemapRecordSchema,
  JudgeRecordSchema,
  OptimumSchema,
  TerminationSchema,
  type TrajectoryStep,
  WeightsSchema,
} from "../log/index.js";
import type { compactTrajectory } from "./compact.js";
import { RankingSchema } from "./track.js";
import { KindLossesSchema, RobustnessBlockSchema, TaskTrialsSchema, TrialsBlockSchema } from "./trials.js";

/**
 * The results object's layout: what `buildResults` writes (its return type is this schema's), what
 * the readers of results files derive their checks from (`pick`, `partial`), and what the
 * leaderboard's queries may name (tests/report/leaderboard.test.ts). The keys of the leaderboard's 2.0.0
 * layout come first, in their order, then the keys this implementation adds. Blocks built whole
 * from another module's value (a trajectory, the entropy plan's summary) are typed by that value.
 */

const NumberOrNull = z.number().nullable();

/** The chance floor's figures beside a pass rate. */
const floorFigures = {
  floor: NumberOrNull.describe("the share of the tasks a zero-work purple passes; null when the run's log has no chance floor"),
  floor_passed: NumberOrNull.describe("how many tasks the zero-work purple passes; null without a chance floor"),
  lift: NumberOrNull.describe("(pass rate − floor) / (1 − floor); null without a floor or where the floor is every task"),
};

export const SummarySchema = z
  .object({
    pass_rate: z.number().describe("passed / total_tasks, rounded to 3 places"),
    total_tasks: z.number().describe("episodes of the run's condition (a paired run's perturbed ones)"),
    total_passed: z.number().describe("episodes the benchmark's verdict passed"),
    avg_score: z.number().describe("mean total score (0-100), rounded to 1 place"),
    ...floorFigures,
  })
  .describe("the leaderboard's headline figures");

export const CategoryFiguresSchema = z
  .object({
    count: z.number().describe("episodes of the category"),
    passed: z.number().describe("of them passed"),
    total_score: z.number().describe("sum of their total scores"),
    pass_rate: z.number().describe("passed / count"),
    avg_score: z.number().describe("total_score / count"),
    ...floorFigures,
  })
  .describe("one category's figures");

const OriginalCountSchema = z.object({ total: z.number(), passed: z.number(), accuracy: z.number() });

export const OriginalBlockSchema = z
  .object({
    scores: z.object({
      accuracy: NumberOrNull.describe("CRMArena-Pro's own accuracy over the scored tasks; null with skip_original"),
      accuracy_percent: NumberOrNull.describe("the same in percent"),
    }),
    summary: z.object({ total_tasks: NumberOrNull, passed: NumberOrNull, failed: NumberOrNull }).describe("scored tasks, passed and failed by CRMArena-Pro's verdict"),
    by_category: z.record(z.string(), OriginalCountSchema).describe("per category: total, passed, accuracy"),
    by_metric_type: z.record(z.string(), OriginalCountSchema).describe("per reward metric: total, passed, accuracy"),
  })
  .describe("CRMArena-Pro's original scoring, unchanged");

export const RunTimingSchema = z
  .object({
    total_seconds: z.number().describe("the run's wall time"),
    purple_agent_seconds: z.number().describe("time spent waiting on the purple"),
    green_agent_seconds: z.number().describe("time the green spent (tools, queries, scoring)"),
    avg_seconds_per_task: z.number().describe("total_seconds / episodes"),
    purple_agent_percent: z.number().describe("purple / (purple + green), in percent"),
  })
  .describe("where the run's time went");

const EntropyEventsSchema = z
  .object({
    renamed_in_text: z.array(z.string()).describe("fields drift renamed that the task's text named"),
    drift_exposure: z.array(z.string()).describe("fields the task's category needs that drift renamed"),
    passages: z.array(z.string()).describe("rot passages added to the task's text"),
    distractor_records_seen: z.number().describe("distractor records the purple's queries returned"),
    distractor_ids_in_answer: z.array(z.string()).describe("distractor Ids the answer named"),
  })
  .describe("the drift and rot that touched the task");

export const TaskHeadShape = {
  task_idx: z.string().describe("the task's index in its task file, as a string"),
  task_category: z.string().describe("the task's category"),
  task_query: z.string().describe("the task's text as the purple was shown it"),
  dataset_reference: z
    .object({ source: z.string(), split: z.string(), idx: z.number(), reward_metric: z.string() })
    .describe("where the task comes from: the dataset, its split (the org type), its index and metric"),
  trial: z.number().optional().describe("which trial (runs with trials or paired only)"),
  condition: z.enum(["perturbed", "clean"]).optional().describe("which view (paired runs only)"),
  touched_by: z.array(z.string()).optional().describe("the perturbation kinds that touched the episode (paired runs' perturbed episodes)"),
};

const trajectoryField = z.custom<ReturnType<typeof compactTrajectory>>().describe("the episode's steps, texts cut to 300 characters");
const warningsField = z.custom<NonNullable<TrajectoryStep["warnings"]>>().optional().describe("what the green noticed in the purple's replies (a malformed action it read anyway)");

/** An episode the purple broke off (no score). */
const UnscoredEntrySchema = z.object({
  ...TaskHeadShape,
  crm_reward: z.number().describe("0: nothing was scored"),
  total_score: z.number().describe("0: nothing was scored"),
  dimension_scores: z.object({}).describe("empty: nothing was scored"),
  error: z.string().describe("why the episode ended without a score"),
  success: z.boolean().describe("false: nothing was scored"),
  termination: TerminationSchema.describe("how the episode ended"),
  unscored: z.string().nullable().describe("why it was not scored"),
  entropy_events: EntropyEventsSchema,
  floor_passed: z.boolean().nullable().describe("would the zero-work purple have passed it; null without a chance floor"),
  warnings: warningsField,
  trajectory: trajectoryField,
});

/** What an episode cost and how it went, as its results entry gives it. */
export const EpisodeMetricsSchema = z.object({
  turns: z.number(),
  tokens_estimate: z.number(),
  tool_calls: z.number(),
  queries: z.number(),
  failed_queries: z.number(),
  invalid_actions: z.number(),
  errors: z.number(),
  errors_recovered: z.number(),
  reported_tokens: z.number().nullable(),
  answer_ids: z.object({ live: z.number(), distractor: z.number(), absent: z.number() }),
});

/** A scored episode. */
export const ScoredEntrySchema = z.object({
  ...TaskHeadShape,
  entropic: z
    .object({ crm_reward: z.number(), total_score: z.number(), dimension_scores: DimensionScoresSchema, success: z.boolean() })
    .describe("the 2.0.0 layout's copy of the benchmark's figures"),
  crm_reward: z.number().describe("CRMArena-Pro's reward (0 or 1; F1 for fuzzy tasks)"),
  total_score: z.number().describe("the weighted total of the dimensions (0-100)"),
  dimension_scores: DimensionScoresSchema.describe("each dimension's score (0-100), null where it does not apply"),
  agent_answer: z.string().describe("the purple's answer, cut to 500 characters"),
  expected_answer: z.string().describe("the ground truth as Python writes it, cut to 200 characters"),
  success: z.boolean().describe("the benchmark's verdict"),
  metrics: EpisodeMetricsSchema.describe("what the episode cost and how it went: turns, tokens, tool calls, queries, errors, the answer's Ids by status"),
  timing: z
    .object({ total_seconds: z.number(), purple_agent_seconds: z.number(), green_agent_seconds: z.number(), purple_agent_percent: z.number() })
    .describe("where the episode's time went"),
  original: z.object({ reward: z.number(), passed: z.boolean(), parsed_answer: z.unknown() }).describe("CRMArena-Pro's own verdict and the answer as it parsed it"),
  termination: TerminationSchema.describe("how the episode ended"),
  entropy_events: EntropyEventsSchema,
  judge: z
    .object({
      method: JudgeRecordSchema.shape.method,
      source: JudgeRecordSchema.shape.source,
      model: JudgeRecordSchema.shape.model,
      raw_output: JudgeRecordSchema.shape.rawOutput,
      fallback: JudgeRecordSchema.shape.fallback,
    })
    .describe("which judge decided the original verdict (method, source, model) and what it said"),
  not_applicable: z.record(z.string(), z.string()).describe("the dimensions that did not apply, each with why"),
  optimum: OptimumSchema.describe("the calibration's optimum the efficiency dimensions were measured against"),
  floor_passed: z.boolean().nullable().describe("would the zero-work purple have passed it; null without a chance floor"),
  verdict: z
    .object({ method: z.string(), reward: z.number(), reason: z.string().nullable() })
    .nullable()
    .describe("where the benchmark's verdict differs from CRMArena-Pro's, why; null where they agree"),
  warnings: warningsField,
  trajectory: trajectoryField,
});

export const TaskEntrySchema = z.union([ScoredEntrySchema, UnscoredEntrySchema]).describe("one episode");

/** The sums every aggregate is computed from, exactly, over one shard or many. */
export const AggregatesSchema = z
  .object({
    total_tasks: z.number().describe("episodes"),
    passed: z.number().describe("episodes passed"),
    scored: z.number().describe("episodes scored"),
    score_sum: z.number().describe("sum of the total scores"),
    dimensions: z.record(z.string(), z.object({ sum: z.number(), count: z.number() })).describe("per dimension: the sum of its scores and how many episodes it applied to"),
    original: z.object({ scored: z.number(), passed: z.number() }).describe("CRMArena-Pro's verdicts: scored and passed"),
    floor_passed: NumberOrNull.describe("tasks the zero-work purple passes; null without a chance floor"),
    tasks: z.array(TaskTrialsSchema).optional().describe("runs with trials or paired: each task's trials and passes"),
    kinds: z.record(z.string(), KindLossesSchema).optional().describe("paired runs: per perturbation kind, the episodes it touched and the passes it cost"),
  })
  .describe("sums from which every figure is computed; the leaderboard adds a run's shards' aggregates");

export const JudgeBlockSchema = z
  .object({
    mode: z.string().describe("model judges or the heuristic"),
    primary_model: z.string().nullable(),
    cheap_model: z.string().nullable(),
    verdicts: z
      .object({ llm: z.number(), cache: z.number(), heuristic: z.number(), none: z.number() })
      .describe("how many verdicts each source gave: a model, the judgement cache, the heuristic, none (unscored)"),
    usage: z
      .record(z.string(), z.object({ calls: z.number(), failures: z.number(), input_tokens: z.number(), output_tokens: z.number() }))
      .nullable()
      .describe("the judge models' calls and tokens per role"),
  })
  .describe("who judged, and at what cost");

export const RunBlockSchema = z
  .object({
    id: z.string().describe("the run id (the same for every shard of one run)"),
    shard_index: z.number().int().describe("this shard, from 0"),
    num_shards: z.number().int().describe("shards of the run"),
    selection: z
      .object({ mode: z.string(), size: z.number().int(), seed: z.number().int(), in_this_shard: z.number().int() })
      .describe("how the tasks were chosen, how many over all shards, and how many are in this one"),
  })
  .describe("which run and shard these results are");

export const InteractiveBlockSchema = z
  .object({
    user_simulators: z.array(z.string()).describe("who played the user"),
    episodes: z.number(),
    user_turns: z.number(),
    user_turns_per_episode: z.number(),
    user_failures: z.number().describe("episodes the simulated user broke (the harness's failure, not the purple's)"),
    user_failure_rate: z.number(),
  })
  .describe("interactive mode's figures");

export const ResultsSchema = z
  .object({
    participants: z.object({ agent: z.string().describe("the purple's participant URL") }).describe("who was assessed"),
    results: z.array(TaskEntrySchema).describe("one entry per episode"),
    entropic: z
      .object({ summary: SummarySchema, dimension_averages: z.record(z.string(), NumberOrNull), by_category: z.record(z.string(), CategoryFiguresSchema) })
      .describe("the 2.0.0 layout's copy of summary, dimension_averages and by_category"),
    summary: SummarySchema,
    dimension_averages: z.record(z.string(), NumberOrNull).describe("each dimension's mean where it applied; null where it applied nowhere"),
    by_category: z.record(z.string(), CategoryFiguresSchema).describe("per category, in first-appearance order"),
    extension_metrics: z
      .object({ drift_level: z.string(), rot_level: z.string(), org_type: z.string(), skip_original: z.boolean() })
      .describe("the run's entropy levels, org type, and whether original scoring was skipped"),
    timestamp: z.string().describe("when the run started (naive UTC ISO, as Python writes it)"),
    version: z.string().describe("the results layout version (2.0.0)"),
    original: OriginalBlockSchema,
    timing: RunTimingSchema,
    green_agent: z.object({ name: z.string(), versions: z.record(z.string(), z.string()) }).describe("the green agent's name and versions"),
    seed: z.number().describe("the assessment seed"),
    dataset: z.string().describe("the dataset the run's tasks came from"),
    data_sources: z
      .object({
        tasks: DataSourceSchema.describe("the task file (and what a built set was built from)"),
        org: DataSourceSchema.describe("the org"),
        check: z
          .object({ referenced_ids: z.number(), missing_ids: z.number(), examples: z.array(z.string()), allowed_mismatch: z.boolean() })
          .describe("the data check: record Ids the tasks name and how many the org lacks"),
      })
      .describe("where the run's data came from"),
    config: z.record(z.string(), z.unknown()).describe("the validated config, whole"),
    ignored_config_keys: z.array(z.string()).describe("keys the config had that the green does not know (allowed by allow_unknown_config)"),
    status: z.enum(["completed", "canceled", "interrupted"]).describe("whether every episode ran"),
    ranked: RankingSchema.shape.ranked.describe("whether the leaderboard ranks the run (src/report/track.ts)"),
    unranked_reasons: RankingSchema.shape.unranked_reasons.describe("why not, one sentence each; empty when ranked"),
    track: RankingSchema.shape.track.describe("the run's values of the ranked track's keys"),
    track_fingerprint: RankingSchema.shape.track_fingerprint.describe("a hash of `track`: runs on one fingerprint are comparable"),
    run: RunBlockSchema,
    aggregates: AggregatesSchema,
    weights: WeightsSchema.describe("the dimension weights of the total score"),
    calibration: z.object({ source: z.string(), digest: z.string() }).describe("the calibration the efficiency dimensions were measured against"),
    entropy: z.custom<ReturnType<typeof summarisePlan>>().describe("the entropy plan's summary: levels, seed, and each perturbation kind with its changes"),
    judge: JudgeBlockSchema,
    terminations: z.record(z.string(), z.number()).describe("how many episodes ended each way"),
    chance_floor: z
      .object({
        strategy: z.string().nullable(),
        remap_ids: z.boolean().nullable(),
        answers: z.record(z.string(), z.object({ metric: z.string(), answer: z.union([z.array(z.string()), z.literal("refusal")]) })).nullable(),
        reason: z.string().nullable(),
      })
      .describe("the zero-work strategy and its answers per category, or why there is no floor"),
    id_remap: IdRemapRecordSchema.nullable().describe("the sandbox refresh the Ids went through (its digest, never its key); null: the dataset's own Ids"),
    log_file: z.string().optional().describe("the run's journal, when it has one"),
    trials: TrialsBlockSchema.optional().describe("runs with trials or paired: pass@k, pass^k and their intervals"),
    robustness: RobustnessBlockSchema.optional().describe("paired runs: the perturbed over clean pass rate, per category and kind"),
    interactive: InteractiveBlockSchema.optional().describe("interactive runs: who played the user, how much it said, how often it failed"),
  })
  .describe("the results object of one assessment (or one shard of it)");

export type Results = z.infer<typeof ResultsSchema>;

/** A key of an object schema with its description (an optional key's own, else its inner schema's). */
function describedKeys(shape: Readonly<Record<string, z.ZodType>>): [string, string][] {
  return Object.entries(shape).map(([key, schema]) => {
    const inner = schema instanceof z.ZodOptional ? (schema.unwrap() as z.ZodType) : schema;
    return [key, schema.description ?? inner.description ?? ""];
  });
}

/**
 * The results reference of docs/reference.md, from the schema's descriptions: the results
 * object's keys, then an episode's (tests/report/results-schema.test.ts checks that the document holds it).
 */
export function resultsReference(): string {
  const row = ([key, meaning]: [string, string]) => `| \`${key}\` | ${meaning} |`;
  const episodeKeys = new Map(describedKeys(ScoredEntrySchema.shape));
  for (const [key, meaning] of describedKeys(UnscoredEntrySchema.shape)) if (!episodeKeys.has(key)) episodeKeys.set(key, meaning);
  return [
    "| key | meaning |",
    "|---|---|",
    ...describedKeys(ResultsSchema.shape).map(row),
    "",
    "Each entry of `results` (an episode; one the purple broke off has `error` and `unscored` instead of the scored figures):",
    "",
    "| key | meaning |",
    "|---|---|",
    ...[...episodeKeys].map(row),
  ].join("\n");
}
