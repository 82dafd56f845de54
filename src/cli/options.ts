import { readFileSync } from "node:fs";
import { type Command, InvalidArgumentError, Option } from "commander";
import { parse as parseToml } from "smol-toml";
import { type ConfigKeyFlag, configKeyFlags } from "../assessment/index.js";

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

/** A config key's flag as commander spells it: `task_limit` -> `--task-limit`, a negated switch `--no-remap-ids`. */
function flagName({ key, flag }: ConfigKeyFlag): string {
  const kebab = key.replaceAll("_", "-");
  return flag.kind === "negated" ? `--no-${kebab}` : `--${kebab}`;
}

/** The option commander stores a flag under: `--task-limit` and `--no-remap-ids` as taskLimit and remapIds. */
const attributeOf = (key: string) => key.replace(/_([a-z])/g, (_, c: string) => c.toUpperCase());

/**
 * One flag per config key that has one (src/assessment/config.ts says which, with its text and
 * how it reads), then --config: the values first, the switches after.
 */
export function configOptions(command: Command): Command {
  const flags = configKeyFlags();
  const parsers = { integer: int, number: num } as const;
  for (const entry of flags) {
    const { flag, reads } = entry;
    if (flag.kind !== "value") continue;
    const option = new Option(`${flagName(entry)} ${flag.placeholder}`, flag.description);
    command.addOption(reads === "text" ? option : option.argParser(parsers[reads](flagName(entry))));
  }
  command.option("--config <file>", 'config as JSON (a config object, or a request {"config": {...}}), or a scenario.toml with a [config] table');
  for (const entry of flags.filter((entry) => entry.flag.kind !== "value")) command.addOption(new Option(flagName(entry), entry.flag.description));
  return command;
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

/** The config of a command line: the --config file, then each flag given over it. */
export function configFromOptions(options: Record<string, unknown>): Record<string, unknown> {
  const config: Record<string, unknown> = options.config ? readConfigFile(String(options.config)) : {};
  for (const { key, flag } of configKeyFlags()) {
    const given = options[attributeOf(key)];
    if (flag.kind === "value" && given !== undefined) config[key] = given;
    else if (flag.kind === "switch" && given === true) config[key] = true;
    // Commander sets a negated switch true unless it is given: only the flag's false overrides the file.
    else if (flag.kind === "negated" && given === false) config[key] = false;
  }
  return config;
}
