export { scoreOriginal, groundTruth, FUZZY_PASS_F1, type OriginalScore, type JudgeRecord } from "./original.js";
export { isPrivacyRefusal } from "./privacy-heuristic.js";
export { createJudge, offlineJudge, HeuristicJudge, LlmJudge, OfflineProvider, type Judge, type Verdict, type VerdictSource } from "./judge.js";
export { extractionPrompt, privacyPrompt, parseExtraction, parsePrivacy } from "./prompts.js";
export { normalizeAnswer, pythonSplit, tokenF1 } from "./normalize.js";
export { extractAnswers, entityKindFor } from "./extract.js";
export {
  DIMENSIONS,
  DIMENSION_WEIGHTS,
  measureSignals,
  scoreDimensions,
  totalScore,
  type Dimension,
  type DimensionScores,
  type EpisodeSignals,
} from "./dimensions.js";
export { scoreEpisode, type EpisodeScore } from "./episode.js";
export { judgeFactoryFromEnv } from "./judge-from-env.js";
export { optimalQueries, measureOptimum, OPTIMUM_FILE, type OptimumFile } from "./optimum.js";
