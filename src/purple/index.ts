export {
  A2APurpleClient,
  describeError,
  fetchAgentCard,
  type PurpleClient,
  PurpleError,
  type PurpleFailureKind,
  type PurpleTurn,
  participantEndpoint,
  type ReportedUsage,
  usageFrom,
  withTrailingSlash,
} from "./client.js";
