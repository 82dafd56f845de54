import type { ObjectInfo } from "../../org/index.js";
import { fieldLabel } from "../../util/index.js";
import type { TaskInfo, Tools } from "../server.js";

/**
 * What an adversary can read off an episode to tell a paired run's clean condition from its
 * perturbed one, with nothing but the public protocol: the levels the crm_task shows, whether
 * `describe_schema` shows a drifted schema (a field renamed away from its label, or deprecated
 * with a replacement), and whether the task's context carries rot's notes and passages.
 */

/** The drift and rot levels the crm_task shows (`entropy.drift_level`, `entropy.rot_level`), when it shows them. */
export function shownLevels(task: TaskInfo): { readonly drift_level?: string; readonly rot_level?: string } {
  const entropy = task.data.entropy as { drift_level?: unknown; rot_level?: unknown } | undefined;
  return {
    ...(typeof entropy?.drift_level === "string" ? { drift_level: entropy.drift_level } : {}),
    ...(typeof entropy?.rot_level === "string" ? { rot_level: entropy.rot_level } : {}),
  };
}

/** A schema drift left visible: a field whose API name is not its label's, or one deprecated for another. */
export function schemaDrifted(objects: readonly ObjectInfo[]): boolean {
  return objects.some((object) => object.fields.some((field) => Boolean(field.replacedBy) || fieldLabel(field.name) !== field.label));
}

/** Rot's marks on a task's context: notes of earlier requests before it, reference material after it. */
export const contextRotted = (task: TaskInfo) => /## This request\n|## Additional reference material/.test(task.requiredContext);

/**
 * Does this episode look like the clean condition of a paired run (or a run at none/none)? The
 * shown levels both none say so at once; otherwise an undrifted schema and an unrotted context do.
 * One `describe_schema` call.
 */
export async function looksClean(task: TaskInfo, tools: Tools): Promise<boolean> {
  const levels = shownLevels(task);
  if (levels.drift_level === "none" && levels.rot_level === "none") return true;
  const described = await tools.describe();
  return !schemaDrifted((described.objects as ObjectInfo[] | undefined) ?? []) && !contextRotted(task);
}

/** The same prompt after whitespace and case: the key siblings of one task share across episodes. */
export const promptKey = (task: TaskInfo) => task.prompt.replace(/\s+/g, " ").trim().toLowerCase();
