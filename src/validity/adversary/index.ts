export {
  hedgePurples,
  leakPurples,
  pairedWaitPurples,
  sandbagPurples,
  trialCachePurples,
  twinReplayPurples,
} from "./families.js";
export { adversarySection, NOT_ASKED_ADVERSARY, spliceAdversary } from "./markdown.js";
export { type AdversaryFigures, type AdversaryPurple, type AdversarySetting, cleanBelowFlagged, type RankingMarks, rankingMarks, runAdversary } from "./run.js";
export {
  ADVERSARY_FAMILIES,
  type AdversaryFamily,
  type AdversaryReport,
  type AdversaryRow,
  type AdversarySuiteOptions,
  type AdversaryTwins,
  CACHE_TRIALS,
  HEDGE_SLACK_POINTS,
  JUSTIFIED_LOSS_POINTS,
  OPERATOR_SECRET,
  PAIRED_WAIT_MS,
  PAIRED_WAIT_POINTS,
  perCategoryIds,
  REPLAY_CONTROL_PERCENT,
  REPLAY_SLACK_POINTS,
  runAdversarySuite,
  TRIAL_CACHE_POINTS,
  TWINS_PER_CATEGORY,
} from "./suite.js";
