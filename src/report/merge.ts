import { z } from "zod";
import { orderDimensions } from "../scoring/index.js";
import { EntropicError, type ErrorDetails, parseOrThrow, pyRound } from "../util/index.js";
import {
  type Aggregates,
  byCategoryOf,
  dimensionAveragesOf,
  interactiveBlock,
  originalOf,
  type ResultsObject,
  summaryOf,
  type Tally,
  trialBlocks,
  trialSettingsOf,
} from "./results.js";
import { AggregatesSchema, RunBlockSchema, RunTimingSchema, ScoredEntrySchema, TaskHeadShape } from "./results-schema.js";
import { mergedRanking, type Ranking, RankingSchema } from "./track.js";
import { sumKindLosses } from "./trials.js";

/** What merging needs of a shard's results, checked at the boundary (files from disk are not trusted). */
const ShardSchema = z.looseObject({
  run: RunBlockSchema.pick({ id: true, shard_index: true, num_shards: true }).extend({ selection: RunBlockSchema.shape.selection.pick({ size: true }).loose() }),
  aggregates: AggregatesSchema.extend({
    /** Absent or null in results of a run whose log had no chance floor. */
    floor_passed: AggregatesSchema.shape.floor_passed.optional(),
  }),
  results: z.array(
    z.looseObject({
      task_category: TaskHeadShape.task_category,
      success: ScoredEntrySchema.shape.success,
      total_score: ScoredEntrySchema.shape.total_score,
      dataset_reference: TaskHeadShape.dataset_reference.pick({ reward_metric: true }).loose(),
      floor_passed: ScoredEntrySchema.shape.floor_passed.optional(),
      /** CRMArena-Pro's verdict; `passed` absent in results written before the benchmark had its own. */
      original: z.looseObject({ passed: z.boolean().optional() }).optional(),
      /** A paired run's clean episodes, which the run's own figures leave out. */
      condition: TaskHeadShape.condition,
    }),
  ),
  config: z.looseObject({ skip_original: z.boolean(), seed: z.number().int(), trials: z.number().int().optional(), paired: z.boolean().optional() }),
  timing: RunTimingSchema.pick({ total_seconds: true, purple_agent_seconds: true, green_agent_seconds: true }).loose(),
});

/** Shards that cannot be merged: the message says which and why. */
export class MergeError extends EntropicError {
  override readonly name = "MergeError";
  constructor(message: string, details?: ErrorDetails) {
    super("invalid_request", message, details);
  }
}

/**
 * One results object from the shards of one run, with the aggregates summed exactly (never an
 * average of averages): the same summary as one unsharded run of the same tasks. Every shard
 * of the run must be there, once.
 */
export function mergeShards(shards: readonly Record<string, unknown>[]): ResultsObject {
  if (shards.length === 0) throw new MergeError("no shards to merge");
  const parsed = shards.map((shard, i) => {
    const data = parseOrThrow(ShardSchema, shard, (fault) => new MergeError(`shard ${i + 1} is not a results object with run and aggregates (layout 2.1): ${fault}`));
    return { raw: shard as unknown as ResultsObject, data };
  });
  const first = parsed[0]!.data;
  const runIds = new Set(parsed.map((shard) => shard.data.run.id));
  if (runIds.size > 1) throw new MergeError(`the shards belong to different runs: ${[...runIds].join(", ")}`);
  const indices = parsed.map((shard) => shard.data.run.shard_index).sort((a, b) => a - b);
  const expected = Array.from({ length: first.run.num_shards }, (_, i) => i);
  if (JSON.stringify(indices) !== JSON.stringify(expected))
    throw new MergeError(`run ${first.run.id} has ${first.run.num_shards} shards; got shard indices ${indices.join(", ")} (each shard exactly once)`);
  const ordered = [...parsed].sort((a, b) => a.data.run.shard_index - b.data.run.shard_index);
  // Every dimension any shard recorded (the shards of one run share a build, so normally the same ones).
  const dimensions = orderDimensions(ordered.flatMap(({ data }) => Object.keys(data.aggregates.dimensions)));
  const sums: Aggregates = {
    total_tasks: 0,
    passed: 0,
    scored: 0,
    score_sum: 0,
    dimensions: Object.fromEntries(dimensions.map((dimension) => [dimension, { sum: 0, count: 0 }])) as Aggregates["dimensions"],
    original: { scored: 0, passed: 0 },
    // The run's floor is known only when every shard's is.
    floor_passed: ordered.every(({ data }) => typeof data.aggregates.floor_passed === "number") ? 0 : null,
  };
  for (const { data } of ordered) {
    sums.total_tasks += data.aggregates.total_tasks;
    sums.passed += data.aggregates.passed;
    sums.scored += data.aggregates.scored;
    sums.score_sum += data.aggregates.score_sum;
    sums.original.scored += data.aggregates.original.scored;
    sums.original.passed += data.aggregates.original.passed;
    if (sums.floor_passed !== null) sums.floor_passed += data.aggregates.floor_passed ?? 0;
    for (const dimension of dimensions) {
      sums.dimensions[dimension]!.sum += data.aggregates.dimensions[dimension]?.sum ?? 0;
      sums.dimensions[dimension]!.count += data.aggregates.dimensions[dimension]?.count ?? 0;
    }
  }
  const results = ordered.flatMap((shard) => shard.raw.results);
  const summary = summaryOf(sums);
  const dimension_averages = dimensionAveragesOf(sums);
  const tallies = ordered.flatMap((shard) => shard.data.results.filter((entry) => entry.condition !== "clean").map(tallyOf));
  // Per-task counts concatenated (shards split tasks, never a task's trials) and in the unsharded
  // order, so that the bootstrap with the same seed resamples the same list.
  const settings = trialSettingsOf(first.config);
  const taskTrials = ordered.flatMap(({ data }) => data.aggregates.tasks ?? []).sort((a, b) => a.task_idx - b.task_idx);
  const kinds = sumKindLosses(ordered.map(({ data }) => data.aggregates.kinds ?? {}));
  const by_category = byCategoryOf(tallies);
  const base = ordered[0]!.raw;
  const purple = ordered.reduce((sum, shard) => sum + shard.data.timing.purple_agent_seconds, 0);
  const green = ordered.reduce((sum, shard) => sum + shard.data.timing.green_agent_seconds, 0);
  // Shards run side by side: the run took as long as its slowest shard.
  const wall = Math.max(...ordered.map((shard) => shard.data.timing.total_seconds));
  return {
    ...base,
    results,
    entropic: { summary, dimension_averages, by_category },
    summary,
    dimension_averages,
    by_category,
    timestamp: ordered.map((shard) => shard.raw.timestamp).sort()[0]!,
    original: originalOf(tallies, first.config.skip_original),
    timing: {
      total_seconds: pyRound(wall, 2),
      purple_agent_seconds: pyRound(purple, 2),
      green_agent_seconds: pyRound(green, 2),
      avg_seconds_per_task: sums.total_tasks === 0 ? 0 : pyRound(wall / sums.total_tasks, 2),
      purple_agent_percent: purple + green === 0 ? 0 : pyRound((100 * purple) / (purple + green), 1),
    },
    status: ordered.every((shard) => shard.raw.status === "completed") ? "completed" : ordered.some((shard) => shard.raw.status === "canceled") ? "canceled" : "interrupted",
    run: { ...base.run, shard_index: 0, num_shards: 1, selection: { ...base.run.selection, in_this_shard: sums.total_tasks } },
    aggregates: settings.multi ? { ...sums, tasks: taskTrials, ...(settings.paired ? { kinds } : {}) } : sums,
    judge: { ...base.judge, verdicts: sumCounts(ordered.map((shard) => shard.raw.judge.verdicts)) as ResultsObject["judge"]["verdicts"], usage: null },
    terminations: sumCounts(ordered.map((shard) => shard.raw.terminations)),
    // Older shards have no `chance_floor`; one without a floor leaves the run's floor unknown, and says why.
    chance_floor:
      sums.floor_passed === null
        ? { strategy: null, remap_ids: null, answers: null, reason: "a shard of the run records no chance floor (its log was written before the floor was measured)" }
        : base.chance_floor,
    ...rankingOfShards(ordered.map((shard) => shard.raw)),
    ...trialBlocks(settings, taskTrials, kinds, first.config.seed),
    ...(base.interactive ? { interactive: mergedInteractive(ordered.map((shard) => shard.raw.interactive)) } : {}),
  };
}

/** The merged run's ranking keys; none when a shard was written before results had them. */
function rankingOfShards(shards: readonly unknown[]): Partial<Ranking> {
  const rankings = shards.map((shard) => RankingSchema.safeParse(shard));
  return rankings.every((ranking) => ranking.success) ? mergedRanking(rankings.map((ranking) => ranking.data!)) : {};
}

/** Interactive blocks of the shards, added up. */
function mergedInteractive(blocks: readonly (ResultsObject["interactive"] | undefined)[]) {
  const present = blocks.filter((block): block is NonNullable<ResultsObject["interactive"]> => block !== undefined);
  return interactiveBlock({
    labels: present.flatMap((block) => block.user_simulators),
    episodes: present.reduce((sum, block) => sum + block.episodes, 0),
    userTurns: present.reduce((sum, block) => sum + block.user_turns, 0),
    failures: present.reduce((sum, block) => sum + block.user_failures, 0),
  });
}

function sumCounts(counts: readonly Record<string, number>[]): Record<string, number> {
  const total: Record<string, number> = {};
  for (const count of counts) for (const [key, value] of Object.entries(count)) total[key] = (total[key] ?? 0) + value;
  return total;
}

type Entry = z.infer<typeof ShardSchema>["results"][number];

const tallyOf = (entry: Entry): Tally => ({
  category: entry.task_category,
  metric: entry.dataset_reference.reward_metric,
  scored: "original" in entry,
  passed: entry.success,
  // Results written before the benchmark had its own verdict: CRMArena-Pro's was the success.
  passedOriginally: entry.original?.passed ?? entry.success,
  score: entry.total_score,
  floorPassed: entry.floor_passed ?? null,
});
