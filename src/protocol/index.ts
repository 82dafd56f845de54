export { parseAction, findJsonObject, queryText, ActionSchema, ActionSourceSchema, type Action, type ActionSource } from "./actions.js";
export { taskMessage, observationMessage, formatReminder, dropAllNullColumns, type TaskBrief, type OutgoingMessage } from "./messages.js";
export { TOOL_DEFINITIONS, TOOL_NAMES, ToolArgumentSchemas, type ToolName, type OrgToolCall } from "./tools.js";
export { replyText, type PurpleReply } from "./reply.js";
