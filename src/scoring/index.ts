export { scoreOriginal, groundTruth, FUZZY_PASS_F1, type ScoredTask } from "./original.js";
export { isPrivacyRefusal } from "./privacy-heuristic.js";
export { createJudge, offlineJudge, HeuristicJudge, LlmJudge, OfflineProvider, type Judge, type Verdict } from "./judge.js";
export { extractionPrompt, privacyPrompt, parseExtraction, parsePrivacy } from "./prompts.js";
export { normalizeAnswer, pythonSplit, tokenF1 } from "./normalize.js";
export { extractAnswers, entityKindFor } from "./extract.js";
export { DEFAULT_WEIGHTS, measureSignals, scoreDimensions, totalScore, driftExposure, type DimensionOutcome } from "./dimensions.js";
export { scoreEpisode, actionContents, type ScoringContext } from "./episode.js";
export { CalibrationSchema, calibrationDigest, measureCalibration, optimumFor, fieldsReadBy, type Calibration, type CategoryCalibration } from "./calibration.js";
