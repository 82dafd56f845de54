import { z } from "zod";
import { EntropyPlanSchema } from "../entropy/index.js";
import {
  DataSourceSchema,
  DatasetKindSchema,
  IdRemapRecordSchema,
  LOG_VERSION,
  type LogFooter,
  type LogHeader,
  RewardMetricSchema,
  RUN_SPEC_VERSION,
  SelectionModeSchema,
  WeightsSchema,
} from "./schema.js";

/**
 * The header and footer of a version-1 log, as they were written (snake_case), read only to
 * migrate them to the current layout: old runs still rescore, report and show. Episode lines
 * did not change between the versions. Frozen: never edit these to follow the current layout.
 */
export const V1HeaderSchema = z.object({
  kind: z.literal("header"),
  log_version: z.literal(1),
  run_id: z.string().min(1),
  created_at: z.string(),
  green_agent: z.object({ name: z.string(), versions: z.record(z.string(), z.string()) }),
  participant_url: z.string(),
  config: z.record(z.string(), z.unknown()),
  ignored_config_keys: z.array(z.string()),
  weights: WeightsSchema,
  selection: z.object({
    mode: SelectionModeSchema,
    size: z.number().int().nonnegative(),
    shard_index: z.number().int().nonnegative(),
    num_shards: z.number().int().positive(),
    task_idxs: z.array(z.number().int().nonnegative()),
  }),
  data: z.object({
    dataset: DatasetKindSchema,
    tasks: DataSourceSchema,
    org: DataSourceSchema,
    check: z.object({ referenced_ids: z.number().int(), missing_ids: z.number().int(), examples: z.array(z.string()), allowed_mismatch: z.boolean() }),
  }),
  entropy: EntropyPlanSchema,
  judge: z.object({ mode: z.enum(["llm", "heuristic"]), primary_model: z.string().nullable(), cheap_model: z.string().nullable() }),
  calibration: z.object({ source: z.string(), digest: z.string() }),
  id_remap: IdRemapRecordSchema.nullable().optional(),
  chance_floor: z
    .object({
      strategy: z.string(),
      remap_ids: z.boolean(),
      answers: z.record(z.string(), z.object({ metric: RewardMetricSchema, answer: z.union([z.array(z.string()), z.literal("refusal")]) })),
    })
    .optional(),
});
export type V1Header = z.infer<typeof V1HeaderSchema>;

export const V1FooterSchema = z.object({
  kind: z.literal("footer"),
  finished_at: z.string(),
  wall_ms: z.number().nonnegative(),
  status: z.enum(["completed", "canceled", "interrupted"]),
  judge_usage: z.record(z.string(), z.object({ calls: z.number().int(), failures: z.number().int(), input_tokens: z.number(), output_tokens: z.number() })).nullable(),
});
export type V1Footer = z.infer<typeof V1FooterSchema>;

/** A version-1 header in the current layout: every value kept, only the keys renamed (and absent optional parts null). */
export function migrateV1Header(v1: V1Header): LogHeader {
  const floor = v1.chance_floor;
  return {
    kind: "header",
    logVersion: LOG_VERSION,
    spec: { specVersion: RUN_SPEC_VERSION, runId: v1.run_id, participantUrl: v1.participant_url, config: v1.config, ignoredConfigKeys: v1.ignored_config_keys },
    createdAt: v1.created_at,
    greenAgent: v1.green_agent,
    weights: v1.weights,
    selection: {
      mode: v1.selection.mode,
      size: v1.selection.size,
      shardIndex: v1.selection.shard_index,
      numShards: v1.selection.num_shards,
      taskIdxs: v1.selection.task_idxs,
    },
    data: {
      dataset: v1.data.dataset,
      tasks: v1.data.tasks,
      org: v1.data.org,
      check: {
        referencedIds: v1.data.check.referenced_ids,
        missingIds: v1.data.check.missing_ids,
        examples: v1.data.check.examples,
        allowedMismatch: v1.data.check.allowed_mismatch,
      },
    },
    entropy: v1.entropy,
    judge: { mode: v1.judge.mode, primaryModel: v1.judge.primary_model, cheapModel: v1.judge.cheap_model },
    calibration: v1.calibration,
    idRemap: v1.id_remap ?? null,
    chanceFloor: floor ? { strategy: floor.strategy, remapIds: floor.remap_ids, answers: floor.answers } : null,
  };
}

export function migrateV1Footer(v1: V1Footer): LogFooter {
  return {
    kind: "footer",
    finishedAt: v1.finished_at,
    wallMs: v1.wall_ms,
    status: v1.status,
    judgeUsage:
      v1.judge_usage === null
        ? null
        : Object.fromEntries(
            Object.entries(v1.judge_usage).map(([role, usage]) => [
              role,
              { calls: usage.calls, failures: usage.failures, inputTokens: usage.input_tokens, outputTokens: usage.output_tokens },
            ]),
          ),
  };
}
