export { createApp, type GreenServer, MAX_BODY, type ServeOptions, serve } from "./app.js";
export { buildAgentCard } from "./card.js";
export { AssessmentExecutor, DEFAULT_MAX_ASSESSMENTS, type ExecutorOptions, RESULTS_ARTIFACT_NAME, SHUTDOWN } from "./executor.js";
export { ExpiringTaskStore } from "./task-store.js";
