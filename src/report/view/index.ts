export { parseReportResults, ReportResultsSchema, ResultsInputError, type ReportResults, type TaskEntry, type CompactStep } from "./input.js";
export { episodeViews, COMPACT_CHARS, type EpisodeView, type StepView, type DimensionView, type EntropyEvents } from "./episode.js";
export { showText, episodeIndexText, type ShowOptions } from "./show.js";
export { printable, clip, indent, fixed, percent, signed } from "./terminal.js";
