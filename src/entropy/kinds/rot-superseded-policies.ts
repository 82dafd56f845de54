import { Random } from "../../util/index.js";
import { type KindPlan, type PerturbationKind, planAtOnce, type TextChange } from "../kind.js";
import type { Share } from "./rot-common.js";
import { guidanceOf } from "./rot-passages.js";

const SHARE: Share = { none: 0, low: 0.25, medium: 0.5, high: 1 };
const SUPERSEDED_FROM = "2018-01-01";
const CURRENT_FROM = "2020-01-01";

/** The heading of a superseded version: a careful agent reads it and skips what follows. */
export const SUPERSEDED_TITLE = `Superseded version of this policy (in force ${SUPERSEDED_FROM} to 2019-12-31; replaced by the current policy of this task)`;

/**
 * An older version of a policy: its thresholds moved and two of its "label: value" rules
 * swapped. Undefined when the text has neither (there is nothing an old version could disagree on).
 */
export function supersede(policy: string, rng: Random): string | undefined {
  let changed = false;
  let text = policy.replace(/(?<![\d-])\b\d{1,3}\b(?![\d-])/g, (number) => {
    changed = true;
    return String(Number(number) + rng.int(1, 3));
  });
  const rules = text
    .split("\n")
    .map((line, index) => ({ index, match: /^(\s*[-*]?\s*[A-Z][\w ]{1,40}):\s+(.+)$/.exec(line) }))
    .filter((entry) => entry.match);
  if (rules.length >= 2) {
    const [a, b] = rng.sample(rules, 2);
    const lines = text.split("\n");
    lines[a!.index] = `${a!.match![1]}: ${b!.match![2]}`;
    lines[b!.index] = `${b!.match![1]}: ${a!.match![2]}`;
    text = lines.join("\n");
    changed = true;
  }
  return changed && text !== policy ? text : undefined;
}

/**
 * Superseded policies in the context, as wikis keep them: an older, dated version of the task's
 * own policy with other thresholds and rules, and the current one marked as replacing it. An
 * agent that reads the dates uses the current policy; one that reads everything mixes them.
 */
export const supersededPolicies: PerturbationKind = {
  name: "rot.superseded_policies",
  family: "rot",
  description: "an older, dated version of the task's own policy in its context, the current one marked as replacing it",
  plan(input): KindPlan {
    return planAtOnce(this.planSteps!(input));
  },
  *planSteps(input): Generator<void, KindPlan, void> {
    const text: TextChange[] = [];
    if (input.level !== "none") {
      for (const task of input.tasks) {
        yield;
        const rng = new Random(`${this.name}:${input.seed}:${input.level}:${task.idx}`);
        if (!rng.chance(SHARE[input.level])) continue;
        const old = supersede(guidanceOf(task.metadata.required), rng);
        if (!old) continue;
        text.push({ op: "prefix_context", task: task.idx, text: `(Current policy, in force since ${CURRENT_FROM}; it replaces every earlier version.)` });
        text.push({ op: "add_passage", task: task.idx, title: SUPERSEDED_TITLE, text: old, placement: "after" });
      }
    }
    const tasks = text.length / 2;
    return { summary: `superseded policy versions in ${tasks} task contexts`, changes: [], text, distractorIds: [] };
  },
};
