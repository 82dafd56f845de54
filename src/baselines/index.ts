export {
  earlierReplyLeakStrategy,
  flakyStrategy,
  HEDGE_FORMS,
  type HedgeForm,
  hedgeAbstainStrategy,
  hedgeFormStrategy,
  justifiedAnswerStrategy,
  LEAK_FORMS,
  type LeakForm,
  leakFormStrategy,
  looksClean,
  pairedWaitStrategy,
  privateValues,
  rebuildTwins,
  SANDBAG_ANSWER,
  sandbagStrategy,
  serveAdversary,
  splitLeakStrategy,
  type TwinReplayOptions,
  trialCacheStrategy,
  twinReplayStrategy,
  withAside,
  zeroWorkJsonHedgeStrategy,
} from "./adversary/index.js";
export { analystStrategy, type CategorySolver } from "./analyst/index.js";
export { alwaysNoneStrategy, fakeRecoveryStrategy, floodStrategy, randomIdStrategy, refuseAllStrategy } from "./degenerate.js";
export { errorOptInStrategy, leakingRefusalStrategy, lookAroundStrategy, otherIdFormsStrategy, unneededIdsStrategy, verboseCorrectStrategy } from "./gaming.js";
export { LLM_MODES, type LlmMode, llmPurpleConfigFromEnv, serveLlmPurple } from "./llm/index.js";
export { oracleStrategy, REFUSAL } from "./oracle.js";
export { type ServePurpleOptions, type Strategy, StrategyResponder, serveAgent, servePurple, type TaskInfo, type Tools, type UsageMetadata } from "./server.js";
export { naiveAllRowsStrategy, naiveStrategy, solverStrategy } from "./solver.js";
