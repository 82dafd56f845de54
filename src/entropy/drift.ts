import type { Level } from "../assessment/config.js";
import type { FieldInfo, OrgSchema } from "../org/types.js";
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
      // The qualifier goes before a lookup's Id ending (OwnerRefId), after anything else (Amount_USD).
      const qualifier = rng.pick(SUFFIXES[field.type] ?? SUFFIXES.string!);
      return finish([...core, qualifier, ...tail]);
    }
  }
}

const VALID = /^[A-Za-z][A-Za-z0-9]*(?:_[A-Za-z0-9]+)*(?:__c)?$/;

/** SOQL and SOSL words a field may not be named (a column called Desc would break ORDER BY). */
const RESERVED = new Set(
  "select from where and or not in like group by having order asc desc nulls first last limit offset null true false includes excludes typeof when then else end using scope with for view reference update tracking viewstat rollup cube format count sum avg min max find returning fields all name email phone sidebar network data category above below at above_or_below today yesterday tomorrow".split(" "),
);

/**
 * The seed's rename map. Objects are visited in a seeded order; each gets the level's share of
 * its columns renamed (at least one above `none`; `Id` only at `high`), preferring columns only it
 * has. A column name chosen once is renamed in every object that has it, to the same new name, so
 * that a task's text can name it without ambiguity; an object's share is therefore at least the
 * level's. New names are valid identifiers, never equal to any original column name. Pure in
 * (seed, level, schema).
 */
export function planDrift(schema: OrgSchema, level: Level, seed: number): RenameMap {
  if (level === "none") return {};
  const rng = new Random(`drift:${seed}:${level}`);
  const taken = new Set(schema.objects.flatMap((object) => object.fields.map((field) => field.name.toLowerCase())));
  const owners = new Map<string, number>();
  for (const object of schema.objects) for (const field of object.fields) owners.set(field.name, (owners.get(field.name) ?? 0) + 1);
  const chosen = new Map<string, string>();
  const order = rng.shuffle([...schema.objects].sort((a, b) => a.name.localeCompare(b.name)));
  for (const object of order) {
    const candidates = object.fields.filter((field) => !FIXED_FIELDS.has(field.name) && (field.name !== "Id" || level === "high"));
    const target = Math.min(candidates.length, Math.max(1, Math.round(DRIFT_SHARE[level] * object.fields.filter((field) => !FIXED_FIELDS.has(field.name)).length)));
    const need = target - candidates.filter((field) => chosen.has(field.name)).length;
    const open = candidates.filter((field) => !chosen.has(field.name));
    const pool = [...rng.shuffle(open.filter((field) => owners.get(field.name) === 1)), ...rng.shuffle(open.filter((field) => owners.get(field.name)! > 1))];
    for (const field of pool.slice(0, Math.max(0, need))) {
      const name = newName(field, rng, taken);
      taken.add(name.toLowerCase());
      chosen.set(field.name, name);
    }
  }
  const renames: Record<string, Record<string, string>> = {};
  for (const object of [...schema.objects].sort((a, b) => a.name.localeCompare(b.name))) {
    const map = Object.fromEntries(object.fields.filter((field) => chosen.has(field.name)).map((field) => [field.name, chosen.get(field.name)!]));
    if (Object.keys(map).length > 0) renames[object.name] = map;
  }
  return renames;
}

function newName(field: FieldInfo, rng: Random, taken: ReadonlySet<string>): string {
  for (const strategy of rng.shuffle(STRATEGIES)) {
    const candidate = rename(field, strategy, rng);
    if (candidate && VALID.test(candidate) && !RESERVED.has(candidate.toLowerCase()) && !taken.has(candidate.toLowerCase())) return candidate;
  }
  // Every strategy collided (rare): number the snake-case variant until it is free.
  for (let n = 2; ; n++) {
    const candidate = `${nameWords(field.name).words.join("_").toLowerCase()}_${n}${field.name.endsWith("__c") ? "__c" : ""}`;
    if (!taken.has(candidate.toLowerCase())) return candidate;
  }
}

/** All renames as one map (a name is renamed the same way in every object that has it). */
export function flatRenames(renames: RenameMap): Map<string, string> {
  return new Map(Object.values(renames).flatMap((map) => Object.entries(map)));
}

/**
 * Rewrites the field names a task's text mentions. Only names that read as API names are
 * rewritten (several words run together, or a custom `__c` name: CompanySignedDate, StageName,
 * ContractID__c); single words such as Status or Id are ordinary prose too and stay as written.
 */
export function driftText(text: string, renames: RenameMap): { text: string; renamed: string[] } {
  const renamed = new Set<string>();
  let result = text;
  for (const [original, drifted] of flatRenames(renames)) {
    const { words, custom } = nameWords(original);
    if (words.length < 2 && !custom) continue;
    const pattern = new RegExp(`(?<![A-Za-z0-9_])${original.replace(/[.*+?^${}()|[\]\\]/g, "\\$&")}(?![A-Za-z0-9_])`, "g");
    if (pattern.test(result)) {
      renamed.add(original);
      result = result.replace(pattern, drifted);
    }
  }
  return { text: result, renamed: [...renamed].sort() };
}
