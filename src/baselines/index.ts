export { analystStrategy, type CategorySolver } from "./analyst/index.js";
export { alwaysNoneStrategy, fakeRecoveryStrategy, floodStrategy, randomIdStrategy, refuseAllStrategy } from "./degenerate.js";
export { errorOptInStrategy, leakingRefusalStrategy, lookAroundStrategy, otherIdFormsStrategy, unneededIdsStrategy, verboseCorrectStrategy } from "./gaming.js";
export { LLM_MODES, type LlmMode, llmPurpleConfigFromEnv, serveLlmPurple } from "./llm/index.js";
export { oracleStrategy, REFUSAL } from "./oracle.js";
export { type ReportedUsage, type ServePurpleOptions, type Strategy, StrategyResponder, serveAgent, servePurple, type TaskInfo, type Tools } from "./server.js";
export { naiveAllRowsStrategy, naiveStrategy, solverStrategy } from "./solver.js";
