import { BUILT_IN_KINDS } from "./kinds/index.js";
import { registerPerturbation } from "./plan.js";

for (const kind of BUILT_IN_KINDS) registerPerturbation(kind);

export {
  LEVELS,
  LevelSchema,
  TextChangeSchema,
  EntropyPlanSchema,
  PlannedKindSchema,
  registerPerturbation,
  perturbationKinds,
  planEntropy,
  planChanges,
  movedFields,
  planDigest,
  summarisePlan,
  type Level,
  type Family,
  type TextChange,
  type KindPlan,
  type PlanInput,
  type PerturbationKind,
  type PlannedKind,
  type EntropyPlan,
  type EntropyInput,
  type PlanSummary,
} from "./plan.js";
export { driftText, movedNames, taskText, plainTaskText, NOTES_HEADING, THIS_REQUEST_HEADING, REFERENCE_HEADING, type TaskText } from "./text.js";
export { SUPERSEDED_TITLE, guidanceOf } from "./kinds/index.js";
