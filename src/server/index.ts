export { serve, createApp, MAX_BODY, type ServeOptions, type GreenServer } from "./app.js";
export { RESULTS_ARTIFACT_NAME, SHUTDOWN, DEFAULT_MAX_ASSESSMENTS, AssessmentExecutor, type ExecutorOptions } from "./executor.js";
export { ExpiringTaskStore } from "./task-store.js";
export { buildAgentCard } from "./card.js";
