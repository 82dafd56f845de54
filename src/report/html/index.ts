export { reportModel, type ReportInput, type ReportModel, type CategoryRow, type EpisodeCard } from "./model.js";
export { renderReport, type ReportAssets } from "./document.js";
export { chartSpecs, type ChartSpec } from "./charts.js";
export { entropyModel, type EntropyModel, type EntropyGroup, type FieldChange, type PerturbationRow } from "./entropy.js";
export { escapeHtml, jsonForScript, html, Html } from "./escape.js";
