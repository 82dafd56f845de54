export {
  ADVERSARY_FAMILIES,
  type AdversaryFamily,
  type AdversaryReport,
  type AdversaryRow,
  type AdversaryTwins,
  adversarySection,
  CACHE_TRIALS,
  NOT_ASKED_ADVERSARY,
  OPERATOR_SECRET,
  runAdversarySuite,
  spliceAdversary,
} from "./adversary/index.js";
export {
  AnswerKey,
  alwaysNone,
  categoryPrior,
  type GamingContext,
  type GamingEntry,
  type GamingStrategy,
  gamingRoster,
  indexLookup,
  looksRemapped,
  priorHedge,
  refuseByCategory,
  type SeenTask,
  seedReplay,
  textLookup,
  translatedLookup,
} from "./answer-key.js";
export { type CheckResult, checkRanking, DIMENSION_SLACK, LOOK_AROUND_FLOORS, LOOK_AROUND_LOSS, SOLVER_FLOOR, TOTAL_SLACK } from "./checks.js";
export { type RealReport, type SampleReport, spliceTwinKeys, twinKeysBlock, twinKeysSection, validityMarkdown } from "./markdown.js";
export {
  figure,
  GROUPS,
  type Group,
  REMAP_MODES,
  type RealFigure,
  type RealMeasurement,
  type RealOutcome,
  type RemapMode,
  runRealSuite,
  SUCCESS_SOURCE,
  showTask,
  VERDICTS,
  type VerdictName,
} from "./real.js";
export { checkRealDistribution, REAL_SLACK_POINTS } from "./real-checks.js";
export { FLAKY_WRONG_ANSWER, flakes, flakyStrategy, type RosterEntry, roster } from "./roster.js";
export { type ConnectedPurple, type EpisodeFigure, type Measurement, runSuite, type SuiteOptions, servedPurple } from "./run.js";
export {
  FLAKY_SHARE,
  type KeySpread,
  runTwinKeySpread,
  standardDeviation,
  TWIN_KEY_SPREAD_GOAL_POINTS,
  type TwinKeysOptions,
  type TwinKeysReport,
  twinKeyRoster,
  twinKeySecret,
} from "./twin-keys.js";
export {
  ANALYST_GOALS,
  type AnswerChange,
  answerChanges,
  categoryPassRates,
  type MemorisationFigure,
  majorityShare,
  memorisationOnTwins,
  runTwinsSuite,
  summariseMissing,
  TWIN_LEVELS,
  TWIN_LOOKUP_SLACK_POINTS,
  TWIN_SEEDS,
  type TwinSeed,
  type TwinsReport,
  type TwinsSuiteOptions,
  twinRoster,
} from "./twins.js";
