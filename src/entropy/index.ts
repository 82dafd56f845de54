import { BUILT_IN_KINDS } from "./kinds/index.js";
import { registerPerturbation } from "./plan.js";

for (const kind of BUILT_IN_KINDS) registerPerturbation(kind);

export { guidanceOf, SUPERSEDED_TITLE } from "./kinds/index.js";
export {
  type EntropyInput,
  type EntropyPlan,
  EntropyPlanSchema,
  type Family,
  type KindPlan,
  LEVELS,
  type Level,
  LevelSchema,
  movedFields,
  type PerturbationKind,
  type PlanInput,
  type PlannedKind,
  PlannedKindSchema,
  type PlanSummary,
  perturbationKinds,
  planChanges,
  planDigest,
  planEntropy,
  registerPerturbation,
  summarisePlan,
  type TextChange,
  TextChangeSchema,
} from "./plan.js";
export { driftText, movedNames, NOTES_HEADING, plainTaskText, REFERENCE_HEADING, type TaskText, THIS_REQUEST_HEADING, taskText } from "./text.js";
