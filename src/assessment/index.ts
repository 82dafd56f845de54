export { parseConfig, ConfigError, AssessmentConfigSchema, CONFIG_KEYS, LEVELS, type AssessmentConfig, type Level, type ParsedConfig } from "./config.js";
export { selectTasks, type Selection, type SelectionMode } from "./select.js";
export { runAssessment, briefFor, isPurpleFailure, type AssessmentData, type AssessmentEvent, type AssessmentRun, type DatasetKind, type TaskOutcome } from "./run.js";
export { runEpisode, type EpisodeOptions } from "./episode.js";
export { actionContents, queryText, type Trajectory, type TrajectoryStep, type Termination } from "./trajectory.js";
export { assess, type AssessOptions } from "./assess.js";
export { rescore, readResults, readTrajectories, type RecordedResults } from "./rescore.js";
