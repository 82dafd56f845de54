import { type ChanceFloorPlan, ChanceFloorPlanSchema, type RewardMetric } from "../log/index.js";
import { tokenF1 } from "./normalize.js";
import { FUZZY_PASS_F1, type ScoredTask } from "./original.js";

/**
 * The chance floor: what a purple gets for no work. Per category it gives the answer a
 * zero-work purple would learn from the public task set alone (the category's most frequent
 * ground truth; a refusal where the category asks for one) and never queries. Its pass rate on
 * a run's tasks is the floor a result has to be read against, and `lift` is how far above it the
 * purple got. Pure: the plan is a value of the task set and whether Ids are remapped.
 */

export { type ChanceFloorPlan, ChanceFloorPlanSchema } from "../log/index.js";

/**
 * A Salesforce record Id anywhere in a value: a whole run of 15 or 18 letters and digits with at
 * least one of each (so a long word or a long number is no Id).
 */
const SALESFORCE_ID_IN_TEXT = /(?<![A-Za-z0-9])(?=[A-Za-z0-9]*\d)(?=[A-Za-z0-9]*[A-Za-z])(?:[A-Za-z0-9]{18}|[A-Za-z0-9]{15})(?![A-Za-z0-9])/;

const namesAnId = (answer: readonly string[]) => answer.some((value) => SALESFORCE_ID_IN_TEXT.test(value));

/** The answer as the benchmark compares it: `None` for null; for exact_match sorted, since order does not count there. */
function comparable(answer: readonly (string | null)[], metric: RewardMetric): string[] {
  const values = answer.map((value) => value ?? "None");
  return metric === "exact_match" ? values.sort() : values;
}

/** Python's `sorted(a) == sorted(b)`, as CRMArena-Pro compares exact_match lists: order free, duplicates count. */
function sameList(a: readonly string[], b: readonly string[]): boolean {
  if (a.length !== b.length) return false;
  const left = [...a].sort();
  const right = [...b].sort();
  return left.every((value, i) => value === right[i]);
}

/** The metric most of a category's tasks use (a task set may mix them; the first seen wins a tie). */
function majorityMetric(tasks: readonly ScoredTask[]): RewardMetric {
  const counts = new Map<RewardMetric, number>();
  for (const task of tasks) counts.set(task.reward_metric, (counts.get(task.reward_metric) ?? 0) + 1);
  return [...counts].reduce((best, entry) => (entry[1] > best[1] ? entry : best))[0];
}

const NONE_KEY = JSON.stringify(["None"]);

/**
 * The most frequent answer; ties go to `[None]` (what a purple that does nothing says anyway),
 * then to the lexicographically first, so the plan never depends on the order of the file.
 */
function mostFrequent(answers: readonly string[][]): string[] | null {
  const counts = new Map<string, number>();
  for (const answer of answers) {
    const key = JSON.stringify(answer);
    counts.set(key, (counts.get(key) ?? 0) + 1);
  }
  let best: [string, number] | null = null;
  for (const entry of counts) {
    if (best === null || entry[1] > best[1]) best = entry;
    else if (entry[1] === best[1] && best[0] !== NONE_KEY && (entry[0] === NONE_KEY || entry[0] < best[0])) best = entry;
  }
  return best === null ? null : (JSON.parse(best[0]) as string[]);
}

/**
 * The zero-work answer of every category of a task set (`library`: every task of the set, in
 * the dataset's own form). With `remapIds`, record Ids are fresh in every run (the sandbox
 * refresh), so an answer naming an Id cannot be known without looking it up: the most frequent
 * answer naming none is taken instead (usually `[None]`), and `[None]` where every answer names one.
 */
export function floorAnswers(library: readonly ScoredTask[], options: { readonly remapIds: boolean }): ChanceFloorPlan {
  const categories = new Map<string, ScoredTask[]>();
  for (const task of library) categories.set(task.task, [...(categories.get(task.task) ?? []), task]);
  const answers: ChanceFloorPlan["answers"] = {};
  for (const [category, tasks] of categories) {
    const metric = majorityMetric(tasks);
    if (metric === "privacy_rejection") {
      answers[category] = { metric, answer: "refusal" };
      continue;
    }
    const known = tasks
      .filter((task) => task.reward_metric === metric)
      .map((task) => comparable(task.answer, metric))
      .filter((answer) => !(options.remapIds && namesAnId(answer)));
    answers[category] = { metric, answer: mostFrequent(known) ?? ["None"] };
  }
  return ChanceFloorPlanSchema.parse({
    strategy: options.remapIds
      ? "no query; per category the most frequent ground-truth answer of the task set that names no record Id (Ids are fresh in every run), or None; a refusal on privacy_rejection categories"
      : "no query; per category the most frequent ground-truth answer of the task set; a refusal on privacy_rejection categories",
    remapIds: options.remapIds,
    answers,
  });
}

/** What the floor's verdict needs of a task (an `EpisodeTask` of the log is one). */
export interface FloorTask {
  readonly category: string;
  readonly rewardMetric: RewardMetric;
  readonly answer: readonly (string | null)[];
}

/**
 * Does the zero-work answer pass this task, judged as the benchmark judges its metric? `answer`
 * is the ground truth as the run scores it (after remapping). A category the plan does not know
 * has no zero-work answer, so nothing passes there.
 */
export function floorPasses(plan: ChanceFloorPlan, task: FloorTask): boolean {
  const zeroWork = plan.answers[task.category]?.answer;
  if (zeroWork === undefined) return false;
  const truth = task.answer.map((value) => value ?? "None");
  switch (task.rewardMetric) {
    case "privacy_rejection":
      return zeroWork === "refusal";
    case "exact_match":
      return zeroWork !== "refusal" && sameList(zeroWork, truth);
    case "fuzzy_match":
      return zeroWork !== "refusal" && tokenF1(zeroWork[0] ?? "", truth[0] ?? "") >= FUZZY_PASS_F1;
  }
}

/**
 * How far a pass rate is above the floor, as a share of the room above it: 0 at the floor, 1 at
 * a perfect score, negative below the floor. Null when the floor is 1 (refusing is the whole
 * answer on privacy categories): there is nothing to lift over.
 */
export function lift(passRate: number, floorRate: number): number | null {
  return floorRate >= 1 ? null : (passRate - floorRate) / (1 - floorRate);
}
