import type { EntropyPlan } from "../entropy/index.js";
import type { Trajectory } from "../log/index.js";
import { recordKey } from "../util/index.js";

/**
 * The perturbation kinds that touched one episode, from the plan and what the trajectory logged:
 * a kind that changed the task's text (a passage, a prefix), that moved a field the task's
 * category needs (its drift exposure), or whose distractor records showed up in an observation.
 * `distractorId` maps a plan's distractor Id to the Id the purple saw (the run's remap).
 */
export function touchingKinds(plan: EntropyPlan, taskIdx: number, entropy: Trajectory["entropy"], distractorId: (id: string) => string): string[] {
  const exposed = new Set(entropy.driftExposure);
  const seen = new Set(entropy.distractorIdsSeen.map(recordKey));
  return plan.kinds
    .filter((kind) => {
      if (kind.text.some((change) => change.task === taskIdx)) return true;
      const moves = kind.changes.some(
        (change) =>
          (change.op === "rename_field" && exposed.has(`${change.object}.${change.from}`)) ||
          (change.op === "annotate_field" && change.replacedBy !== undefined && exposed.has(`${change.object}.${change.field}`)),
      );
      return moves || kind.distractor_ids.some((id) => seen.has(recordKey(distractorId(id))));
    })
    .map((kind) => kind.kind);
}
