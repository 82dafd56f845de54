export { type AssessOptions, assess, JournalExistsError, journalPath } from "./assess.js";
export { type AssessmentConfig, AssessmentConfigSchema, CONFIG_KEYS, ConfigError, LEVELS, type Level, type ParsedConfig, parseConfig } from "./config.js";
export { checkDataMatch, type DataCheck, DataMismatchError, MISSING_ID_TOLERANCE } from "./data-check.js";
export { type EpisodeOptions, type EpisodeWorld, runEpisode, trimForMemory } from "./episode.js";
export { type RecordedResults, readResults, rescore } from "./rescore.js";
export { type AssessmentData, type AssessmentEvent, CANCELED, episodeTask, isPurpleFailure, type RunOptions, runAssessment, scoreRecord } from "./run.js";
export { runIdFor } from "./run-id.js";
export { type Selection, type SelectionMode, selectTasks } from "./select.js";
