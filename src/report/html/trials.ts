import { fixed, percent } from "../view/index.js";
import { type Html, html } from "./escape.js";
import type { ModelOfTrials } from "./model.js";
import { chart, rate } from "./parts.js";

const range = (interval: readonly [number, number] | null | undefined, asRate = true) =>
  interval ? html`${asRate ? percent(interval[0]) : fixed(interval[0], 3)}–${asRate ? percent(interval[1]) : fixed(interval[1], 3)}` : html`<span class="na">n/a</span>`;
const ratio = (value: number | null) => (value === null ? html`<span class="na">n/a</span>` : html`${fixed(value, 3)}`);

/** Trials: pass^k with its interval, overall and per category. Nothing without trials. */
export function trialsSection(model: ModelOfTrials): Html {
  const trials = model.results.trials;
  if (!trials) return html``;
  const ks = Object.keys(trials.pass_hat);
  const row = (name: string, figures: typeof trials) =>
    html`<tr><th>${name}</th><td>${figures.tasks}</td>${ks.map((k) => html`<td data-figure="pass-hat-${k}">${rate(figures.pass_hat[k])} <span class="muted">[${range(figures.interval[k])}]</span></td>`)}</tr>`;
  return html`<section id="trials"><h2>Trials: pass^k</h2>
    <p>Each task ran ${trials.k} times. pass^k is the chance that k trials of a task drawn at random all pass (τ-bench's unbiased estimator, averaged over tasks); pass^1 is the mean pass rate. In brackets its 95% interval (${trials.interval_method}).</p>
    <table><thead><tr><th></th><th>tasks</th>${ks.map((k) => html`<th>pass^${k}</th>`)}</tr></thead>
    <tbody>${row("overall", trials)}${Object.entries(trials.by_category).map(([category, figures]) => row(category, { ...trials, ...figures }))}</tbody></table>
  </section>`;
}

/** Robustness of a paired run: clean versus perturbed, per category, and what each perturbation kind cost. */
export function robustnessSection(model: ModelOfTrials): Html {
  const robustness = model.results.robustness;
  if (!robustness) return html``;
  const row = (name: string, figures: typeof robustness) =>
    html`<tr><th>${name}</th><td>${figures.tasks}</td><td>${rate(figures.clean.pass_rate)}</td><td>${rate(figures.perturbed.pass_rate)}</td><td data-figure="ratio">${ratio(figures.ratio)} <span class="muted">[${range(figures.ratio_interval, false)}]</span></td><td>${figures.lost}</td></tr>`;
  const kinds = Object.entries(robustness.by_kind);
  return html`<section id="robustness"><h2>Robustness: clean versus perturbed</h2>
    <p>Every episode also ran in a clean view of the org (drift and rot none, the same Ids and seed). The ratio is the perturbed pass rate over the clean one: 1 is no loss, 0.5 half the clean answers lost; in brackets its 95% bootstrap interval. Lost: trials that passed clean and failed perturbed.</p>
    ${chart(model.charts.find((spec) => spec.id === "chart-robustness"))}
    <table><thead><tr><th></th><th>tasks</th><th>clean</th><th>perturbed</th><th>ratio</th><th>lost</th></tr></thead>
    <tbody>${row("overall", robustness)}${Object.entries(robustness.by_category).map(([category, figures]) => row(category, { ...robustness, ...figures }))}</tbody></table>
    <h3>What each perturbation kind cost</h3>
    <p>Over the perturbed episodes a kind touched (it changed the task's text, moved a field the task needs, or showed it a distractor record): those whose clean twin passed, and how many of them failed.</p>
    <table><thead><tr><th>kind</th><th>family</th><th>touched</th><th>clean passed</th><th>lost</th><th>loss rate</th></tr></thead>
    <tbody>${kinds.map(([kind, entry]) => html`<tr><th>${kind}</th><td>${entry.family}</td><td>${entry.touched}</td><td>${entry.clean_passed}</td><td data-figure="lost-${kind}">${entry.lost}</td><td>${rate(entry.loss_rate)}</td></tr>`)}</tbody></table>
  </section>`;
}
