import { dimensionColumn } from "../../scoring/index.js";
import type { Comparison, Delta, RunSide } from "../compare.js";
import { type Html, html } from "./escape.js";
import type { ReportModel } from "./model.js";
import { chart, delta, num, rate, taskLinks } from "./parts.js";

const side = (run: RunSide, role: string) =>
  html`<tr><th>${role}</th><td>${run.label}</td><td>${run.runId}</td><td>${run.agent}</td><td class="num">${run.tasks}</td><td>${run.dataset}</td><td>${run.driftLevel} / ${run.rotLevel}</td><td class="num">${run.seed}</td></tr>`;

const rateRow = (label: string, d: Delta) =>
  html`<tr><td>${label}</td><td class="num">${rate(d.before)}</td><td class="num">${rate(d.after)}</td><td class="num">${delta(d.delta === null ? null : d.delta * 100, 1, " pp")}</td></tr>`;
const scoreRow = (label: string, d: Delta) =>
  html`<tr><td>${label}</td><td class="num">${num(d.before)}</td><td class="num">${num(d.after)}</td><td class="num">${delta(d.delta)}</td></tr>`;

function flips(comparison: Comparison, direction: "broken" | "fixed"): Html {
  const list = comparison.flipped.filter((flip) => flip.direction === direction);
  if (list.length === 0) return html`<p class="muted">None.</p>`;
  return html`<table><thead><tr><th>task</th><th>category</th><th class="num">score, baseline</th><th class="num">score, this run</th><th>this run ended</th></tr></thead><tbody>${list.map(
    (flip) =>
      html`<tr><td><a href="#task-${flip.idx}">${flip.idx}</a></td><td>${flip.category}</td><td class="num">${num(flip.scoreBefore)}</td><td class="num">${num(flip.scoreAfter)}</td><td>${flip.terminationAfter}</td></tr>`,
  )}</tbody></table>`;
}

/** The same figures as `compare BASELINE THIS`: deltas are this run − the baseline. */
export function comparisonSection(model: ReportModel): Html {
  const c = model.comparison;
  if (!c) return html``;
  const chartOf = (id: string) => model.charts.find((spec) => spec.id === id);
  return html`<section id="comparison"><h2>Comparison with ${c.before.label}</h2>
    <p>Deltas are this run − the baseline (pp = percentage points); n/a where a side has no value. <code>entropic-crmarena compare</code> prints the same with the baseline first.</p>
    <table><thead><tr><th></th><th>file</th><th>run</th><th>agent</th><th class="num">tasks</th><th>dataset</th><th>drift / rot</th><th class="num">seed</th></tr></thead>
      <tbody>${side(c.before, "baseline")}${side(c.after, "this run")}</tbody></table>
    ${
      c.configDifferences.length === 0
        ? html`<p>The config is the same in both runs.</p>`
        : html`<h3>Config differences</h3><table><thead><tr><th>key</th><th>baseline</th><th>this run</th></tr></thead><tbody>${c.configDifferences.map((d) => html`<tr><td>${d.key}</td><td><code>${d.before}</code></td><td><code>${d.after}</code></td></tr>`)}</tbody></table>`
    }
    ${c.onlyBefore.length > 0 ? html`<p>Only in the baseline: ${c.onlyBefore.join(", ")}</p>` : html``}
    ${c.onlyAfter.length > 0 ? html`<p>Only in this run: ${taskLinks(c.onlyAfter)}</p>` : html``}
    <div class="grid"><div><h3>Overall</h3><table data-comparison="overall"><thead><tr><th></th><th class="num">baseline</th><th class="num">this run</th><th class="num">Δ</th></tr></thead><tbody>
      ${rateRow("pass rate", c.passRate)}${scoreRow("avg score", c.avgScore)}${rateRow("chance floor", c.floor)}${rateRow("lift over the floor", c.lift)}${c.dimensionNames.map((dimension) => scoreRow(dimension, c.dimensions[dimension]!))}
    </tbody></table></div>${chart(chartOf("chart-compare-dimensions"))}</div>
    <h3>Per category</h3>
    <div class="wide"><table data-comparison="categories"><thead><tr><th>category</th><th class="num">tasks</th><th class="num">pass rate</th><th class="num">Δ pass</th><th class="num">avg score</th><th class="num">Δ score</th><th class="num">lift</th><th class="num">Δ lift</th>
      ${c.dimensionNames.map((dimension) => html`<th class="num" title="Δ ${dimension}">Δ ${dimensionColumn(dimension, "report")}</th>`)}</tr></thead><tbody>
      ${c.categories.map(
        (
          row,
        ) => html`<tr><td>${row.category}</td><td class="num">${row.countBefore} → ${row.countAfter}</td><td class="num">${rate(row.passRate.before)} → ${rate(row.passRate.after)}</td><td class="num">${delta(row.passRate.delta === null ? null : row.passRate.delta * 100, 1, " pp")}</td>
          <td class="num">${num(row.avgScore.before)} → ${num(row.avgScore.after)}</td><td class="num">${delta(row.avgScore.delta)}</td>
          <td class="num">${rate(row.lift.before)} → ${rate(row.lift.after)}</td><td class="num" data-lift-delta="${row.category}">${delta(row.lift.delta === null ? null : row.lift.delta * 100, 1, " pp")}</td>${c.dimensionNames.map((dimension) => html`<td class="num">${delta(row.dimensions[dimension]?.delta ?? null)}</td>`)}</tr>`,
      )}</tbody></table></div>
    ${chart(chartOf("chart-compare-categories"))}
    <h3>Flipped: pass → fail (${c.flipped.filter((flip) => flip.direction === "broken").length})</h3>${flips(c, "broken")}
    <h3>Flipped: fail → pass (${c.flipped.filter((flip) => flip.direction === "fixed").length})</h3>${flips(c, "fixed")}
  </section>`;
}
