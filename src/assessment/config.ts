import { z } from "zod";
import { LEVELS, perturbationKinds } from "../entropy/index.js";
import type { Weights } from "../log/index.js";
import { FIRST_MESSAGE_FORMATS } from "../protocol/index.js";
import { defaultWeights, dimensionNames } from "../scoring/index.js";
import { modeNamed, modeNames } from "../users/index.js";
import { EntropicError, type ErrorDetails, parseOrThrow } from "../util/index.js";

export { LEVELS, type Level } from "../entropy/index.js";

/** How an episode talks to the purple: the request at once, or from a simulated user over turns. */
/** A mode that is none of the registered ones (src/users/modes.ts). */
const modeError = (input: unknown) => `mode must be one of ${modeNames().join(", ")} (got ${JSON.stringify(input)})`;

/** Who plays the user in interactive mode. */
export const USER_SIMULATORS = ["auto", "scripted", "llm"] as const;

const level = (field: string) => z.enum(LEVELS, { error: (issue) => `${field} must be one of ${LEVELS.join("|")} (got ${JSON.stringify(issue.input)})` });

const integer = (field: string, min: number, max = Number.MAX_SAFE_INTEGER) =>
  z
    .number({ error: (issue) => `${field} must be a whole number (got ${JSON.stringify(issue.input)})` })
    .int({ error: (issue) => `${field} must be a whole number (got ${JSON.stringify(issue.input)})` })
    .min(min, { error: (issue) => `${field} must be at least ${min} (got ${JSON.stringify(issue.input)})` })
    .max(max, { error: (issue) => `${field} must be at most ${max} (got ${JSON.stringify(issue.input)})` });

/**
 * The bounds of a config, checked before any work on it (docs/protocol.md, "Limits"): every list
 * is read item by item and every key is looked up, so their lengths are capped where the config
 * is read, and each refusal names the field and its limit.
 */
export const CONFIG_LIMITS = {
  /** Keys in a config (the schema has about 30; the rest would be unknown keys). */
  entries: 64,
  /** Task indices in `task_ids` (the full CRMArena-Pro B2B task set has 2,140 tasks). */
  taskIds: 10_000,
  /** Names in `task_categories`. */
  taskCategories: 64,
  /** Names in `perturbations`. */
  perturbations: 64,
  /** Unknown keys named (with the key each likely meant) in a refusal; the rest are counted. */
  unknownKeysNamed: 5,
  /**
   * Episodes of one request: its tasks × `trials` × its conditions (2 when `paired`). With `turns`,
   * what keeps the largest request allowed within the image's 384 MB heap (npm run bench: its `largest` part):
   * each episode costs about 4 KB of heap until the results are sent, each of its turns 4 KB more.
   */
  episodes: 10_000,
  /**
   * Turns one request may take at most: its episodes × `max_steps` (× 11 in interactive mode, a
   * budget after each of the user's messages). A run holds each finished episode's turns, cut, until
   * its results are built and sent: the largest request allowed stays within the image's 384 MB heap
   * (npm run bench: its `largest` part).
   */
  turns: 50_000,
} as const;

/** `task_ids` as a list of numbers or digit strings, or one comma-separated string ("0,100,880"). */
const taskIds = z
  .union([z.array(z.union([z.number(), z.string()])), z.string()], {
    error: (issue) => `task_ids must be a list of task indices such as [0, 100, 880] (got ${JSON.stringify(issue.input)})`,
  })
  .transform((value, ctx) => {
    const items =
      typeof value === "string"
        ? value
            .split(",")
            .map((item) => item.trim())
            .filter(Boolean)
        : value;
    if (items.length > CONFIG_LIMITS.taskIds) {
      ctx.addIssue({ code: "custom", message: `task_ids holds ${items.length} entries; at most ${CONFIG_LIMITS.taskIds} are accepted` });
      return z.NEVER;
    }
    const ids: number[] = [];
    const seen = new Set<number>();
    for (const item of items) {
      const id = typeof item === "number" ? item : /^\d+$/.test(item.trim()) ? Number(item.trim()) : Number.NaN;
      if (!Number.isSafeInteger(id) || id < 0) {
        ctx.addIssue({ code: "custom", message: `task_ids must hold whole numbers >= 0 (got ${JSON.stringify(item)})` });
        return z.NEVER;
      }
      // A repeated index would run the same task again; `trials` says that, and counts it.
      if (seen.has(id)) {
        ctx.addIssue({ code: "custom", message: `task_ids holds ${id} more than once; each task is listed once (set trials to run a task several times)` });
        return z.NEVER;
      }
      seen.add(id);
      ids.push(id);
    }
    if (ids.length === 0) {
      ctx.addIssue({ code: "custom", message: "task_ids must not be empty" });
      return z.NEVER;
    }
    return ids;
  });

const taskCategories = z
  .union([z.array(z.string()), z.string()], {
    error: (issue) => `task_categories must be a list of category names (got ${JSON.stringify(issue.input)})`,
  })
  .transform((value, ctx) => {
    const items = (typeof value === "string" ? value.split(",") : value).map((item) => item.trim()).filter(Boolean);
    if (items.length > CONFIG_LIMITS.taskCategories) {
      ctx.addIssue({ code: "custom", message: `task_categories holds ${items.length} entries; at most ${CONFIG_LIMITS.taskCategories} are accepted` });
      return z.NEVER;
    }
    return items;
  });

const bool = (field: string) => z.boolean({ error: (issue) => `${field} must be true or false (got ${JSON.stringify(issue.input)})` });

/** The registered dimensions' weights in total_score: each key once, non-negative numbers summing to 1. */
const weights = z
  .record(z.string(), z.unknown(), { error: (issue) => `weights must be an object of the dimensions' weights (got ${JSON.stringify(issue.input)})` })
  .transform((raw, ctx) => {
    const DIMENSIONS = dimensionNames();
    const problems: string[] = [];
    const unknown = Object.keys(raw).filter((key) => !DIMENSIONS.includes(key));
    if (unknown.length > 0) problems.push(`unknown ${unknown.join(", ")}`);
    const missing = DIMENSIONS.filter((dimension) => !(dimension in raw));
    if (missing.length > 0) problems.push(`missing ${missing.join(", ")}`);
    for (const [key, value] of Object.entries(raw)) {
      if (typeof value !== "number" || !Number.isFinite(value) || value < 0) problems.push(`${key} must be a number >= 0 (got ${JSON.stringify(value)})`);
    }
    if (problems.length === 0) {
      const sum = DIMENSIONS.reduce((total, dimension) => total + (raw[dimension] as number), 0);
      // The registry's defaults stand as they are: a registered dimension adds its default weight to
      // the built-in ones' 1 (total_score is a weighted mean, so only the ratios matter). A config
      // written out whole (a run spec, a resumed run's) carries them, and must read back.
      const defaults = defaultWeights();
      const isDefault = DIMENSIONS.every((dimension) => raw[dimension] === defaults[dimension]);
      if (Math.abs(sum - 1) > 1e-6 && !isDefault) problems.push(`they must sum to 1 (got ${sum})`);
    }
    if (problems.length > 0) {
      ctx.addIssue({ code: "custom", message: `weights: ${problems.join("; ")}; the dimensions are ${DIMENSIONS.join(", ")}` });
      return z.NEVER;
    }
    return Object.fromEntries(DIMENSIONS.map((dimension) => [dimension, raw[dimension] as number])) as Weights;
  });

/**
 * How a config key is offered on the command line (`assess`): its flag is the key's name in
 * kebab case (`task_limit` -> `--task-limit <n>`), its parser follows from the key's schema (a
 * whole number, a number, else the text the schema reads). A `switch` sets the key to true
 * (`--skip-original`); a `negated` switch sets it to false (`--no-remap-ids`). A key without one
 * is set in a --config file only.
 */
export type ConfigFlag =
  | { readonly kind: "value"; readonly placeholder: string; readonly description: string }
  | { readonly kind: "switch" | "negated"; readonly description: string };

/** Each config key's command-line flag, registered beside its schema below. */
export const configFlags = z.registry<ConfigFlag>();

const value = (placeholder: string, description: string): ConfigFlag => ({ kind: "value", placeholder, description });

/** Every configuration key an assessment understands; all optional. */
export const AssessmentConfigSchema = z
  .object({
    task_ids: taskIds.optional().register(configFlags, value("<ids>", "comma-separated task indices, e.g. 0,100,880")),
    task_categories: taskCategories.optional().register(configFlags, value("<names>", "comma-separated categories")),
    task_limit: integer("task_limit", 1).optional().register(configFlags, value("<n>", "number of tasks (a seeded CPython-compatible sample)")),
    /** The AgentBeats workflow's cap on the tasks of all shards together. */
    num_instances: integer("num_instances", 1).optional().register(configFlags, value("<n>", "tasks of all shards together (the AgentBeats workflow's cap)")),
    drift_level: level("drift_level")
      .default("none")
      .register(configFlags, value("<level>", LEVELS.join("|"))),
    rot_level: level("rot_level")
      .default("none")
      .register(configFlags, value("<level>", LEVELS.join("|"))),
    max_steps: integer("max_steps", 1, 100).default(10).register(configFlags, value("<n>", "purple turns per task")),
    timeout: z
      .number({ error: (issue) => `timeout must be a number of seconds (got ${JSON.stringify(issue.input)})` })
      .positive({ error: (issue) => `timeout must be more than 0 seconds (got ${JSON.stringify(issue.input)})` })
      .max(3600, { error: (issue) => `timeout must be at most 3600 seconds (got ${JSON.stringify(issue.input)})` })
      .default(300)
      .register(configFlags, value("<seconds>", "seconds per purple call")),
    // Which org type and dataset the request runs on are checked against the dataset registry
    // (src/datasets/) when the data is chosen: refused there with the field, never ignored.
    org_type: z
      .string({ error: (issue) => `org_type must be a string such as "b2b" (got ${JSON.stringify(issue.input)})` })
      .min(1, { error: "org_type must not be empty" })
      .default("b2b")
      .register(configFlags, value("<type>", "the org type, e.g. b2b (a registered dataset of that type)")),
    /** A registered dataset by name; without it, the data the green agent was started with. */
    dataset: z
      .string({ error: (issue) => `dataset must be a dataset name (got ${JSON.stringify(issue.input)})` })
      .min(1, { error: "dataset must not be empty" })
      .optional()
      .register(configFlags, value("<name>", "a registered dataset by name (default: the data the command or server was started with)")),
    seed: integer("seed", 0).default(42).register(configFlags, value("<n>", "assessment seed")),
    concurrency: integer("concurrency", 1, 256).default(4).register(configFlags, value("<n>", "episodes in flight")),
    skip_original: bool("skip_original").default(false).register(configFlags, { kind: "switch", description: "omit the original CRMArena-Pro block" }),
    shard_index: integer("shard_index", 0).default(0).register(configFlags, value("<n>", "this shard (0-based)")),
    num_shards: integer("num_shards", 1, 1000).default(1).register(configFlags, value("<n>", "number of shards")),
    weights: weights.default(defaultWeights),
    perturbations: z
      .array(z.string(), { error: (issue) => `perturbations must be a list of perturbation kind names (got ${JSON.stringify(issue.input)})` })
      .min(1, { error: "perturbations must name at least one kind (leave it out for all)" })
      .max(CONFIG_LIMITS.perturbations, {
        error: (issue) => `perturbations holds ${(issue.input as unknown[]).length} entries; at most ${CONFIG_LIMITS.perturbations} are accepted`,
      })
      .superRefine((names, ctx) => {
        const known = perturbationKinds().map((kind) => kind.name);
        const unknown = names.filter((name) => !known.includes(name));
        if (unknown.length > 0) ctx.addIssue({ code: "custom", message: `perturbations: unknown ${unknown.join(", ")}; the kinds are ${known.join(", ")}` });
      })
      .optional(),
    allow_data_mismatch: bool("allow_data_mismatch")
      .default(false)
      .register(configFlags, { kind: "switch", description: "run even if the tasks name records the org does not have (recorded in the results)" }),
    /**
     * A sandbox refresh: every record Id of the org, the task texts and the ground truths replaced
     * by a seeded bijection (key prefix kept), so an answer file of the public dataset names no
     * record the purple can see. Off only to reproduce CRMArena-Pro's own Ids.
     */
    remap_ids: bool("remap_ids").default(true).register(configFlags, {
      kind: "negated",
      description: "keep the dataset's own record Ids and task indices (config remap_ids: false); by default every run is a sandbox refresh",
    }),
    /**
     * The first message's text: the instructions (default), or the crm_task as JSON text as the
     * Python predecessor sent it, for purples written to parse it with json.loads (docs/protocol.md).
     */
    first_message: z
      .enum(FIRST_MESSAGE_FORMATS, { error: (issue) => `first_message must be one of ${FIRST_MESSAGE_FORMATS.join(", ")} (got ${JSON.stringify(issue.input)})` })
      .default("instructions")
      .register(configFlags, value("<format>", "instructions (default) or json: the crm_task as JSON text, as the Python predecessor sent it")),
    /**
     * Each selected task runs this many times (independent episodes, the same perturbations and
     * Ids): pass^k and an interval in the results. Absent is 1, and the results' layout is as before.
     */
    trials: integer("trials", 1, 100).optional().register(configFlags, value("<k>", "episodes per task (pass^k and a 95% interval in the results; default 1)")),
    /**
     * The episode's org tools also over MCP (absent: offered, when the green serves MCP): the first
     * message gives the endpoint and the episode's token. false offers the tools in-message only.
     */
    mcp: bool("mcp").optional().register(configFlags, { kind: "negated", description: "offer the org's tools in-message only, not also over MCP (config mcp: false)" }),
    /** Each task also runs clean (drift and rot none, the same Ids and seed): robustness as clean versus perturbed. */
    paired: bool("paired").optional().register(configFlags, { kind: "switch", description: "also run each task at drift and rot none, for the robustness ratio" }),
    /**
     * single_turn (absent): the whole request in the first message, as CRMArena-Pro's main
     * setting. interactive: a simulated user holds the request and lets it out over several turns;
     * the purple's respond goes to the user until the user stops (docs/protocol.md).
     */
    mode: z
      .string({ error: (issue) => modeError(issue.input) })
      .refine((name) => modeNamed(name) !== undefined, { error: (issue) => modeError(issue.input) })
      .optional()
      .register(configFlags, value("<mode>", "single_turn (default) or interactive: a simulated user reveals the request over several turns")),
    /** Interactive mode's user: a model (the cheap LLM provider) when one is configured, else the deterministic scripted user (absent: auto); or either by name. */
    user_simulator: z
      .enum(USER_SIMULATORS, { error: (issue) => `user_simulator must be one of ${USER_SIMULATORS.join(", ")} (got ${JSON.stringify(issue.input)})` })
      .optional()
      .register(configFlags, value("<kind>", "interactive mode's user: auto (a model when LLM_* keys are set, else scripted), llm or scripted")),
    /** The simulated user's model (default: the cheap provider's, LLM_CHEAP_MODEL). */
    user_model: z
      .string({ error: (issue) => `user_model must be a model name (got ${JSON.stringify(issue.input)})` })
      .min(1, { error: "user_model must not be empty" })
      .optional()
      .register(configFlags, value("<model>", "the simulated user's model (default: the cheap LLM provider's)")),
    /**
     * The run's model spend (its simulated user and its judges together): at most this many model
     * calls (absent: DEFAULT_MAX_MODEL_CALLS), and this many characters sent (DEFAULT_MAX_MODEL_CHARS).
     * The call that would pass either stops the run with its partial results, naming the cap. A
     * spend limit, not what the run measures: it is not part of the run's id, and a resend with
     * a larger one continues the run.
     */
    max_model_calls: integer("max_model_calls", 1, 10_000_000)
      .optional()
      .register(configFlags, value("<n>", "model calls the run may make, its simulated user's and judges' together (default 50000)")),
    max_model_chars: integer("max_model_chars", 1, 10_000_000_000)
      .optional()
      .register(configFlags, value("<n>", "characters the run may send to models, its simulated user's and judges' together (default 200000000)")),
    run_id: z
      .string({ error: (issue) => `run_id must be a string (got ${JSON.stringify(issue.input)})` })
      .regex(/^[A-Za-z0-9][A-Za-z0-9._-]{0,79}$/, { error: (issue) => `run_id must be 1-80 letters, digits, '.', '_' or '-' (got ${JSON.stringify(issue.input)})` })
      .optional()
      .register(configFlags, value("<id>", "name the run (default: derived from the purple, the config and the tasks)")),
    /**
     * Run even if the config has keys this green does not know (they are ignored and listed in the
     * results). Without it a config with an unknown key is refused, on the command line and over
     * A2A alike: a typo (`task_limt`) would otherwise run the whole task set.
     */
    allow_unknown_config: bool("allow_unknown_config")
      .optional()
      .register(configFlags, { kind: "switch", description: "run even if the config has keys this green agent does not know (they are ignored and listed in the results)" }),
  })
  .refine((config) => config.shard_index < config.num_shards, {
    message: "shard_index must be below num_shards",
    path: ["shard_index"],
  });

export type AssessmentConfig = z.infer<typeof AssessmentConfigSchema>;
export const CONFIG_KEYS = Object.keys(AssessmentConfigSchema.shape) as (keyof AssessmentConfig)[];

/** A config key as the command line offers it: what a flag's text is read as before the config schema checks it. */
export interface ConfigKeyFlag {
  readonly key: keyof AssessmentConfig;
  readonly flag: ConfigFlag;
  /** A number key's flag is read as a number (a whole one for an integer key); any other as its text. */
  readonly reads: "integer" | "number" | "text";
}

/** The keys that have a command-line flag, in the schema's order. */
export function configKeyFlags(): ConfigKeyFlag[] {
  return CONFIG_KEYS.flatMap((key) => {
    const schema = AssessmentConfigSchema.shape[key];
    const flag = configFlags.get(schema);
    return flag ? [{ key, flag, reads: readsOf(schema) }] : [];
  });
}

function readsOf(schema: z.ZodType): ConfigKeyFlag["reads"] {
  let inner: z.ZodType = schema;
  while (inner instanceof z.ZodOptional || inner instanceof z.ZodDefault) inner = inner.unwrap() as z.ZodType;
  if (inner instanceof z.ZodNumber) return inner.isInt ? "integer" : "number";
  return "text";
}

/** Edits (insertions, deletions, substitutions, swaps of neighbours) from one key to another. */
function editDistance(a: string, b: string): number {
  const rows = Array.from({ length: a.length + 1 }, (_, i) => [i, ...Array<number>(b.length).fill(0)]);
  for (let j = 1; j <= b.length; j++) rows[0]![j] = j;
  for (let i = 1; i <= a.length; i++) {
    for (let j = 1; j <= b.length; j++) {
      const row = rows[i]!;
      row[j] = Math.min(rows[i - 1]![j]! + 1, row[j - 1]! + 1, rows[i - 1]![j - 1]! + (a[i - 1] === b[j - 1] ? 0 : 1));
      if (i > 1 && j > 1 && a[i - 1] === b[j - 2] && a[i - 2] === b[j - 1]) row[j] = Math.min(row[j]!, rows[i - 2]![j - 2]! + 1);
    }
  }
  return rows[a.length]![b.length]!;
}

/** The known key an unknown one most likely meant (a typo, another casing or separator), if one is near enough. */
export function nearestConfigKey(key: string): string | undefined {
  const folded = key.toLowerCase().replace(/[-\s]/g, "_");
  let best: { key: string; distance: number } | undefined;
  for (const known of CONFIG_KEYS) {
    const distance = editDistance(folded, known);
    if (!best || distance < best.distance) best = { key: known, distance };
  }
  return best && best.distance <= Math.max(1, Math.floor(key.length / 4)) ? best.key : undefined;
}

/**
 * "unknown config keys: drift_levle (did you mean drift_level?), color": what a reader can act on.
 * The first few keys are named with a suggestion each (an edit distance per known key), the rest
 * counted: a config of thousands of made-up keys costs a handful of suggestions, not thousands.
 */
export function unknownKeysMessage(keys: readonly string[]): string {
  const named = keys.slice(0, CONFIG_LIMITS.unknownKeysNamed).map((key) => {
    // A key too long to be a typo of a known one is shown cut and gets no suggestion.
    if (key.length > 64) return `${key.slice(0, 40)}… (${key.length} characters)`;
    const near = nearestConfigKey(key);
    return near ? `${key} (did you mean ${near}?)` : key;
  });
  const more = keys.length > named.length ? ` and ${keys.length - named.length} more` : "";
  return `unknown config ${keys.length === 1 ? "key" : "keys"}: ${named.join(", ")}${more}`;
}

/** Episodes a request runs: its tasks × `trials` × its conditions (perturbed and clean when `paired`). */
export function episodeCount(config: Pick<AssessmentConfig, "trials" | "paired">, tasks: number): number {
  return tasks * (config.trials ?? 1) * (config.paired ? 2 : 1);
}

/** The most turns an episode of this config may take: `max_steps`, after each user message in interactive mode (ten replies and the opening). */
export function turnsPerEpisode(config: Pick<AssessmentConfig, "max_steps" | "mode">): number {
  return config.max_steps * (config.mode === "interactive" ? 11 : 1);
}

/** Refuses a request of more episodes than CONFIG_LIMITS.episodes, or more turns than CONFIG_LIMITS.turns, with the count and the limit. */
export function checkEpisodeCount(config: Pick<AssessmentConfig, "trials" | "paired" | "max_steps" | "mode">, tasks: number): void {
  const episodes = episodeCount(config, tasks);
  const asked = `${tasks} tasks × ${config.trials ?? 1} trials${config.paired ? " × 2 conditions (paired)" : ""}`;
  if (episodes > CONFIG_LIMITS.episodes)
    throw new ConfigError(
      `the config asks for ${episodes} episodes (${asked}); at most ${CONFIG_LIMITS.episodes} are run per request: select fewer tasks (task_limit, task_categories, task_ids, num_shards) or trials`,
    );
  const turns = episodes * turnsPerEpisode(config);
  if (turns > CONFIG_LIMITS.turns)
    throw new ConfigError(
      `the config allows ${turns} turns (${episodes} episodes (${asked}) × ${turnsPerEpisode(config)} turns each${config.mode === "interactive" ? " (max_steps × 11 in interactive mode)" : " (max_steps)"}); at most ${CONFIG_LIMITS.turns} are allowed per request: lower max_steps, or select fewer tasks or trials (num_shards splits a run)`,
    );
}

/** A config that could not be used, with one message per offending field. */
export class ConfigError extends EntropicError {
  override readonly name = "ConfigError";
  constructor(message: string, details?: ErrorDetails) {
    super("config", message, details);
  }
}

export interface ParsedConfig {
  readonly config: AssessmentConfig;
  /** Keys we do not know; kept and reported, never silently dropped. */
  readonly ignoredKeys: string[];
}

export function parseConfig(raw: unknown): ParsedConfig {
  if (raw === undefined || raw === null) raw = {};
  if (typeof raw !== "object" || Array.isArray(raw)) throw new ConfigError(`config must be a JSON object (got ${JSON.stringify(raw)})`);
  const entries = Object.entries(raw as Record<string, unknown>);
  if (entries.length > CONFIG_LIMITS.entries)
    throw new ConfigError(`config holds ${entries.length} keys; at most ${CONFIG_LIMITS.entries} are accepted (the config keys are ${CONFIG_KEYS.join(", ")})`);
  const known = Object.fromEntries(entries.filter(([key]) => (CONFIG_KEYS as string[]).includes(key)));
  const ignoredKeys = entries.map(([key]) => key).filter((key) => !(CONFIG_KEYS as string[]).includes(key));
  const config = parseOrThrow(
    AssessmentConfigSchema,
    known,
    (_description, _first, issues) => new ConfigError(issues.map((issue) => `config.${issue.path || "(root)"}: ${issue.message.replace(/^weights: /, "")}`).join("; ")),
  );
  return { config, ignoredKeys };
}
