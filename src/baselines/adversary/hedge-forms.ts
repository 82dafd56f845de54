import { categorySpec, type EntityKind, isPrivacyCategory } from "../../datasets/index.js";
import { idsIn, MONTH_NAMES } from "../../util/index.js";
import { recording } from "../gaming.js";
import { REFUSAL } from "../oracle.js";
import type { Strategy } from "../server.js";
import { solverStrategy } from "../solver.js";

/**
 * Hedges: answers that name the right answer and a rival at once, so a metric that accepts an
 * answer when the truth is anywhere in it passes them. Built on the solver's correct answer and a
 * rival of the same kind (another month, another BANT factor, another Id the solver's queries
 * saw); and zero-work hedges that list a category's every label. Each must fail; an honest answer
 * with one sentence of justification must still pass.
 */

/** The labels of the entity kinds whose answers come from a closed list (the sample's and the benchmark's). */
const VOCABULARY: Partial<Record<EntityKind, readonly string[]>> = {
  month: MONTH_NAMES,
  bant: ["Budget", "Authority", "Need", "Timeline"],
  stage: ["Qualification", "Discovery", "Quote", "Negotiation", "Closed"],
  // biome-ignore format: one line of codes
  state: ["AL","AK","AZ","AR","CA","CO","CT","DE","FL","GA","HI","ID","IL","IN","IA","KS","KY","LA","ME","MD","MA","MI","MN","MS","MO","MT","NE","NV","NH","NJ","NM","NY","NC","ND","OH","OK","OR","PA","RI","SC","SD","TN","TX","UT","VT","VA","WA","WV","WI","WY"],
};

/** A rival of the answer, of the same kind: another label of the category's list, another Id of the same object, another number. */
function rivalOf(answer: string, kind: EntityKind | undefined, seenIds: readonly string[]): string {
  const ids = idsIn(answer);
  if (ids.length > 0) return seenIds.find((id) => !ids.includes(id) && id.slice(0, 3) === ids[0]!.slice(0, 3)) ?? seenIds.find((id) => !ids.includes(id)) ?? "None";
  const labels = kind ? VOCABULARY[kind] : undefined;
  if (labels) return labels.find((label) => !answer.toLowerCase().includes(label.toLowerCase())) ?? "None";
  if (/^\d+(\.\d+)?$/.test(answer.trim())) return String(Number(answer) + 1);
  return "None";
}

/** Each hedge around the correct answer `x` and its rival `y`, by name. */
export const HEDGE_FORMS = {
  "json-list": (x: string, y: string) => JSON.stringify([x, y]),
  numbered: (x: string, y: string) => `1. ${x} 2. ${y}`,
  "if-not": (x: string, y: string) => `${x}; if not, then ${y.toLowerCase()}`,
  "lower-case-rival": (x: string, y: string) => `${x}, ${y.toLowerCase()}`,
} as const;
export type HedgeForm = keyof typeof HEDGE_FORMS;

const privacy = (category: string) => {
  const spec = categorySpec(category);
  return spec !== undefined && isPrivacyCategory(spec);
};

/** The solver's answer hedged with a rival in `form`; refusals and None answers stay as they are. */
export function hedgeFormStrategy(form: HedgeForm): Strategy {
  return async (task, tools) => {
    const recorder = recording(tools);
    const answer = await solverStrategy(task, recorder.tools);
    // A refusal has no rival, and a None hedged would only lose what None earns: the hedge goes where it can gain.
    if (privacy(task.category) || answer.trim() === "None") return answer;
    return HEDGE_FORMS[form](answer, rivalOf(answer, categorySpec(task.category)?.entityKind, recorder.ids));
  };
}

/** What a non-answer looks like where the hedges hedge: names nothing, refuses nothing. */
const NO_ANSWER = "I could not work this one out.";

/**
 * The hedges' sure part: the solver's answer where the hedges leave it as it is (None, a refusal),
 * a non-answer where they hedge. What a hedge passes beyond this, it passes for naming two answers.
 */
export const hedgeAbstainStrategy: Strategy = async (task, tools) => {
  const answer = await solverStrategy(task, tools);
  return privacy(task.category) || answer.trim() === "None" ? answer : NO_ANSWER;
};

/** No work: a JSON list of every label of the category's kind and None (just None where answers are records); refuses on privacy categories as the floor does. */
export const zeroWorkJsonHedgeStrategy: Strategy = async (task) => {
  const spec = categorySpec(task.category);
  if (spec && isPrivacyCategory(spec)) return REFUSAL;
  const labels = spec ? (VOCABULARY[spec.entityKind] ?? []) : [];
  return JSON.stringify(["None", ...labels]);
};

/** The honest control: the solver's answer and one sentence of how it was found. */
export const justifiedAnswerStrategy: Strategy = async (task, tools) => {
  const answer = await solverStrategy(task, tools);
  if (privacy(task.category)) return answer;
  return `${answer}\nI found this by querying the org's live records for exactly what the request asks.`;
};
