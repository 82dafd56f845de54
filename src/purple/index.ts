export { fetchAgentCard, type PurpleCard, withTrailingSlash } from "./card.js";
export { type CardObservations, type CardVerdict, cardCheckLines, type Flow, GATEWAY_CARD_READER, gatewayCardProblems, judgeCard, observeCard, SDK_FIXES } from "./card-check.js";
export {
  A2APurpleClient,
  a2aPurpleClients,
  type PurpleClient,
  type PurpleClientFactory,
  type PurpleClientOptions,
  type PurpleTurn,
  participantEndpoint,
  type SessionPurpleOptions,
} from "./client.js";
export { describeError, PurpleError, type PurpleFailureKind, PurpleGoneError } from "./errors.js";
export { REPLY_JSON_DEPTH } from "./fetch.js";
export { A2A_VERSIONS, type A2AVersion, chooseProtocol, type ProtocolChoice, type ProtocolRefusal } from "./protocol-version.js";
export { type ReportedUsage, stateName, taskReplyParts, usageFrom } from "./reply.js";
export { DEFAULT_RETRY_SECONDS, RETRY_ENV, RetryWindow, type RetryWindowOptions, retryWindowFromEnv } from "./retry-window.js";
export { VersionChoice, type VersionChoiceOptions, type VersionedExchange } from "./version-choice.js";
