import { readFileSync } from "node:fs";
import { type Command, InvalidArgumentError, Option } from "commander";
import { parse as parseToml } from "smol-toml";

/** A flag parser for whole numbers. */
export const int = (name: string) => (value: string) => {
  if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError(`${name} must be a whole number`);
  return Number(value);
};

/** A flag parser for numbers. */
export const num = (name: string) => (value: string) => {
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new InvalidArgumentError(`${name} must be a number`);
  return parsed;
};

/** `--tasks` and `--org`, which choose the data of every command that runs tasks. */
export function dataOptions(command: Command): Command {
  return command
    .option("--tasks <file>", "task file (JSON, CRMArena-Pro format); default: ENTROPIC_TASKS, fetched data, else the sample")
    .option("--org <path>", "org: a CRMArena-Pro SQLite file, a folder of CSV files, or 'sample'; default: ENTROPIC_ORG, fetched data, else the sample");
}

/** One flag per config key (the config schema decides what a value may be). */
const CONFIG_FLAGS: [string, string, ((value: string) => unknown)?][] = [
  ["--task-ids <ids>", "comma-separated task indices, e.g. 0,100,880"],
  ["--task-categories <names>", "comma-separated categories"],
  ["--task-limit <n>", "number of tasks (a seeded CPython-compatible sample)", int("--task-limit")],
  ["--num-instances <n>", "tasks of all shards together (the AgentBeats workflow's cap)", int("--num-instances")],
  ["--drift-level <level>", "none|low|medium|high"],
  ["--rot-level <level>", "none|low|medium|high"],
  ["--max-steps <n>", "purple turns per task", int("--max-steps")],
  ["--timeout <seconds>", "seconds per purple call", num("--timeout")],
  ["--org-type <type>", "b2b"],
  ["--seed <n>", "assessment seed", int("--seed")],
  ["--concurrency <n>", "episodes in flight", int("--concurrency")],
  ["--shard-index <n>", "this shard (0-based)", int("--shard-index")],
  ["--num-shards <n>", "number of shards", int("--num-shards")],
  ["--run-id <id>", "name the run (default: derived from the purple, the config and the tasks)"],
  ["--first-message <format>", "instructions (default) or json: the crm_task as JSON text, as the Python predecessor sent it"],
];

export function configOptions(command: Command): Command {
  for (const [flags, description, parser] of CONFIG_FLAGS) command.addOption(parser ? new Option(flags, description).argParser(parser) : new Option(flags, description));
  return command
    .option("--config <file>", 'config as JSON (a config object, or a request {"config": {...}}), or a scenario.toml with a [config] table')
    .option("--skip-original", "omit the original CRMArena-Pro block")
    .option("--allow-data-mismatch", "run even if the tasks name records the org does not have (recorded in the results)")
    .option("--no-remap-ids", "keep the dataset's own record Ids and task indices (config remap_ids: false); by default every run is a sandbox refresh");
}

/**
 * Reads --config: a JSON config object, a JSON request document (`{"participants": ..., "config":
 * {...}}`, whose config is taken), or TOML with a [config] table as in scenario.toml.
 */
export function readConfigFile(path: string): Record<string, unknown> {
  let text: string;
  try {
    text = readFileSync(path, "utf8");
  } catch (error) {
    throw new InvalidArgumentError(`--config: cannot read ${path}: ${(error as Error).message}`);
  }
  let parsed: unknown;
  try {
    parsed = path.endsWith(".toml") ? parseToml(text) : JSON.parse(text);
  } catch (error) {
    throw new InvalidArgumentError(`--config: ${path} is not ${path.endsWith(".toml") ? "TOML" : "JSON"}: ${(error as Error).message}`);
  }
  if (typeof parsed !== "object" || parsed === null || Array.isArray(parsed)) throw new InvalidArgumentError(`--config: ${path} must hold an object`);
  const document = parsed as Record<string, unknown>;
  if ("config" in document) {
    if (typeof document.config !== "object" || document.config === null || Array.isArray(document.config))
      throw new InvalidArgumentError(`--config: ${path} has a 'config' that is not an object`);
    return document.config as Record<string, unknown>;
  }
  if (path.endsWith(".toml")) throw new InvalidArgumentError(`--config: ${path} has no [config] table`);
  return document;
}

/** The config of a command line: the --config file, then each flag over it. */
export function configFromOptions(options: Record<string, unknown>): Record<string, unknown> {
  const config: Record<string, unknown> = options.config ? readConfigFile(String(options.config)) : {};
  const keys = [
    "taskIds",
    "taskCategories",
    "taskLimit",
    "numInstances",
    "driftLevel",
    "rotLevel",
    "maxSteps",
    "timeout",
    "orgType",
    "seed",
    "concurrency",
    "shardIndex",
    "numShards",
    "runId",
    "firstMessage",
  ];
  for (const key of keys) {
    if (options[key] !== undefined) config[key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = options[key];
  }
  if (options.skipOriginal) config.skip_original = true;
  if (options.allowDataMismatch) config.allow_data_mismatch = true;
  // Commander sets remapIds true unless --no-remap-ids: only the flag's false overrides the file.
  if (options.remapIds === false) config.remap_ids = false;
  return config;
}
