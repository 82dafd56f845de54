import { B2B_CATALOGUE } from "../datasets/index.js";
import type { TaskRecord } from "../tasks/index.js";
import { groupBy, Random } from "../util/index.js";
import { TWIN_CATEGORIES } from "./categories/index.js";
import type { TwinCategory } from "./category.js";
import type { TwinKey } from "./key.js";
import { generateTwinWorld, type TwinWorld } from "./world.js";

/** How many fresh draws a twin gets before it is reported as missing (a draw is an answer program call: cheap; tie-prone categories such as transfer_count need many). */
const ATTEMPTS = 200;
/** How many twins of its category a twin with no draw at its placed None-ness tries to swap None-ness with. */
const SWAP_PARTNERS = 20;

/** A source task no draw could twin (by idx, with its category; `trial` when it is a later trial's twin that is missing). */
export interface MissingTwin {
  readonly idx: number;
  readonly category: string;
  readonly trial?: number;
}

export interface TwinSet {
  /** The key's digest (TwinKey.digest): safe to print, it names the set without giving the key away. */
  readonly keyDigest: string;
  /** The first trial's twins: the set as a run of one trial sees it. */
  readonly tasks: TaskRecord[];
  /** Every trial's twins, `trials[0]` being `tasks`: trial k of a task is its k-th twin (same idx, its own entities and answer, on the same org). */
  readonly trials: readonly TaskRecord[][];
  readonly world: TwinWorld;
  /** Source tasks no draw could twin: a defect to fix, reported rather than hidden. */
  readonly missing: readonly MissingTwin[];
}

export interface BuildTwinsOptions {
  /** Only these categories' twins (a category's own tests); all by default. */
  readonly categories?: readonly string[];
  /** The org's size against the real database (1 = about 29,000 rows). */
  readonly scale?: number;
  /** The twin makers (default TWIN_CATEGORIES): a test of the machinery around the builder gives its own. */
  readonly makers?: readonly TwinCategory[];
  /** How many twins of each task (default 1): one per trial of a run. */
  readonly trials?: number;
}

const isNone = (answer: readonly unknown[]) => answer.length === 0 || answer.every((value) => value === null || value === "None");

/**
 * The text every random source of one trial's twins is seeded from: the key's for the first
 * trial (so trial 1 is the set a run of one trial gets), the key's and the trial's for the others.
 */
const trialScope = (key: TwinKey, trial: number) => (trial === 1 ? key.seedText() : `${key.seedText()}:trial ${trial}`);

/**
 * Which twins are None: in each category as many as its source tasks are None (about 20%, as
 * the real set), placed by the key (and the trial) rather than on the None sources. A twin that
 * kept its own source's None-ness would let a purple holding the public answer file read it off:
 * it answers None where the file does, and in categories of few labels (4 BANT factors, 5 stages)
 * the source's other answers match by chance; that passed 31-46% of lead_qualification and
 * wrong_stage_rectification twins against a category prior of 20%.
 */
export function placeNones(source: readonly TaskRecord[], key: TwinKey, trial = 1): Set<number> {
  return placeNonesIn(source, trialScope(key, trial));
}

function placeNonesIn(source: readonly TaskRecord[], scope: string): Set<number> {
  const none = new Set<number>();
  for (const [category, tasks] of groupBy(source, (task) => task.task)) {
    const count = tasks.filter((task) => isNone(task.answer)).length;
    for (const task of new Random(`twin-none:${scope}:${category}`).sample(tasks, count)) none.add(task.idx);
  }
  return none;
}

/**
 * Makes `trials` twins of every source task on one org generated from the key: enrich the org
 * for every category, then twin each task from its own seeded randomness (the key, the trial and
 * its idx), trial after trial, so the set is a pure function of the source file, the key and the
 * number of trials; the first trial's twins are the same whatever that number.
 */
export function buildTwins(source: readonly TaskRecord[], key: TwinKey, options: BuildTwinsOptions = {}): TwinSet {
  const wanted = options.categories ? new Set(options.categories) : undefined;
  const makers = options.makers ?? TWIN_CATEGORIES;
  const modules = new Map<string, TwinCategory>(makers.filter((module) => !wanted || wanted.has(module.name)).map((module) => [module.name, module]));
  const world = generateTwinWorld(key, options.scale ?? 1);
  for (const module of makers) if (modules.has(module.name)) module.enrich?.(world, new Random(`twin-enrich:${key.seedText()}:${module.name}`));

  const trials: TaskRecord[][] = [];
  const missing: MissingTwin[] = [];
  for (let trial = 1; trial <= Math.max(1, options.trials ?? 1); trial++) {
    const made = drawTrial(source, modules, world, trialScope(key, trial));
    trials.push(made.tasks);
    for (const entry of made.missing) if (modules.has(entry.category) || !wanted) missing.push(trial === 1 ? entry : { ...entry, trial });
  }
  return { keyDigest: key.digest, tasks: trials[0]!, trials, world, missing };
}

/** One trial's twins of every source task (the ones whose category has a maker) on the enriched world. */
function drawTrial(
  source: readonly TaskRecord[],
  modules: ReadonlyMap<string, TwinCategory>,
  world: TwinWorld,
  scope: string,
): { tasks: TaskRecord[]; missing: { idx: number; category: string }[] } {
  const noneTwins = placeNonesIn(source, scope);
  const metric = new Map(B2B_CATALOGUE.map((category) => [category.name, category.metric]));
  // One twin of `task` at the given None-ness, or undefined when no draw gives one.
  const draw = (task: TaskRecord, module: TwinCategory, wantNone: boolean): TaskRecord | undefined => {
    for (let attempt = 0; attempt < ATTEMPTS; attempt++) {
      const draft = module.twin({ source: task, world, rng: new Random(`twin:${scope}:${task.idx}:${attempt}`), wantNone });
      if (!draft || isNone(draft.answer) !== wantNone) continue;
      return {
        idx: task.idx,
        answer: draft.answer,
        task: task.task,
        persona: task.persona,
        metadata: { ...task.metadata, required: draft.required },
        reward_metric: metric.get(task.task as never) ?? task.reward_metric,
        query: draft.query,
      };
    }
    return undefined;
  };

  const made = new Map<number, TaskRecord>();
  const failed: TaskRecord[] = [];
  const missing: { idx: number; category: string }[] = [];
  for (const task of source) {
    const module = modules.get(task.task);
    if (!module) {
      missing.push({ idx: task.idx, category: task.task });
      continue;
    }
    const twin = draw(task, module, noneTwins.has(task.idx));
    if (twin) made.set(task.idx, twin);
    else failed.push(task);
  }
  // A wording with no unique answer on this org at its placed None-ness (a "fewest" that ties in
  // every window drawn) swaps None-ness with another twin of its category that can take it, so
  // the category keeps its count of None twins and every task its twin.
  for (const task of failed) {
    const module = modules.get(task.task)!;
    const wantNone = noneTwins.has(task.idx);
    const flipped = draw(task, module, !wantNone);
    const partners = flipped
      ? new Random(`twin-swap:${scope}:${task.idx}`).shuffle(source.filter((other) => other.task === task.task && made.has(other.idx) && noneTwins.has(other.idx) !== wantNone))
      : [];
    let swapped = false;
    for (const partner of partners.slice(0, SWAP_PARTNERS)) {
      const rebuilt = draw(partner, module, wantNone);
      if (!rebuilt) continue;
      made.set(task.idx, flipped!);
      made.set(partner.idx, rebuilt);
      for (const idx of [task.idx, partner.idx]) {
        if (noneTwins.has(idx)) noneTwins.delete(idx);
        else noneTwins.add(idx);
      }
      swapped = true;
      break;
    }
    if (!swapped) missing.push({ idx: task.idx, category: task.task });
  }
  return { tasks: source.flatMap((task) => made.get(task.idx) ?? []), missing };
}
