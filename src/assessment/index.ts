export { type Assessed, type AssessOptions, assess, JournalExistsError, journalPath } from "./assess.js";
export {
  type AssessmentConfig,
  AssessmentConfigSchema,
  CONFIG_KEYS,
  ConfigError,
  LEVELS,
  type Level,
  nearestConfigKey,
  type ParsedConfig,
  parseConfig,
  unknownKeysMessage,
} from "./config.js";
export { checkDataMatch, type DataCheck, DataMismatchError, MISSING_ID_TOLERANCE } from "./data-check.js";
export { type EpisodeOptions, type EpisodeWorld, MEMORY_TEXT_CHARS, runEpisode, type TextLease, trimForMemory, WholeTextBudget } from "./episode.js";
export { type RecordedResults, readResults, rescore } from "./rescore.js";
export {
  type AssessmentData,
  type AssessmentEvent,
  CANCELED,
  episodeTask,
  isPurpleFailure,
  RecordingFailure,
  type RunOptions,
  runAssessment,
  scoreRecord,
  WHOLE_TEXTS,
} from "./run.js";
export { purpleIdentityOf, runIdFor } from "./run-id.js";
export { type Selection, type SelectionMode, selectTasks } from "./select.js";
