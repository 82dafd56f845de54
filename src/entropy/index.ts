export { planDrift, driftText, flatRenames, DRIFT_SHARE, type RenameMap } from "./drift.js";
export { distractorRecords, distractorPassages, guidanceOf, ROT_SHARE, ROT_PASSAGES } from "./rot.js";
export { perturbOrg, type PerturbedOrg } from "./apply.js";
