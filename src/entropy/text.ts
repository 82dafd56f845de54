import type { TaskRecord } from "../tasks/index.js";
import { nameWords } from "../util/index.js";
import { type EntropyPlan, movedFields } from "./plan.js";

/** A task's texts as the purple is shown them. */
export interface TaskText {
  readonly prompt: string;
  readonly requiredContext: string;
  readonly optionalContext: string;
  /** Original field names rewritten to their new names in the texts. */
  readonly renamedInText: readonly string[];
  /** Titles of the passages added to the context. */
  readonly passages: readonly string[];
}

/** The headings around a task's own context when rot adds passages: a careful reader keeps to "This request". */
export const NOTES_HEADING = "## Notes from earlier requests (other records; not this request)";
export const THIS_REQUEST_HEADING = "## This request";
export const REFERENCE_HEADING = "## Additional reference material";

const escapeRegex = (text: string) => text.replace(/[.*+?^${}()|[\]\\]/g, "\\$&");

/**
 * Rewrites the field names a text mentions to the names drift gave them. Only names that read as
 * API names are rewritten (several words run together, or a custom `__c` name: CompanySignedDate,
 * StageName, ContractID__c); single words such as Status are ordinary prose too and stay.
 */
export function driftText(text: string, moved: ReadonlyMap<string, string>): { text: string; renamed: string[] } {
  const renamed = new Set<string>();
  let result = text;
  for (const [original, current] of moved) {
    const { words, custom } = nameWords(original);
    if (words.length < 2 && !custom) continue;
    const pattern = new RegExp(`(?<![A-Za-z0-9_])${escapeRegex(original)}(?![A-Za-z0-9_])`, "g");
    if (pattern.test(result)) {
      renamed.add(original);
      result = result.replace(pattern, current);
    }
  }
  return { text: result, renamed: [...renamed].sort() };
}

/** Every moved field name → its new name (drift moves a name the same way in every object that has it). */
export function movedNames(plan: EntropyPlan): Map<string, string> {
  const names = new Map<string, string>();
  for (const fields of movedFields(plan).values()) for (const [from, to] of fields) names.set(from, to);
  return names;
}

/**
 * A task's texts through the plan: context lines in front, passages after under "Additional
 * reference material", then every moved field name rewritten, passages included.
 */
export function taskText(task: TaskRecord, plan: EntropyPlan, moved: ReadonlyMap<string, string> = movedNames(plan)): TaskText {
  const changes = plan.kinds.flatMap((kind) => kind.text.filter((change) => change.task === task.idx));
  const prefixes = changes.flatMap((change) => (change.op === "prefix_context" ? [change.text] : []));
  const passages = changes.flatMap((change) => (change.op === "add_passage" ? [change] : []));
  const render = (placement: "before" | "after") =>
    passages
      .filter((passage) => passage.placement === placement)
      .map((passage) => `### ${passage.title}\n${passage.text}`)
      .join("\n\n");
  let required = [...prefixes, task.metadata.required].join("\n");
  const before = render("before");
  if (before) required = `${NOTES_HEADING}\n${before}\n\n${THIS_REQUEST_HEADING}\n${required}`;
  const after = render("after");
  if (after) required = `${required}\n\n${REFERENCE_HEADING}\n${after}`;
  const prompt = driftText(task.query, moved);
  const requiredContext = driftText(required, moved);
  const optionalContext = driftText(task.metadata.optional, moved);
  return {
    prompt: prompt.text,
    requiredContext: requiredContext.text,
    optionalContext: optionalContext.text,
    renamedInText: [...new Set([...prompt.renamed, ...requiredContext.renamed, ...optionalContext.renamed])].sort(),
    passages: passages.map((passage) => passage.title),
  };
}

/** A task's texts as they are, without any plan. */
export function plainTaskText(task: TaskRecord): TaskText {
  return { prompt: task.query, requiredContext: task.metadata.required, optionalContext: task.metadata.optional, renamedInText: [], passages: [] };
}
