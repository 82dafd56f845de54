import { REFUSAL } from "../baselines/index.js";
import { FUZZY_PASS_F1, tokenF1 } from "../scoring/index.js";
import type { TaskRecord } from "../tasks/index.js";
import { IdRemap, idsIn } from "../util/index.js";

/**
 * Gaming purples that need no org: each holds the public task file (what anyone can download)
 * and answers from it and from what the green agent shows it, never querying. The validity
 * suite runs them on the real task distribution, where the real org is not needed, to see what
 * the public file alone is worth with and without the sandbox refresh (Id remapping).
 */

/** What the purple is shown of a task: the crm_task fields a strategy can read, after the remap. */
export interface SeenTask {
  /** The dataset index as a string without remapping; an opaque episode id with it. */
  readonly taskId: string;
  readonly category: string;
  readonly prompt: string;
  readonly requiredContext: string;
  readonly optionalContext: string;
  /** The assessment seed, as a purple knows or guesses it (the crm_task does not show it; the default is public). */
  readonly seed: number;
}

/** A strategy's view of the run: the public file it holds, and (for a stateful purple) every task the run showed it. */
export interface GamingContext {
  readonly key: AnswerKey;
  readonly run: readonly SeenTask[];
}

/** A gaming purple: the final answer from what it was shown and what it holds. Pure. */
export type GamingStrategy = (seen: SeenTask, context: GamingContext) => string;

/** How many of a fuzzy category's most frequent answers the hedge picks its pair from. */
const HEDGE_POOL = 5;
const NONE_KEY = JSON.stringify(["None"]);
/** Does a ground truth name a record Id (an 18-character Id in it, or a whole 15-character one)? */
export const namesAnId = (answer: readonly string[]) => answer.some((value) => idsIn(value).length > 0 || (/^[A-Za-z0-9]{15}$/.test(value) && /\d/.test(value)));
const asAnswer = (values: readonly (string | null)[]) => values.map((value) => value ?? "None");

/** One category's answer statistics in the public file. */
interface CategoryStats {
  readonly metric: TaskRecord["reward_metric"];
  /** Distinct ground truths (exact_match ones sorted: order does not count there), most frequent first. */
  readonly ranked: readonly string[][];
  /** The same, only those naming no record Id. */
  readonly rankedIdFree: readonly string[][];
}

/** Most frequent first; ties: `[None]` first (what doing nothing says anyway), then lexicographic, so the order of the file never matters. */
function rank(answers: readonly string[][]): string[][] {
  const counts = new Map<string, number>();
  for (const answer of answers) counts.set(JSON.stringify(answer), (counts.get(JSON.stringify(answer)) ?? 0) + 1);
  return [...counts]
    .sort((a, b) => b[1] - a[1] || (a[0] === NONE_KEY ? -1 : b[0] === NONE_KEY ? 1 : a[0] < b[0] ? -1 : a[0] > b[0] ? 1 : 0))
    .map(([key]) => JSON.parse(key) as string[]);
}

/** Words lower-cased, Ids as written (they are case-sensitive): the tokens a text lookup matches on. */
function tokensOf(text: string): Set<string> {
  const tokens = new Set<string>();
  for (const token of text.split(/[^A-Za-z0-9]+/)) {
    if (token.length < 2) continue;
    tokens.add(/\d/.test(token) && token.length >= 15 ? token : token.toLowerCase());
  }
  return tokens;
}

const textOf = (seen: Pick<SeenTask, "prompt" | "requiredContext">) => `${seen.prompt}\n${seen.requiredContext}`;

/**
 * The public task file, indexed the way a gaming purple would index it: by dataset index, by the
 * words and Ids of each task's text (an inverted index per category, tokens weighted by rarity),
 * and by each category's answer frequencies.
 */
export class AnswerKey {
  readonly byIdx: ReadonlyMap<number, TaskRecord>;
  /** Every Id any public task text names: a shown Id outside this set means the run remapped Ids. */
  readonly publicTextIds: ReadonlySet<string>;
  private readonly stats = new Map<string, CategoryStats>();
  private readonly postings = new Map<string, Map<string, number[]>>();
  private readonly weights = new Map<string, Map<string, number>>();
  private readonly hedges = new Map<string, string | undefined>();

  constructor(readonly tasks: readonly TaskRecord[]) {
    this.byIdx = new Map(tasks.map((task) => [task.idx, task]));
    this.publicTextIds = new Set(tasks.flatMap((task) => idsIn(`${task.query}\n${task.metadata.required}\n${task.metadata.optional}`)));
    const byCategory = new Map<string, TaskRecord[]>();
    for (const task of tasks) byCategory.set(task.task, [...(byCategory.get(task.task) ?? []), task]);
    for (const [category, group] of byCategory) {
      const metric = group[0]!.reward_metric;
      const answers = group.map((task) => (task.reward_metric === "exact_match" ? asAnswer(task.answer).sort() : asAnswer(task.answer)));
      const ranked = rank(answers);
      this.stats.set(category, { metric, ranked, rankedIdFree: ranked.filter((answer) => !namesAnId(answer)) });
      const postings = new Map<string, number[]>();
      for (const task of group)
        for (const token of tokensOf(textOf({ prompt: task.query, requiredContext: task.metadata.required }))) postings.set(token, [...(postings.get(token) ?? []), task.idx]);
      this.postings.set(category, postings);
      // Inverse document frequency: a token every task of the category has (the template) says nothing.
      this.weights.set(category, new Map([...postings].map(([token, list]) => [token, Math.log(group.length / list.length)])));
    }
  }

  /** The categories some of whose ground truths name a record Id: what remapping can hide. */
  idCategories(): Set<string> {
    return new Set([...this.stats].filter(([, stats]) => stats.ranked.some(namesAnId)).map(([category]) => category));
  }

  /** The category's metric in the public file (privacy categories are refused). */
  metricOf(category: string): TaskRecord["reward_metric"] | undefined {
    return this.stats.get(category)?.metric;
  }

  /** The category's `n` most frequent ground truths; with `idFree`, only those naming no Id. */
  mostFrequent(category: string, n: number, idFree: boolean): string[][] {
    const stats = this.stats.get(category);
    if (!stats) return [];
    return (idFree ? stats.rankedIdFree : stats.ranked).slice(0, n);
  }

  /**
   * The hedge that passes most public tasks of a fuzzy category at CRMArena-Pro's F1 threshold:
   * two of its five most frequent answers, joined by " or " or by a comma.
   */
  bestHedge(category: string): string | undefined {
    if (this.hedges.has(category)) return this.hedges.get(category);
    const truths = this.tasks.filter((task) => task.task === category).map((task) => asAnswer(task.answer)[0] ?? "None");
    const top = this.mostFrequent(category, HEDGE_POOL, false).map((answer) => answer.join(", "));
    let best: { hedge: string; passes: number } | undefined;
    for (let i = 0; i < top.length; i++)
      for (let j = i + 1; j < top.length; j++)
        for (const joiner of [" or ", ", "]) {
          const hedge = `${top[i]}${joiner}${top[j]}`;
          const passes = truths.filter((truth) => tokenF1(hedge, truth) >= FUZZY_PASS_F1).length;
          if (!best || passes > best.passes) best = { hedge, passes };
        }
    this.hedges.set(category, best?.hedge);
    return best?.hedge;
  }

  /**
   * The public task whose text best matches a shown one: same category, the largest sum of the
   * rarity weights of shared tokens (query and required context). Ties go to the lowest index.
   */
  bestMatch(seen: SeenTask): TaskRecord | undefined {
    const postings = this.postings.get(seen.category);
    const weights = this.weights.get(seen.category);
    if (!postings || !weights) return undefined;
    const scores = new Map<number, number>();
    for (const token of tokensOf(textOf(seen))) {
      const weight = weights.get(token);
      if (!weight) continue;
      for (const idx of postings.get(token)!) scores.set(idx, (scores.get(idx) ?? 0) + weight);
    }
    let best: [number, number] | undefined;
    for (const entry of scores) if (!best || entry[1] > best[1] || (entry[1] === best[1] && entry[0] < best[0])) best = entry;
    return best ? this.byIdx.get(best[0]) : this.tasks.find((task) => task.task === seen.category);
  }
}

/** The purple can tell the run remapped Ids: the task id is no dataset index, or the text names Ids the public file never does. */
export function looksRemapped(seen: SeenTask, key: AnswerKey): boolean {
  if (!/^\d+$/.test(seen.taskId)) return true;
  return idsIn(`${seen.prompt}\n${seen.requiredContext}\n${seen.optionalContext}`).some((id) => !key.publicTextIds.has(id));
}

const isPrivacy = (seen: SeenTask, key: AnswerKey) => key.metricOf(seen.category) === "privacy_rejection";
/** A dataset answer as a purple would say it: the oracle's form. */
const say = (task: TaskRecord) => (task.reward_metric === "privacy_rejection" ? REFUSAL : asAnswer(task.answer).join(", "));

/** Ignores the task id; answers the dataset answer of the public task whose text matches best. */
export const textLookup: GamingStrategy = (seen, { key }) => {
  const match = key.bestMatch(seen);
  return match ? say(match) : "None";
};

/**
 * Replays the public code on the run's seed (known or guessed: the default is public): with no operator secret the remap's key
 * is the seed alone, so the purple recomputes every episode id and every new Id and answers the
 * dataset answer remapped. With a secret nothing matches and it falls back to the text lookup.
 */
export function seedReplay(): GamingStrategy {
  const replays = new Map<number, { remap: IdRemap; byEpisode: Map<string, TaskRecord> }>();
  return (seen, context) => {
    let replay = replays.get(seen.seed);
    if (!replay) {
      const remap = IdRemap.forRun(seen.seed);
      replay = { remap, byEpisode: new Map(context.key.tasks.map((task) => [remap.episodeId(task.idx), task])) };
      replays.set(seen.seed, replay);
    }
    const task = replay.byEpisode.get(seen.taskId);
    if (!task) return indexLookup(seen, context);
    return task.reward_metric === "privacy_rejection" ? REFUSAL : asAnswer(replay.remap.answer(task.answer)).join(", ");
  };
}

/** Looks the task id up as the dataset index; when it is opaque (remapping), falls back to the text lookup. */
export const indexLookup: GamingStrategy = (seen, context) => {
  const task = /^\d+$/.test(seen.taskId) ? context.key.byIdx.get(Number(seen.taskId)) : undefined;
  return task && task.task === seen.category ? say(task) : textLookup(seen, context);
};

/**
 * The category's most frequent ground truth; a refusal on privacy categories; never queries.
 * When it sees that Ids are remapped it takes the most frequent answer naming no Id, since a
 * dataset Id can no longer be right (what a rational zero-work purple does, and the chance floor's rule).
 */
export const categoryPrior: GamingStrategy = (seen, { key }) => {
  if (isPrivacy(seen, key)) return REFUSAL;
  const [answer] = key.mostFrequent(seen.category, 1, looksRemapped(seen, key));
  return (answer ?? ["None"]).join(", ");
};

/**
 * The prior, but on fuzzy categories it names two candidates ("X or Y", "X, Y"): token F1 passes
 * a hedge when one of two similar-length candidates is right. Like a gamer tuning on the public
 * file, it takes the pair of frequent answers and the form that pass most public tasks.
 */
export const priorHedge: GamingStrategy = (seen, context) => {
  if (context.key.metricOf(seen.category) !== "fuzzy_match") return categoryPrior(seen, context);
  return context.key.bestHedge(seen.category) ?? categoryPrior(seen, context);
};

/** Refuses on the privacy categories, None elsewhere. */
export const refuseByCategory: GamingStrategy = (seen, { key }) => (isPrivacy(seen, key) ? REFUSAL : "None");

export const alwaysNone: GamingStrategy = () => "None";

/**
 * A stateful text lookup that has seen the run's other tasks: it matches each shown task to its
 * public twin and pairs their Ids in order of appearance, learning the remap of every Id some task
 * text shows (a product Id in one task's text can be another task's answer). It answers the
 * matched task's answer with its Ids translated; where an Id is not learnt, the prior's answer.
 * Remapping hides only Ids no task text shows; this purple measures what the rest leaks.
 */
export function translatedLookup(): GamingStrategy {
  const learnt = new WeakMap<readonly SeenTask[], Map<string, string>>();
  const dictionary = (context: GamingContext) => {
    let map = learnt.get(context.run);
    if (!map) {
      map = new Map();
      for (const other of context.run) {
        const twin = context.key.bestMatch(other);
        if (!twin) continue;
        const shown = idsIn(textOf(other));
        const dataset = idsIn(textOf({ prompt: twin.query, requiredContext: twin.metadata.required }));
        if (shown.length !== dataset.length) continue;
        for (const [i, id] of dataset.entries()) map.set(id, shown[i]!);
      }
      learnt.set(context.run, map);
    }
    return map;
  };
  return (seen, context) => {
    const match = context.key.bestMatch(seen);
    if (!match) return categoryPrior(seen, context);
    if (match.reward_metric === "privacy_rejection" || !looksRemapped(seen, context.key)) return say(match);
    const answer = asAnswer(match.answer);
    if (!namesAnId(answer)) return answer.join(", ");
    const map = dictionary(context);
    const translated = answer.map((value) => map.get(value));
    return translated.every((value) => value !== undefined) ? translated.join(", ") : categoryPrior(seen, context);
  };
}

/** The org-free roster, in the order the tables show it. */
export interface GamingEntry {
  readonly name: string;
  readonly kind: "lookup" | "zero-work";
  readonly description: string;
  /** It learns from the run's other tasks (a stateful purple), not from the shown task alone. */
  readonly remembersRun?: boolean;
  readonly strategy: GamingStrategy;
}

export function gamingRoster(): GamingEntry[] {
  return [
    {
      name: "index-lookup",
      kind: "lookup",
      description: "holds the public task file and looks `task_id` up as the dataset index; an opaque id (remapping) sends it to the text lookup",
      strategy: indexLookup,
    },
    {
      name: "text-lookup",
      kind: "lookup",
      description: "ignores `task_id`; answers the dataset answer of the public task of the category whose words and Ids match the shown text best",
      strategy: textLookup,
    },
    {
      name: "seed-replay",
      kind: "lookup",
      description:
        "runs the public code on the run's seed (known or guessed; the default is public) to recompute the remap (episode ids, new Ids); without a match, the index lookup",
      strategy: seedReplay(),
    },
    {
      name: "translated-lookup",
      kind: "lookup",
      description:
        "the text lookup with memory of the run's other tasks: learns the new Id of every Id a task text shows by pairing shown and public texts, translates the answer, else the prior",
      strategy: translatedLookup(),
      remembersRun: true,
    },
    {
      name: "category-prior",
      kind: "zero-work",
      description: "each category's most frequent ground truth (naming no Id when it sees remapped Ids); refuses on privacy categories; never queries",
      strategy: categoryPrior,
    },
    {
      name: "prior-hedge",
      kind: "zero-work",
      description: 'the prior, but on the fuzzy categories two frequent answers ("X or Y", or "X, Y"), the pair and form that pass most public tasks',
      strategy: priorHedge,
    },
    { name: "refuse-by-category", kind: "zero-work", description: "refuses on the privacy categories, None elsewhere", strategy: refuseByCategory },
    { name: "always-none", kind: "zero-work", description: "answers None", strategy: alwaysNone },
  ];
}
