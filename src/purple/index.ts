export { type CardObservations, type CardVerdict, cardCheckLines, type Flow, GATEWAY_CARD_READER, gatewayCardProblems, judgeCard, observeCard, SDK_FIXES } from "./card-check.js";
export {
  A2APurpleClient,
  a2aPurpleClients,
  DEFAULT_RETRY_SECONDS,
  describeError,
  fetchAgentCard,
  type PurpleCard,
  type PurpleClient,
  type PurpleClientFactory,
  type PurpleClientOptions,
  PurpleError,
  type PurpleFailureKind,
  PurpleGoneError,
  type PurpleTurn,
  participantEndpoint,
  RETRY_ENV,
  retryWindowFromEnv,
  type SessionPurpleOptions,
  withTrailingSlash,
} from "./client.js";
export { REPLY_JSON_DEPTH } from "./fetch.js";
export { A2A_VERSIONS, type A2AVersion, chooseProtocol, type ProtocolChoice, type ProtocolRefusal } from "./protocol-version.js";
export { type ReportedUsage, stateName, taskReplyParts, usageFrom } from "./reply.js";
