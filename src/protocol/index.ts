export { parseAction, findJsonObject, queryText, executeRequest, type ExecuteRequest, ActionSchema, ActionSourceSchema, type Action, type ActionSource } from "./actions.js";
export { taskMessage, observationMessage, formatReminder, dropAllNullColumns, type TaskBrief, type OutgoingMessage, type ObservedOutcome } from "./messages.js";
export { describeObjects, type DescribedObject, type DescribedField } from "./describe.js";
export { TOOL_DEFINITIONS, TOOL_NAMES, ToolArgumentSchemas, type ToolName, type OrgToolCall } from "./tools.js";
export { replyText, type PurpleReply } from "./reply.js";
