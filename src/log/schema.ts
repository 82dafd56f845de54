import { z } from "zod";
import { datasetKinds } from "../datasets/index.js";
import { EntropyPlanSchema } from "../entropy/index.js";
import { ActionSchema } from "../protocol/index.js";
import { RewardMetricSchema } from "../tasks/index.js";

/**
 * The assessment log: the one record of a run from which the results object, the summary text,
 * `rescore` and every report are built. It is written as a journal (JSON Lines: a header, one
 * line per finished episode, a footer) and read back through these schemas, so a change of
 * layout is a change of `LOG_VERSION` and the golden fixtures in tests/fixtures/logs/.
 *
 * Version 2 has one casing, camelCase, for every key the log itself names; two values keep the
 * keys of their owners: the run spec's `config` (the public config names, snake_case) and the
 * entropy plan (the planner's own versioned value). Version 1 logs (a snake_case header and
 * footer) are migrated on read (src/log/v1.ts).
 */
export const LOG_VERSION = 2;

/**
 * The name of an entropic dimension (each 0-100, higher is better). Which dimensions exist is the
 * scoring registry's business (src/scoring/dimensions/), not the log's: the log keys its scores
 * and weights by name, so a dimension added later is no new log version, and a log naming one
 * this build does not know still reads (docs/scoring.md says what each view does with it).
 */
export const DimensionSchema = z.string().regex(/^[A-Z][A-Z0-9_]*$/, { error: (issue) => `a dimension name is UPPER_SNAKE_CASE (got ${JSON.stringify(issue.input)})` });
export type Dimension = z.infer<typeof DimensionSchema>;

/** Why an episode ended (tau2-bench style: every ending has a typed reason). */
/** `user_error`: interactive mode's simulated user failed (its model unreachable or silent): the simulator's fault, counted apart from the purple's. */
export const TerminationSchema = z.enum(["answered", "max_steps", "timeout", "purple_error", "protocol_error", "canceled", "user_error"]);
export type Termination = z.infer<typeof TerminationSchema>;

/** Token usage a purple agent reported about its own model calls: information only, never scored. */
export const ReportedUsageSchema = z.object({ inputTokens: z.number().nonnegative(), outputTokens: z.number().nonnegative() });
export type ReportedUsage = z.infer<typeof ReportedUsageSchema>;

/** What the org answered to one tool call. */
export const ObservationSchema = z.object({
  ok: z.boolean(),
  code: z.string().optional(),
  message: z.string().optional(),
  rowCount: z.number().int().optional(),
  truncated: z.boolean().optional(),
  /** The text the purple agent was shown (cut in memory, whole in the journal). */
  text: z.string(),
});
export type ObservationRecord = z.infer<typeof ObservationSchema>;

/** Size of a message in characters and tokens; `estimated` when it was too large to count exactly. */
export const MessageSizeSchema = z.object({
  chars: z.number().int().nonnegative(),
  tokens: z.number().int().nonnegative(),
  estimated: z.boolean().optional(),
});

/** One turn of interactive mode's simulated user, as the log keeps it. */
export const UserTurnSchema = z.object({
  /** What the user said to the agent (without the stop marker). */
  text: z.string(),
  /** The user is done: its goal is met, or the agent said it cannot be. */
  stop: z.boolean(),
  /** The model's prompt for this turn (the last message it was given); absent for the scripted user. */
  prompt: z.string().optional(),
  usage: z.object({ inputTokens: z.number().int().nonnegative(), outputTokens: z.number().int().nonnegative() }).optional(),
});
export type UserTurn = z.infer<typeof UserTurnSchema>;

/** One purple turn: what we sent, what came back, what it meant and what it cost. */
export const StepSchema = z.object({
  turn: z.number().int().positive(),
  sent: MessageSizeSchema,
  /** `bytes`: the HTTP reply bodies of the turn as received (its message/send and any tasks/get polls). */
  received: MessageSizeSchema.extend({ bytes: z.number().int().nonnegative() }),
  replyText: z.string(),
  replyData: z.array(z.record(z.string(), z.unknown())),
  action: ActionSchema,
  observation: ObservationSchema.optional(),
  usage: ReportedUsageSchema.optional(),
  /** Protocol oddities worth knowing that did not end the episode (a changed contextId, ...). */
  warnings: z.array(z.string()).optional(),
  /** Interactive mode: what the simulated user replied to this turn's respond. */
  user: UserTurnSchema.optional(),
  /**
   * This turn's reply reached the user, every part of it (the text parts and the data parts
   * beside the parsed action): the final answer, or in interactive mode a respond the user
   * heard. The privacy verdict reads what the user was shown. Absent in logs written before it
   * was recorded (an answer step reached the user there too).
   */
  toUser: z.literal(true).optional(),
  /**
   * The channel the step came by: `mcp` for a tool call over the episode's MCP endpoint (its
   * `replyText` is the call as JSON, its `sent` the observation it was answered with, its
   * `purpleMs` 0); absent for a step of an A2A reply, the only kind before MCP was offered.
   */
  channel: z.enum(["message", "mcp"]).optional(),
  purpleMs: z.number().nonnegative(),
  greenMs: z.number().nonnegative(),
});
export type TrajectoryStep = z.infer<typeof StepSchema>;

/** Whether a record Id named in an answer is a live record of the org, a rot distractor, or absent. */
export const IdStatusSchema = z.enum(["live", "distractor", "absent"]);
export type IdStatus = z.infer<typeof IdStatusSchema>;

/** What drift and rot did to one episode. */
export const EpisodeEntropySchema = z.object({
  /** Field names rewritten to their drifted names in the task's text. */
  renamedInText: z.array(z.string()),
  /** Titles of the passages rot added to the task's context. */
  passages: z.array(z.string()),
  /** Fields this task's category needs (from the calibration) that drift renamed: `Object.Field`. */
  driftExposure: z.array(z.string()),
  /** Distractor records that appeared in the episode's observations. */
  distractorIdsSeen: z.array(z.string()),
});

/** The single record of an episode: scoring reads only this, reports only print it. */
export const TrajectorySchema = z.object({
  taskIdx: z.number().int().nonnegative(),
  category: z.string(),
  startedAt: z.string(),
  firstMessageTokens: z.number().int().nonnegative(),
  steps: z.array(StepSchema),
  entropy: EpisodeEntropySchema,
  /** Every record Id the final answer names, in order, with what the org knows of it. */
  answerIds: z.array(z.object({ id: z.string(), status: IdStatusSchema })),
  termination: TerminationSchema,
  error: z.string().optional(),
  answer: z.string().optional(),
  totalMs: z.number().nonnegative(),
  purpleMs: z.number().nonnegative(),
  greenMs: z.number().nonnegative(),
  /** Interactive mode: the simulated user (its label), its opening message and how many times it replied. */
  user: z.object({ label: z.string(), opening: UserTurnSchema, replies: z.number().int().nonnegative() }).optional(),
  /** The A2A protocol version the episode's turns were sent in; absent in logs written before the green spoke more than 0.3. */
  a2aVersion: z.enum(["0.3", "1.0"]).optional(),
  /**
   * The purple's words this journal line keeps cut (its answer, reply texts and data, actions
   * past the episode's JOURNAL_REPLY_CHARS): how many texts, the characters cut, the limit. Scoring
   * read them whole; each cut text ends with its marker `… (+N chars)`.
   */
  journalCut: z.object({ texts: z.number().int().positive(), chars: z.number().int().nonnegative(), limitChars: z.number().int().nonnegative() }).optional(),
});
export type Trajectory = z.infer<typeof TrajectorySchema>;

/** Where a verdict came from: a model call, the judgement cache, or the deterministic heuristic. */
export const VerdictSourceSchema = z.enum(["llm", "cache", "heuristic"]);
export type VerdictSource = z.infer<typeof VerdictSourceSchema>;

/** How an original score was reached, with the judge's evidence when one was asked. */
export const JudgeRecordSchema = z.object({
  method: z.enum(["fast_path", "extraction", "token_f1", "refusal", "no_answer"]),
  /** `none` when no judgement was needed (fast path, token F1, no answer). */
  source: z.union([VerdictSourceSchema, z.literal("none")]),
  model: z.string().nullable(),
  rawOutput: z.string().nullable(),
  fallback: z.string().optional(),
});
export type JudgeRecord = z.infer<typeof JudgeRecordSchema>;

/** The CRMArena-Pro score of one answer. */
export const OriginalScoreSchema = z.object({
  reward: z.number().min(0).max(1),
  passed: z.boolean(),
  parsedAnswer: z.array(z.string()),
  judge: JudgeRecordSchema,
});
export type OriginalScore = z.infer<typeof OriginalScoreSchema>;

/** Signals measured from a trajectory; the dimensions are functions of these (and the calibration) only. */
export const SignalsSchema = z.object({
  turns: z.number().int(),
  queries: z.number().int(),
  failedQueries: z.number().int(),
  toolCalls: z.number().int(),
  invalidActions: z.number().int(),
  errors: z.number().int(),
  errorsRecovered: z.number().int(),
  /** Tokens of the transcript (every message sent and received), counted by the green. */
  tokens: z.number().int(),
  /** Tokens the purple said it used, when it reported every turn; information only. */
  reportedTokens: z.number().nullable(),
  answerIds: z.number().int(),
  answerIdsLive: z.number().int(),
  answerIdsDistractor: z.number().int(),
  answerIdsAbsent: z.number().int(),
});
export type EpisodeSignals = z.infer<typeof SignalsSchema>;

/** A dimension's value per episode: null where it does not apply (the reason is in `notApplicable`). */
export const DimensionScoresSchema = z.record(DimensionSchema, z.number().min(0).max(100).nullable());
export type DimensionScores = z.infer<typeof DimensionScoresSchema>;

/** The optimum an episode was measured against (from the calibration). */
export const OptimumSchema = z.object({
  turns: z.number().int(),
  queries: z.number().int(),
  tokens: z.number().int(),
  /** Tokens allowed for one look around beyond the plan (a describe_schema); absent in older logs: none. */
  lookAroundTokens: z.number().int().optional(),
});
export type Optimum = z.infer<typeof OptimumSchema>;

/**
 * The benchmark's own verdict, which `success`, the pass rate and the dimensions use. It fixes
 * blind spots of CRMArena-Pro's judges (Ids in other valid forms, None answers naming an entity,
 * hedged lists, paraphrases, refusals that leak); `original` stays CRMArena-Pro's verdict.
 */
export const SuccessScoreSchema = z.object({
  passed: z.boolean(),
  reward: z.number().min(0).max(1),
  method: z.string(),
  /** Why the verdict differs from `original.passed`, when it does. */
  reason: z.string().nullable(),
});
export type SuccessScore = z.infer<typeof SuccessScoreSchema>;

/** Everything scoring says about one episode. */
export const EpisodeScoreSchema = z.object({
  original: OriginalScoreSchema,
  /** Absent in logs written before the benchmark had its own verdict: `original` decides there. */
  success: SuccessScoreSchema.optional(),
  signals: SignalsSchema,
  optimum: OptimumSchema,
  dimensions: DimensionScoresSchema,
  notApplicable: z.record(DimensionSchema, z.string()),
  totalScore: z.number().min(0).max(100),
});
export type EpisodeScore = z.infer<typeof EpisodeScoreSchema>;

/** How CRMArena-Pro scores a task (the task file's own enum, defined once in tasks/). */
export { type RewardMetric, RewardMetricSchema } from "../tasks/index.js";

/** The task an episode ran, with its ground truth, so the log is read without the task file. */
export const EpisodeTaskSchema = z.object({
  idx: z.number().int().nonnegative(),
  category: z.string(),
  query: z.string(),
  rewardMetric: RewardMetricSchema,
  /** The ground truth the episode is scored against: with its Ids remapped when the run remaps them. */
  answer: z.array(z.string().nullable()),
  /** The task's required context as the purple saw it (an Id echoed from it is no leak). */
  requiredContext: z.string().optional(),
});
export type EpisodeTask = z.infer<typeof EpisodeTaskSchema>;

/** The org view an episode of a paired run ran in. */
export const EpisodeConditionSchema = z.enum(["perturbed", "clean"]);
export type EpisodeCondition = z.infer<typeof EpisodeConditionSchema>;

/** One finished episode: its trajectory and its scores, or why it has none. */
export const EpisodeRecordSchema = z.object({
  kind: z.literal("episode"),
  /** 1-based place of the task in this shard's selection. */
  position: z.number().int().positive(),
  task: EpisodeTaskSchema,
  trajectory: TrajectorySchema,
  score: EpisodeScoreSchema.nullable(),
  /** Why `score` is null: the purple broke off the episode, or scoring itself failed. */
  unscored: z.string().optional(),
  /** Which of the task's trials (1-based), in a run with config `trials` above 1 or `paired`; absent: the only one. */
  trial: z.number().int().positive().optional(),
  /** The view of the org it ran in, in a `paired` run: the run's perturbed one, or the clean one (drift and rot none). */
  condition: EpisodeConditionSchema.optional(),
  /** The perturbation kinds that touched the episode (its text, a field it needs, a distractor it saw), in a `paired` run's perturbed episodes. */
  touchedBy: z.array(z.string()).optional(),
});
export type EpisodeRecord = z.infer<typeof EpisodeRecordSchema>;

/** The weight of each dimension in `total_score`, as the run used them. */
export const WeightsSchema = z.record(DimensionSchema, z.number().min(0));
export type Weights = z.infer<typeof WeightsSchema>;

/**
 * Which data a file is: a registered dataset (src/datasets/: the real CRMArena-Pro B2B data, the
 * bundled sample, ...) or custom. The built-in names stay registered, so old logs stay readable.
 */
export const DatasetKindSchema = z.string().refine((kind) => datasetKinds().includes(kind), {
  error: (issue) => `unknown dataset ${JSON.stringify(issue.input)}; the datasets are ${datasetKinds().join(", ")}`,
});
export type DatasetKind = z.infer<typeof DatasetKindSchema>;

/**
 * What a built task set was built from (the twins: src/data/twins.ts): the source task file with
 * the SHA-256 of its content, the digest of the twin key (never the key, nor the seed: with the
 * seed and the public builder a purple would rebuild the set), the builder's version, how many
 * twins each task has (one per trial), and the source tasks no twin could be made for (reported,
 * never hidden; `trial` when a later trial's twin is missing). Logs written before twins were
 * keyed have `seed` instead of `key`.
 */
export const BuiltFromSchema = z.object({
  source: z.object({ path: z.string(), sha256: z.string().regex(/^[0-9a-f]{64}$/) }),
  key: z.string().optional(),
  seed: z.number().int().optional(),
  version: z.number().int(),
  trials: z.number().int().min(1).optional(),
  missing: z.array(z.object({ idx: z.number().int(), category: z.string(), trial: z.number().int().min(2).optional() })),
});
export type BuiltFrom = z.infer<typeof BuiltFromSchema>;

/** Where a task file or org came from; `builtFrom` when it was built at run time (the twins). */
export const DataSourceSchema = z.object({ path: z.string(), kind: DatasetKindSchema, builtFrom: BuiltFromSchema.optional() });
export type DataSource = z.infer<typeof DataSourceSchema>;

export const IdRemapRecordSchema = z.object({ digest: z.string(), keyed: z.boolean() });
export type IdRemapRecord = z.infer<typeof IdRemapRecordSchema>;

/**
 * The zero-work strategy a run's chance floor is measured with (src/scoring/floor.ts): per
 * category, the answer a purple that never queries would give, read from the task set alone.
 */
export const ChanceFloorPlanSchema = z.object({
  /** What the strategy is, in words, for a reader of the results. */
  strategy: z.string(),
  /** Were the record Ids fresh in the run (then no answer naming an Id can be known without work)? */
  remapIds: z.boolean(),
  /** Per category: its metric and the zero-work answer (a list of values, or a refusal). */
  answers: z.record(z.string(), z.object({ metric: RewardMetricSchema, answer: z.union([z.array(z.string()), z.literal("refusal")]) })),
});
export type ChanceFloorPlan = z.infer<typeof ChanceFloorPlanSchema>;

/** How the tasks of a run were chosen (src/assessment/select.ts). */
export const SelectionModeSchema = z.enum(["task_ids", "task_categories", "task_limit", "all"]);
export type SelectionMode = z.infer<typeof SelectionModeSchema>;

/** The version of the run spec's layout; a change of its fields is a change of this number. */
export const RUN_SPEC_VERSION = 1;

/**
 * What was asked for: the run spec built once at the edge (an A2A request, or the command line)
 * and passed whole to the runner. `config` keeps the user's config keys as they are (they are
 * the public config names); the runner validates it with the config schema before it is logged.
 */
export const RunSpecRecordSchema = z.object({
  specVersion: z.literal(RUN_SPEC_VERSION),
  runId: z.string().min(1),
  participantUrl: z.string(),
  /** The resolved assessment config, as JSON. */
  config: z.record(z.string(), z.unknown()),
  /** Keys of the request's config this green agent does not know: kept and reported, never silently dropped. */
  ignoredConfigKeys: z.array(z.string()),
});
export type RunSpecRecord = z.infer<typeof RunSpecRecordSchema>;

/** Do the records the tasks name exist in the org? */
export const DataCheckSchema = z.object({
  referencedIds: z.number().int(),
  missingIds: z.number().int(),
  examples: z.array(z.string()),
  allowedMismatch: z.boolean(),
});
export type DataCheck = z.infer<typeof DataCheckSchema>;

/** What a run was: who, with which config, on which data, under which entropy, judged how. */
export const LogHeaderSchema = z.object({
  kind: z.literal("header"),
  logVersion: z.literal(LOG_VERSION),
  spec: RunSpecRecordSchema,
  createdAt: z.string(),
  greenAgent: z.object({ name: z.string(), versions: z.record(z.string(), z.string()) }),
  weights: WeightsSchema,
  selection: z.object({
    mode: SelectionModeSchema,
    /** Tasks selected across all shards. */
    size: z.number().int().nonnegative(),
    shardIndex: z.number().int().nonnegative(),
    numShards: z.number().int().positive(),
    /** This shard's tasks, in evaluation order. */
    taskIdxs: z.array(z.number().int().nonnegative()),
  }),
  data: z.object({ dataset: DatasetKindSchema, tasks: DataSourceSchema, org: DataSourceSchema, check: DataCheckSchema }),
  /**
   * The entropy plan (what drift and rot changed, where, why): a pure value of (seed, levels, org,
   * tasks). It is the entropy planner's own versioned value (its `version`), kept as it plans it.
   */
  entropy: EntropyPlanSchema,
  /** A `paired` run's clean view: the plan at drift and rot none (the same seed), which its clean episodes ran in. */
  cleanEntropy: EntropyPlanSchema.optional(),
  judge: z.object({ mode: z.enum(["llm", "heuristic"]), primaryModel: z.string().nullable(), cheapModel: z.string().nullable() }),
  calibration: z.object({ source: z.string(), digest: z.string() }),
  /**
   * The sandbox refresh: every record Id the purple saw and every ground truth went through this
   * bijection (`digest` names it without giving the key away; `keyed`: the operator's secret was
   * part of the key). Null: the dataset's own Ids.
   */
  idRemap: IdRemapRecordSchema.nullable(),
  /** The chance floor's strategy (null in logs written before it: the results' floor is null). */
  chanceFloor: ChanceFloorPlanSchema.nullable(),
});
export type LogHeader = z.infer<typeof LogHeaderSchema>;

export const JudgeUsageSchema = z.object({ calls: z.number().int(), failures: z.number().int(), inputTokens: z.number(), outputTokens: z.number() });

/** How a run ended. `interrupted` runs (shutdown, crash) can be resumed from the journal. */
export const LogFooterSchema = z.object({
  kind: z.literal("footer"),
  finishedAt: z.string(),
  wallMs: z.number().nonnegative(),
  status: z.enum(["completed", "canceled", "interrupted"]),
  judgeUsage: z.record(z.string(), JudgeUsageSchema).nullable(),
});
export type LogFooter = z.infer<typeof LogFooterSchema>;

export const LogLineSchema = z.discriminatedUnion("kind", [LogHeaderSchema, EpisodeRecordSchema, LogFooterSchema]);
export type LogLine = z.infer<typeof LogLineSchema>;

/** A whole assessment log in memory. */
export interface AssessmentLog {
  readonly header: LogHeader;
  readonly episodes: readonly EpisodeRecord[];
  readonly footer: LogFooter;
}
