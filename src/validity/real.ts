import { floorAnswers, floorPasses, HeuristicJudge, type Judge, lift, type ScoredTask, scoreOriginal, scoreSuccess } from "../scoring/index.js";
import type { TaskRecord } from "../tasks/index.js";
import { IdRemap, idsIn } from "../util/index.js";
import { AnswerKey, type GamingEntry, gamingRoster, namesAnId, type SeenTask } from "./answer-key.js";

/**
 * The validity suite on the real task distribution, without the org: the org-free gaming purples
 * of answer-key.ts answer every task of the real file as the green agent would show it (with and
 * without the sandbox refresh), and each answer is scored as the benchmark scores it, against the
 * ground truth as the run would score it. Drift and rot need the org, so they are not applied:
 * what is measured is what the public task file is worth on its own.
 */

/** How a run shows the tasks: Ids remapped (with or without the operator's secret in the key) or as in CRMArena-Pro. */
export interface RemapMode {
  readonly label: string;
  readonly remapIds: boolean;
  readonly seed: number;
  /** The operator's secret in the remap's key ("" = the seed alone keys it). */
  readonly secret: string;
}

/** A fixed stand-in for an operator's ENTROPIC_ID_SECRET: the org-free purples never learn it, and fixing it keeps the tables reproducible. */
const OPERATOR_SECRET = "validity-suite operator secret";

/** The modes `npm run validity` measures: remapped with a secret (seeds 1 and 2), remapped with the seed alone, and not remapped. */
export const REMAP_MODES: readonly RemapMode[] = [
  { label: "remap on, seed 1", remapIds: true, seed: 1, secret: OPERATOR_SECRET },
  { label: "remap on, seed 2", remapIds: true, seed: 2, secret: OPERATOR_SECRET },
  { label: "remap on, seed 1, no secret", remapIds: true, seed: 1, secret: "" },
  { label: "remap off", remapIds: false, seed: 1, secret: "" },
];

/** The verdicts an answer gets: CRMArena-Pro's metric, and the benchmark's own `success`. */
export const VERDICTS = ["original", "success"] as const;
export type VerdictName = (typeof VERDICTS)[number];

/** One task's outcome for one strategy in one mode. */
export interface RealOutcome {
  readonly idx: number;
  readonly category: string;
  /** The task's category has ground truths naming Ids (what remapping can hide). */
  readonly idCategory: boolean;
  /** This task's own ground truth names an Id. */
  readonly idAnswer: boolean;
  /** Every Id of this task's ground truth appears in some public task's text (so a run shows its new Id somewhere). */
  readonly idsShown: boolean;
  /** The chance floor's zero-work answer passes this task. */
  readonly floor: boolean;
  readonly passed: Readonly<Record<VerdictName, boolean>>;
}

export interface RealMeasurement {
  readonly strategy: string;
  readonly kind: GamingEntry["kind"];
  readonly remembersRun: boolean;
  readonly mode: RemapMode;
  readonly outcomes: readonly RealOutcome[];
}

/** What the `success` column is, for the doc. */
export const SUCCESS_SOURCE = "the benchmark's own verdict (`scoreSuccess`, src/scoring/success.ts), with no observations (these purples never query)";

/** Both verdicts on an answer: CRMArena-Pro's metric, then the benchmark's own from it, with the shown texts as the evidence. */
async function verdicts(task: ScoredTask, answer: string, taskText: string, judge: Judge): Promise<Record<VerdictName, boolean>> {
  const original = await scoreOriginal(task, answer, [answer], judge);
  const success = await scoreSuccess(task, answer, original, { taskText, observations: [] }, judge);
  return { original: original.passed, success: success.passed };
}

/** What the green agent shows a purple of a task in a mode, and the ground truth it scores against. */
export function showTask(task: TaskRecord, mode: RemapMode, remap: IdRemap | undefined): { seen: SeenTask; truth: (string | null)[] } {
  const text = (value: string) => (remap ? remap.text(value) : value);
  return {
    seen: {
      taskId: remap ? remap.episodeId(task.idx) : String(task.idx),
      category: task.task,
      prompt: text(task.query),
      requiredContext: text(task.metadata.required),
      optionalContext: text(task.metadata.optional),
      seed: mode.seed,
    },
    truth: remap ? remap.answer(task.answer) : [...task.answer],
  };
}

function idsShown(task: TaskRecord, key: AnswerKey): boolean {
  const ids = task.answer.flatMap((value) => (value === null ? [] : idsIn(value)));
  return ids.length > 0 && ids.every((id) => key.publicTextIds.has(id));
}

/** Runs every org-free purple on every task in every mode. Pure but for the (heuristic, deterministic) judge; seconds for 2,140 tasks. */
export async function runRealSuite(
  tasks: readonly TaskRecord[],
  options: {
    readonly modes?: readonly RemapMode[];
    readonly roster?: readonly GamingEntry[];
    readonly judge?: Judge;
    /** The public file the purples hold, when it is not the tasks run (the twins: the real file their wording comes from). */
    readonly publicFile?: readonly TaskRecord[];
  } = {},
): Promise<RealMeasurement[]> {
  const key = new AnswerKey(options.publicFile ?? tasks);
  const idCategories = key.idCategories();
  const judge = options.judge ?? new HeuristicJudge();
  const measurements: RealMeasurement[] = [];
  for (const mode of options.modes ?? REMAP_MODES) {
    const remap = mode.remapIds ? IdRemap.forRun(mode.seed, mode.secret) : undefined;
    const plan = floorAnswers(tasks, { remapIds: mode.remapIds });
    const shown = tasks.map((task) => ({ task, ...showTask(task, mode, remap) }));
    const context = { key, run: shown.map((entry) => entry.seen) };
    for (const entry of options.roster ?? gamingRoster()) {
      const outcomes: RealOutcome[] = [];
      for (const { task, seen, truth } of shown) {
        const answer = entry.strategy(seen, context);
        const scored: ScoredTask = { task: task.task, reward_metric: task.reward_metric, answer: truth };
        outcomes.push({
          idx: task.idx,
          category: task.task,
          idCategory: idCategories.has(task.task),
          idAnswer: namesAnId(task.answer.map((value) => value ?? "None")),
          idsShown: idsShown(task, key),
          floor: floorPasses(plan, { category: task.task, rewardMetric: task.reward_metric, answer: truth }),
          passed: await verdicts(scored, answer, `${seen.prompt}\n${seen.requiredContext}\n${seen.optionalContext}`, judge),
        });
      }
      measurements.push({ strategy: entry.name, kind: entry.kind, remembersRun: entry.remembersRun ?? false, mode, outcomes });
    }
  }
  return measurements;
}

/** Which tasks a figure counts. */
export const GROUPS = ["all", "id", "other"] as const;
export type Group = (typeof GROUPS)[number];
const inGroup = (outcome: RealOutcome, group: Group) => group === "all" || (group === "id") === outcome.idCategory;

/** A strategy's figures on a group of tasks: pass and floor rates (0-1) and the lift over the floor. */
export interface RealFigure {
  readonly tasks: number;
  readonly passed: number;
  readonly floorPassed: number;
  readonly pass: number;
  readonly floor: number;
  readonly lift: number | null;
}

export function figure(outcomes: readonly RealOutcome[], verdict: VerdictName, group: Group = "all", category?: string): RealFigure {
  const counted = outcomes.filter((outcome) => inGroup(outcome, group) && (category === undefined || outcome.category === category));
  const passed = counted.filter((outcome) => outcome.passed[verdict]).length;
  const floorPassed = counted.filter((outcome) => outcome.floor).length;
  const pass = counted.length === 0 ? 0 : passed / counted.length;
  const floor = counted.length === 0 ? 0 : floorPassed / counted.length;
  return { tasks: counted.length, passed, floorPassed, pass, floor, lift: lift(pass, floor) };
}
