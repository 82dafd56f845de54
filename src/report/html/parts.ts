import { fixed, percent, signed } from "../view/index.js";
import type { ChartSpec } from "./charts.js";
import { type Html, type HtmlValue, html } from "./escape.js";

/** Small pieces the sections share. */

/** A number, or a greyed "n/a" for null. */
export function num(value: number | null | undefined, digits = 1): Html {
  return value === null || value === undefined ? html`<span class="na">n/a</span>` : html`${fixed(value, digits)}`;
}

/** A 0..1 rate as a percentage, or n/a. */
export function rate(value: number | null | undefined): Html {
  return value === null || value === undefined ? html`<span class="na">n/a</span>` : html`${percent(value)}`;
}

/** A signed change, coloured by its direction. */
export function delta(value: number | null, digits = 1, unit = ""): Html {
  if (value === null) return html`<span class="na">n/a</span>`;
  const rounded = Number(value.toFixed(digits));
  return html`<span class="${rounded > 0 ? "pos" : rounded < 0 ? "neg" : ""}">${signed(value, digits, unit)}</span>`;
}

/** A placeholder the page's script draws a chart in. */
export function chart(spec: ChartSpec | undefined): Html {
  if (!spec) return html``;
  return html`<figure class="chart"><figcaption>${spec.title}</figcaption><div class="chart-box"><canvas id="${spec.id}" role="img" aria-label="${spec.title}"></canvas></div></figure>`;
}

/** A two-column table of facts. */
export function facts(rows: readonly (readonly [string, HtmlValue])[]): Html {
  return html`<table><tbody>${rows.map(([key, value]) => html`<tr><th>${key}</th><td>${value}</td></tr>`)}</tbody></table>`;
}

/** Links to episodes, at most `limit` of them. */
export function taskLinks(idxs: readonly string[], limit = 40): Html {
  const shown = idxs.slice(0, limit).map((idx) => html`<li><a href="#task-${idx}">${idx}</a></li>`);
  const more = idxs.length > limit ? html`<li class="muted">… and ${idxs.length - limit} more</li>` : html``;
  return html`<ul class="tasks">${shown}${more}</ul>`;
}

/** A config value for a table cell: strings as they are, anything else as JSON. */
export function value(raw: unknown): string {
  if (typeof raw === "string") return raw;
  return JSON.stringify(raw) ?? "(unset)";
}
