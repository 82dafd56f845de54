export { type Action, ActionSchema, type ActionSource, ActionSourceSchema, callOf, findJsonObject, parseAction, queryText, type ToolCall } from "./actions.js";
export { describeObjects } from "./describe.js";
export {
  countedMcpAccess,
  dropAllNullColumns,
  FIRST_MESSAGE_FORMATS,
  type FirstMessageFormat,
  formatReminder,
  type McpAccess,
  type OutgoingMessage,
  observationMessage,
  type TaskBrief,
  taskMessage,
  USER_PREFIX,
  userMessage,
} from "./messages.js";
export { type PurpleReply, replyText, shownTexts } from "./reply.js";
export { definitionsOf, TOOL_DEFINITIONS, type ToolDefinition } from "./tools.js";
