import type { TaskRecord } from "../../tasks/schema.js";
import { Random } from "../../util/random.js";
import type { KindPlan, PerturbationKind, TextChange } from "../plan.js";

const PASSAGES_PER_TASK = { none: 0, low: 0, medium: 1, high: 2 } as const;

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
export const titleOf = (text: string) => text.split("\n")[0]!.replace(/^#+\s*/, "").slice(0, 120);

/** A passage's body: what follows its first line when that line is a heading, else all of it. */
export const bodyOf = (text: string) => (/^#+\s/.test(text) ? text.split("\n").slice(1).join("\n").trim() : text);

/**
 * Distractor passages: other categories' guidance added to a task's context as reference
 * material. Task-specific lines are dropped, so a passage never contradicts the task's own
 * instructions; it only costs attention.
 */
export const distractorPassages: PerturbationKind = {
  name: "rot.distractor_passages",
  family: "rot",
  description: "guidance of other task categories added to a task's context as reference material",
  plan(input): KindPlan {
    const count = PASSAGES_PER_TASK[input.level];
    const text: TextChange[] = [];
    if (count > 0) {
      const library = [...guidanceByCategory(input.library)].sort(([a], [b]) => a.localeCompare(b));
      for (const task of input.tasks) {
        const rng = new Random(`${this.name}:${input.seed}:${input.level}:${task.idx}`);
        const others = library.filter(([category]) => category !== task.task);
        for (const [, passage] of rng.sample(others, count)) text.push({ op: "add_passage", task: task.idx, title: titleOf(passage), text: bodyOf(passage) });
      }
    }
    return { summary: `${text.length} distractor passages over ${new Set(text.map((change) => change.task)).size} tasks`, changes: [], text, distractorIds: [] };
  },
};
