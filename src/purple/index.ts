export {
  A2APurpleClient,
  describeError,
  fetchAgentCard,
  type PurpleCard,
  type PurpleClient,
  type PurpleClientOptions,
  PurpleError,
  type PurpleFailureKind,
  type PurpleTurn,
  participantEndpoint,
  withTrailingSlash,
} from "./client.js";
export { REPLY_JSON_DEPTH } from "./fetch.js";
export { A2A_VERSIONS, type A2AVersion, chooseProtocol, type ProtocolChoice, type ProtocolRefusal } from "./protocol-version.js";
export { type ReportedUsage, stateName, taskReplyParts, usageFrom } from "./reply.js";
