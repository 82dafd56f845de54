export { servePurple, serveAgent, type Strategy, type TaskInfo, type Tools, type ServePurpleOptions, type ReportedUsage } from "./server.js";
export { oracleStrategy, REFUSAL } from "./oracle.js";
export { solverStrategy, naiveStrategy, naiveAllRowsStrategy } from "./solver.js";
export { alwaysNoneStrategy, refuseAllStrategy, randomIdStrategy, fakeRecoveryStrategy, floodStrategy } from "./degenerate.js";
export { serveLlmPurple, llmPurpleConfigFromEnv, LLM_MODES, type LlmMode } from "./llm/index.js";
