import type { Level } from "../assessment/config.js";
import type { FieldInfo, ObjectInfo, OrgSchema } from "../org/types.js";
import { nameWords } from "../util/names.js";
import { Random } from "../util/random.js";
import { ABBREVIATIONS, SUFFIXES, SYNONYMS } from "./vocabulary.js";

/** Share of each object's columns renamed at each level. */
export const DRIFT_SHARE: Readonly<Record<Level, number>> = { none: 0, low: 0.1, medium: 0.3, high: 0.5 };

/** The columns renamed by drift: object → original name → new name. */
export type RenameMap = Readonly<Record<string, Readonly<Record<string, string>>>>;

/** Fields drift never renames: the rot marker, which the instructions name. */
const FIXED_FIELDS = new Set(["IsDeleted"]);

type Strategy = "synonym" | "abbreviation" | "casing" | "suffix";
const STRATEGIES: readonly Strategy[] = ["synonym", "abbreviation", "casing", "suffix"];

const isIdWord = (word: string) => word === "Id" || word === "ID";

/** One candidate new name for a field, by one strategy (undefined when the strategy has nothing to change). */
function rename(field: FieldInfo, strategy: Strategy, rng: Random): string | undefined {
  const { words, custom } = nameWords(field.name);
  const finish = (parts: string[]) => `${parts.join("")}${custom ? "__c" : ""}`;
  // A lookup keeps its Id ending (or __c), so its relationship name still derives from it.
  const core = field.type === "reference" && !custom && isIdWord(words[words.length - 1] ?? "") ? words.slice(0, -1) : words;
  const tail = core.length < words.length ? ["Id"] : [];
  switch (strategy) {
    case "synonym": {
      const options = core.map((word, i) => ({ i, choices: SYNONYMS[word] ?? [] })).filter((entry) => entry.choices.length > 0);
      if (options.length === 0) return undefined;
      const { i, choices } = rng.pick(options);
      return finish([...core.slice(0, i), rng.pick(choices), ...core.slice(i + 1), ...tail]);
    }
    case "abbreviation": {
      const options = core.map((word, i) => ({ i, short: ABBREVIATIONS[word] })).filter((entry): entry is { i: number; short: string } => entry.short !== undefined);
      if (options.length === 0) return undefined;
      const { i, short } = rng.pick(options);
      return finish([...core.slice(0, i), short, ...core.slice(i + 1), ...tail]);
    }
    case "casing": {
      const all = [...core, ...tail];
      const style = rng.int(0, 2);
      const base = style === 0 ? all.map((w) => w.toLowerCase()).join("_") : style === 1 ? all.map((w) => w.toUpperCase()).join("_") : all.map((w, i) => (i === 0 ? w.toLowerCase() : w)).join("");
      return `${base}${custom ? "__c" : ""}`;
    }
    case "suffix": {
      const options = SUFFIXES[field.type] ?? SUFFIXES.string!;
      if (field.type === "reference" && !custom) return finish([...core, rng.pick(options), ...tail]);
      return finish([...core, ...(tail.length ? tail : []), rng.pick(options)].map((part, i, all) => (i === all.length - 1 ? part : part)));
    }
  }
}

const VALID = /^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*(?:__c)?$/;

/**
 * The seed's rename map: per object, the level's share of its columns (at least one above
 * `none`; `Id` only at `high`), each given a new valid name, unique within the object and never
 * equal to any original column name. A pure function of (seed, level, schema).
 */
export function planDrift(schema: OrgSchema, level: Level, seed: number): RenameMap {
  if (level === "none") return {};
  const taken = new Set(schema.objects.flatMap((object) => object.fields.map((field) => field.name.toLowerCase())));
  const renames: Record<string, Record<string, string>> = {};
  for (const object of [...schema.objects].sort((a, b) => a.name.localeCompare(b.name))) {
    const rng = new Random(`drift:${seed}:${level}:${object.name}`);
    renames[object.name] = renameObject(object, level, rng, taken);
  }
  return renames;
}

function renameObject(object: ObjectInfo, level: Level, rng: Random, taken: ReadonlySet<string>): Record<string, string> {
  const candidates = object.fields.filter((field) => !FIXED_FIELDS.has(field.name) && (field.name !== "Id" || level === "high"));
  const count = Math.min(candidates.length, Math.max(1, Math.round(DRIFT_SHARE[level] * object.fields.filter((field) => !FIXED_FIELDS.has(field.name)).length)));
  const used = new Set<string>();
  const map: Record<string, string> = {};
  for (const field of rng.sample(candidates, count)) {
    let name: string | undefined;
    for (const strategy of rng.shuffle(STRATEGIES)) {
      const candidate = rename(field, strategy, rng);
      if (candidate && VALID.test(candidate) && !taken.has(candidate.toLowerCase()) && !used.has(candidate.toLowerCase())) {
        name = candidate;
        break;
      }
    }
    // Every strategy collided (rare): number the casing variant until it is free.
    for (let n = 2; !name; n++) {
      const candidate = `${nameWords(field.name).words.join("_").toLowerCase()}_${n}${field.name.endsWith("__c") ? "__c" : ""}`;
      if (!taken.has(candidate.toLowerCase()) && !used.has(candidate.toLowerCase())) name = candidate;
    }
    used.add(name.toLowerCase());
    map[field.name] = name;
  }
  return map;
}
