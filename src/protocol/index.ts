export { type Action, ActionSchema, type ActionSource, ActionSourceSchema, type ExecuteRequest, executeRequest, findJsonObject, parseAction, queryText } from "./actions.js";
export { type DescribedField, type DescribedObject, describeObjects } from "./describe.js";
export {
  dropAllNullColumns,
  FIRST_MESSAGE_FORMATS,
  type FirstMessageFormat,
  formatReminder,
  type ObservedOutcome,
  type OutgoingMessage,
  observationMessage,
  type TaskBrief,
  taskMessage,
} from "./messages.js";
export { type PurpleReply, replyText } from "./reply.js";
export { type OrgToolCall, TOOL_DEFINITIONS, TOOL_NAMES, ToolArgumentSchemas, type ToolName } from "./tools.js";
