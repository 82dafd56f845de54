export { type Calibration, CalibrationSchema, type CategoryCalibration, calibrationDigest, fieldsReadBy, measureCalibration, optimumFor } from "./calibration.js";
export { decodings } from "./decodings.js";
export {
  type DimensionEvidence,
  type DimensionSpec,
  defaultWeights,
  dimensionColumn,
  dimensionNames,
  dimensionSpec,
  dimensionSpecs,
  type EvidenceName,
  efficiency,
  LOOK_AROUND,
  type NotApplicable,
  notApplicable,
  orderDimensions,
  registerDimension,
  successOf,
} from "./dimensions/index.js";
export { type DimensionOutcome, driftExposure, measureSignals, scoreDimensions, totalScore } from "./dimensions.js";
export { type Disclosure, observedDisclosure } from "./disclosure.js";
export { actionContents, type ScoringContext, scoreEpisode, shownToUser } from "./episode.js";
export { entityKindFor, extractAnswers } from "./extract.js";
export { type ChanceFloorPlan, ChanceFloorPlanSchema, type FloorTask, floorAnswers, floorPasses, lift } from "./floor.js";
export { createJudge, HeuristicJudge, type Judge, LlmJudge, OfflineProvider, offlineJudge, type Verdict } from "./judge.js";
export { normalizeAnswer, pythonSplit, tokenF1 } from "./normalize.js";
export { FUZZY_PASS_F1, groundTruth, type ScoredTask, scoreOriginal } from "./original.js";
export { disclosurePrompt, extractionPrompt, JUDGE_INPUT_BUDGET, parseDisclosure, parseExtraction, parsePrivacy, privacyPrompt } from "./prompts.js";
export { dataIn, isPrivacyRefusal } from "./refusal.js";
export { episodePassed, type SuccessEvidence, type SuccessMethod, SuccessMethodSchema, type SuccessVerdict, SuccessVerdictSchema, scoreSuccess } from "./success.js";
