export { type Family, type KindPlan, LEVELS, type Level, LevelSchema, type PerturbationKind, type PlanInput, planAtOnce, type TextChange, TextChangeSchema } from "./kind.js";
export { guidanceOf, SUPERSEDED_TITLE } from "./kinds/index.js";
export {
  type EntropyInput,
  type EntropyLevels,
  EntropyLevelsSchema,
  type EntropyPlan,
  EntropyPlanSchema,
  movedFields,
  type PlannedKind,
  PlannedKindSchema,
  type PlanSummary,
  planChanges,
  planDigest,
  planEntropy,
  planEntropyInSlices,
  summarisePlan,
} from "./plan.js";
export { perturbationKinds, registerPerturbation } from "./registry.js";
export { driftText, movedNames, NOTES_HEADING, plainTaskText, REFERENCE_HEADING, type TaskText, THIS_REQUEST_HEADING, taskText } from "./text.js";
