import { createHash } from "node:crypto";
import { CLIENT_SCRIPT } from "./client.js";
import { comparisonSection } from "./comparison.js";
import { episodesSection } from "./episodes.js";
import { html, jsonForScript, trusted } from "./escape.js";
import type { ReportModel } from "./model.js";
import { categoriesSection, configSection, dimensionsSection, entropySection, summarySection } from "./sections.js";
import { STYLE } from "./style.js";
import { robustnessSection, trialsSection } from "./trials.js";

/** The libraries the page inlines; the CLI reads them from node_modules. */
export interface ReportAssets {
  /** Chart.js' UMD bundle (chart.js/dist/chart.umd.js). */
  readonly chartJs: string;
}

const sha256 = (text: string) => `'sha256-${createHash("sha256").update(text, "utf8").digest("base64")}'`;

/** A script's text made safe to inline: no `</script` can end the element early, and no source map is fetched. */
function inlineScript(source: string): string {
  return source.replace(/\n\/\/# sourceMappingURL=\S*\s*$/, "\n").replace(/<\/script/gi, "<\\/script");
}

/**
 * The report as one self-contained HTML document: styles, Chart.js, the page's script and the
 * data are inline, and the Content-Security-Policy lets only those two scripts run (by hash) and
 * nothing load from the network, so the page works from file:// and a `<script>` that escaped
 * escaping would still not run.
 */
export function renderReport(model: ReportModel, assets: ReportAssets): string {
  const chartJs = inlineScript(assets.chartJs);
  const client = inlineScript(CLIENT_SCRIPT);
  const csp = `default-src 'none'; script-src ${sha256(chartJs)} ${sha256(client)}; style-src 'unsafe-inline'; img-src data:; base-uri 'none'; form-action 'none'`;
  const r = model.results;
  const data = { charts: model.charts };
  const body = html`<header class="top">
  <h1>Entropic CRMArena report: ${r.participants.agent}</h1>
  <p>Run <code>${r.run.id}</code> · ${r.timestamp} UTC · ${r.dataset} dataset · ${model.label}</p>
  <p>${r.summary.total_passed} of ${r.summary.total_tasks} tasks passed · drift ${r.extension_metrics.drift_level}, rot ${r.extension_metrics.rot_level}, seed ${r.seed}</p>
</header>
<nav class="toc"><a href="#summary">Summary</a><a href="#categories">Categories</a><a href="#dimensions">Dimensions</a><a href="#entropy">Drift and rot</a>${r.trials ? html`<a href="#trials">Trials</a>` : html``}${r.robustness ? html`<a href="#robustness">Robustness</a>` : html``}${model.comparison ? html`<a href="#comparison">Comparison</a>` : html``}<a href="#config">Configuration</a><a href="#episodes">Episodes</a></nav>
<main>
${summarySection(model)}
${categoriesSection(model)}
${dimensionsSection(model)}
${entropySection(model)}
${trialsSection(model)}
${robustnessSection(model)}
${comparisonSection(model)}
${configSection(model)}
${episodesSection(model)}
</main>`;
  return `<!DOCTYPE html>
<html lang="en">
<head>
<meta charset="utf-8">
<meta http-equiv="Content-Security-Policy" content="${csp}">
<meta name="viewport" content="width=device-width, initial-scale=1">
<title>${html`Entropic CRMArena report: ${r.participants.agent} (${r.run.id})`}</title>
<style>${STYLE}</style>
</head>
<body>
${body}
<script type="application/json" id="report-data">${jsonForScript(data)}</script>
<script type="application/json" id="report-texts">${jsonForScript(model.texts)}</script>
<script>${trusted(chartJs)}</script>
<script>${trusted(client)}</script>
</body>
</html>
`;
}
