export { parseConfig, ConfigError, AssessmentConfigSchema, CONFIG_KEYS, LEVELS, type AssessmentConfig, type Level, type ParsedConfig } from "./config.js";
export { selectTasks, type Selection, type SelectionMode } from "./select.js";
export { runAssessment, isPurpleFailure, episodeTask, scoreRecord, CANCELED, type AssessmentData, type AssessmentEvent, type RunOptions } from "./run.js";
export { runEpisode, trimForMemory, type EpisodeOptions, type EpisodeWorld } from "./episode.js";
export { checkDataMatch, DataMismatchError, MISSING_ID_TOLERANCE, type DataCheck } from "./data-check.js";
export { runIdFor } from "./run-id.js";
export { assess, journalPath, JournalExistsError, type AssessOptions } from "./assess.js";
export { rescore, readResults, type RecordedResults } from "./rescore.js";
