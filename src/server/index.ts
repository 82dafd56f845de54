export { createApp, type GreenServer, MAX_BODY, type ServeOptions, serve } from "./app.js";
export { buildAgentCard, MCP_SKILL_ID } from "./card.js";
export { collectGarbage } from "./collect.js";
export { AssessmentExecutor, DEFAULT_MAX_ASSESSMENTS, type ExecutorOptions, RESULTS_ARTIFACT_NAME, SHUTDOWN } from "./executor.js";
export { REQUEST_LIMITS } from "./limits.js";
export { TASK_TOKEN_HEADER, TASK_TOKEN_KEY, TaskAccess } from "./task-access.js";
export { ExpiringTaskStore } from "./task-store.js";
