export { COMPACT_CHARS, type DimensionView, type EntropyEvents, type EpisodeView, episodeViews, type StepView } from "./episode.js";
export { type CompactStep, parseReportResults, type ReportResults, ReportResultsSchema, ResultsInputError, resultsDimensions, type TaskEntry } from "./input.js";
export { episodeIndexText, type ShowOptions, showText } from "./show.js";
export { clip, fixed, indent, percent, printable, signed } from "./terminal.js";
