import type { TaskRecord } from "../../tasks/index.js";
import { Random } from "../../util/index.js";
import { type KindPlan, type PerturbationKind, planAtOnce, type TextChange } from "../kind.js";

/** A category's reusable guidance: its required context without the task-specific lines (Ids, dates, regions). */
export function guidanceOf(requiredContext: string): string {
  return requiredContext
    .split("\n")
    .map((line) => line.trimEnd())
    .filter((line) => !/Today's date|to be considered|Id interacting|logged in as|region:|[a-zA-Z0-9]{3}Wt[a-zA-Z0-9]{10}/i.test(line))
    .join("\n")
    .replace(/\n{3,}/g, "\n\n")
    .trim();
}

/** Per category, the guidance of its first task with some (what other categories' tasks can be distracted with). */
export function guidanceByCategory(tasks: readonly TaskRecord[]): Map<string, string> {
  const guidance = new Map<string, string>();
  for (const task of tasks) {
    const text = guidanceOf(task.metadata.required);
    if (text.length > 40 && !guidance.has(task.task)) guidance.set(task.task, text);
  }
  return guidance;
}

/** A passage's title: its first line, without Markdown heading marks. */
export const titleOf = (text: string) =>
  text
    .split("\n")[0]!
    .replace(/^#+\s*/, "")
    .slice(0, 120);

/** A passage's body: what follows its first line when that line is a heading, else all of it. */
export const bodyOf = (text: string) => (/^#+\s/.test(text) ? text.split("\n").slice(1).join("\n").trim() : text);

/** Per level: notes of other requests put before a task's context, and other categories' guidance after it. */
const DOSE = { none: [0, 0], low: [1, 0], medium: [1, 1], high: [2, 2] } as const;

/**
 * Distractor passages, as a CRM's context accretes them: notes from earlier requests about other
 * records (another task's whole context, its Ids and dates included) in front of the task's own
 * context, and other categories' guidance after it as reference material. Nothing in them is
 * about this request: a reader who keeps to "This request" loses nothing; one who takes the
 * first Id or date in sight takes another record's.
 */
export const distractorPassages: PerturbationKind = {
  name: "rot.distractor_passages",
  family: "rot",
  description: "notes from earlier requests about other records before a task's context, other categories' guidance after it",
  plan(input): KindPlan {
    return planAtOnce(this.planSteps!(input));
  },
  *planSteps(input): Generator<void, KindPlan, void> {
    const [notes, guides] = DOSE[input.level];
    const text: TextChange[] = [];
    if (notes + guides > 0) {
      const { library, candidatesFor } = passagesOf(input.library);
      for (const task of input.tasks) {
        const rng = new Random(`${this.name}:${input.seed}:${input.level}:${task.idx}`);
        // Notes of the same kind of request are the likeliest to be mistaken for this one: as many
        // as there are, then other kinds. (Taking other kinds only when too few of the same exist
        // made a higher level easier than a lower one on a small task set.)
        const candidates = candidatesFor(task.task);
        const same = candidates.same.filter((other) => other.idx !== task.idx);
        const fromSame = Math.min(notes, same.length);
        const chosen = [
          ...rng.sample(same, fromSame),
          ...rng.sample(
            candidates.otherKinds.filter((other) => other.idx !== task.idx),
            notes - fromSame,
          ),
        ];
        for (const note of chosen) {
          text.push({ op: "add_passage", task: task.idx, title: `Notes from request ${note.idx}`, text: note.metadata.required.trim(), placement: "before" });
        }
        for (const [, passage] of rng.sample(
          library.filter(([category]) => category !== task.task),
          guides,
        )) {
          text.push({ op: "add_passage", task: task.idx, title: titleOf(passage), text: bodyOf(passage), placement: "after" });
        }
        yield;
      }
    }
    return { summary: `${text.length} distractor passages over ${new Set(text.map((change) => change.task)).size} tasks`, changes: [], text, distractorIds: [] };
  },
};

/** What the passages are drawn from, of one task set: the same for every request on it. */
interface PassageLibrary {
  /** Each category's guidance, by category name. */
  readonly library: readonly (readonly [string, string])[];
  /** A category's candidate notes: the tasks with a context, of the category and of the others. */
  readonly candidatesFor: (category: string) => { readonly same: readonly TaskRecord[]; readonly otherKinds: readonly TaskRecord[] };
}

/**
 * A task set's passage library, worked out once per task set (kept while the set is): it reads
 * every task of the set (2,140, not the request's few), about 10 ms a request at any rot level.
 * The candidate notes of each category are found once too (per task they made planning
 * quadratic in the task count: seconds on the event loop for the full task set).
 */
function passagesOf(tasks: readonly TaskRecord[]): PassageLibrary {
  let known = passageLibraries.get(tasks);
  if (!known) {
    const library = [...guidanceByCategory(tasks)].sort(([a], [b]) => a.localeCompare(b));
    const withContext = tasks.filter((other) => other.metadata.required.trim().length > 0);
    const byCategory = new Map<string, { same: TaskRecord[]; otherKinds: TaskRecord[] }>();
    const candidatesFor = (category: string) => {
      let found = byCategory.get(category);
      if (!found) {
        found = { same: withContext.filter((other) => other.task === category), otherKinds: withContext.filter((other) => other.task !== category) };
        byCategory.set(category, found);
      }
      return found;
    };
    known = { library, candidatesFor };
    passageLibraries.set(tasks, known);
  }
  return known;
}

const passageLibraries = new WeakMap<readonly TaskRecord[], PassageLibrary>();
