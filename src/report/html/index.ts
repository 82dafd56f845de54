export { type ChartSpec, chartSpecs } from "./charts.js";
export { type ReportAssets, renderReport } from "./document.js";
export { type EntropyGroup, type EntropyModel, entropyModel, type FieldChange, type PerturbationRow } from "./entropy.js";
export { escapeHtml, Html, html, jsonForScript } from "./escape.js";
export { type CategoryRow, type EpisodeCard, type ReportInput, type ReportModel, reportModel } from "./model.js";
