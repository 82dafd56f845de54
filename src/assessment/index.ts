export { type Assessed, type AssessOptions, assess, DEFAULT_JOURNAL_BUDGET_MB, JournalExistsError, journalBudgetBytes, journalPath } from "./assess.js";
export type { AssessmentData } from "./assessment-data.js";
export {
  type AssessmentConfig,
  AssessmentConfigSchema,
  CONFIG_KEYS,
  CONFIG_LIMITS,
  ConfigError,
  type ConfigFlag,
  type ConfigKeyFlag,
  checkEpisodeCount,
  configFlags,
  configKeyFlags,
  episodeCount,
  LEVELS,
  type Level,
  nearestConfigKey,
  type ParsedConfig,
  parseConfig,
  unknownKeysMessage,
} from "./config.js";
export { checkDataMatch, type DataCheck, DataMismatchError, MISSING_ID_TOLERANCE } from "./data-check.js";
export { type EpisodeOptions, type EpisodeWorld, runEpisode } from "./episode.js";
export { type EpisodeUser, type Heard, simulatedUser, wholeRequestUser } from "./episode-user.js";
export { JOURNAL_REPLY_CHARS, MEMORY_TEXT_CHARS, type TextLease, trimForMemory, WholeTextBudget } from "./held-texts.js";
export { incompatibleWords, type OutcomeKind, outcomeOf, type RunEnd, type SessionOutcome, statusWords, terminalWords } from "./outcome.js";
export { type FollowUp, type PoolOptions, runChains, runPool } from "./pool.js";
export { isPurpleFailure, scoreRecord, trimRecord } from "./recorder.js";
export { type RecordedResults, readResults, rescore } from "./rescore.js";
export {
  type AssessmentEvent,
  CANCELED,
  type EpisodeItem,
  episodePlan,
  episodeTask,
  laterEpisode,
  RecordingFailure,
  type RunContext,
  type RunOptions,
  runAssessment,
  taskChains,
  WHOLE_TEXTS,
} from "./run.js";
export { purpleIdentityOf } from "./run-id.js";
export { type RunSpec, type RunSpecInput, RunSpecSchema, runSpecFor } from "./run-spec.js";
export { type ChosenTasks, chooseTasks, type Selection, type SelectionMode, selectTasks } from "./select.js";
export {
  type Admission,
  admitSession,
  type CheckedRequest,
  checkRequest,
  INCOMPATIBLE,
  PARTICIPANT_FIELD,
  PROTOCOL_FIELD,
  PURPLE_GONE,
  type RunDeps,
  runSession,
  type SessionControls,
  type SessionDeps,
  type SessionEvent,
  type SessionPlan,
  SessionRejection,
  type SessionRequest,
  type SpendCeiling,
} from "./session.js";
export { type ChannelAnswer, type ChannelDoor, type ChannelEpisode, REFUSAL_PAUSE_MS, SIDE_CALLS_IN_FLIGHT, SideCalls, type ToolChannel } from "./side-calls.js";
