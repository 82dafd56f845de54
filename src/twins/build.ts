import { B2B_CATALOGUE } from "../datasets/index.js";
import type { TaskRecord } from "../tasks/index.js";
import { Random } from "../util/index.js";
import { TWIN_CATEGORIES } from "./categories/index.js";
import type { TwinCategory } from "./category.js";
import { generateTwinWorld, type TwinWorld } from "./world.js";

/** How many fresh draws a twin gets before it is reported as missing (a draw is an answer program call: cheap; tie-prone categories such as transfer_count need many). */
const ATTEMPTS = 200;

export interface TwinSet {
  readonly seed: number;
  readonly tasks: TaskRecord[];
  readonly world: TwinWorld;
  /** Source tasks no draw could twin (by idx, with their category): a defect to fix, reported rather than hidden. */
  readonly missing: readonly { readonly idx: number; readonly category: string }[];
}

export interface BuildTwinsOptions {
  /** Only these categories' twins (a category's own tests); all by default. */
  readonly categories?: readonly string[];
  /** The org's size against the real database (1 = about 29,000 rows). */
  readonly scale?: number;
  /** The twin makers (default TWIN_CATEGORIES): a test of the machinery around the builder gives its own. */
  readonly makers?: readonly TwinCategory[];
}

const isNone = (answer: readonly unknown[]) => answer.length === 0 || answer.every((value) => value === null || value === "None");

/**
 * Makes the twin of every source task on one freshly generated org: enrich the org for every
 * category, then twin each task from its own seeded randomness (the seed and its idx), so the
 * set is a pure function of the source file and the seed.
 */
export function buildTwins(source: readonly TaskRecord[], seed: number, options: BuildTwinsOptions = {}): TwinSet {
  const wanted = options.categories ? new Set(options.categories) : undefined;
  const makers = options.makers ?? TWIN_CATEGORIES;
  const modules = new Map<string, TwinCategory>(makers.filter((module) => !wanted || wanted.has(module.name)).map((module) => [module.name, module]));
  const world = generateTwinWorld(seed, options.scale ?? 1);
  for (const module of makers) if (modules.has(module.name)) module.enrich?.(world, new Random(`twin-enrich:${seed}:${module.name}`));

  const metric = new Map(B2B_CATALOGUE.map((category) => [category.name, category.metric]));
  const tasks: TaskRecord[] = [];
  const missing: { idx: number; category: string }[] = [];
  for (const task of source) {
    const module = modules.get(task.task);
    if (!module) {
      if (!wanted) missing.push({ idx: task.idx, category: task.task });
      continue;
    }
    const wantNone = isNone(task.answer);
    let made: TaskRecord | undefined;
    for (let attempt = 0; attempt < ATTEMPTS && !made; attempt++) {
      const draft = module.twin({ source: task, world, rng: new Random(`twin:${seed}:${task.idx}:${attempt}`), wantNone });
      if (!draft || isNone(draft.answer) !== wantNone) continue;
      made = {
        idx: task.idx,
        answer: draft.answer,
        task: task.task,
        persona: task.persona,
        metadata: { ...task.metadata, required: draft.required },
        reward_metric: metric.get(task.task as never) ?? task.reward_metric,
        query: draft.query,
      };
    }
    if (made) tasks.push(made);
    else missing.push({ idx: task.idx, category: task.task });
  }
  return { seed, tasks, world, missing };
}
