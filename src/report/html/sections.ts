import { dimensionColumn, dimensionSpec } from "../../scoring/index.js";
import { builtWith } from "../summary.js";
import type { FieldChange } from "./entropy.js";
import { type Html, html } from "./escape.js";
import type { ReportModel } from "./model.js";
import { chart, facts, num, rate, taskLinks, value } from "./parts.js";

const chartOf = (model: ReportModel, id: string) => model.charts.find((spec) => spec.id === id);

/** The headline figures. */
export function summarySection(model: ReportModel): Html {
  const r = model.results;
  const card = (label: string, figure: string, content: Html | string, sub: Html | string) =>
    html`<div class="card"><div class="label">${label}</div><div class="value" data-figure="${figure}">${content}</div><div class="sub">${sub}</div></div>`;
  const verdicts = Object.entries(r.judge.verdicts)
    .filter(([, count]) => count > 0)
    .map(([source, count]) => `${count} ${source}`)
    .join(", ");
  const notAnswered = Object.entries(r.terminations).filter(([name, count]) => name !== "answered" && count > 0);
  return html`<section id="summary"><h2>Summary</h2><div class="cards">
    ${card("pass rate", "pass-rate", rate(r.summary.pass_rate), `${r.summary.total_passed} of ${r.summary.total_tasks} ${r.trials ? "episodes" : "tasks"} passed`)}
    ${card("average score", "avg-score", num(r.summary.avg_score), "mean total_score, failures as 0")}
    ${card("chance floor", "floor", rate(r.summary.floor), r.summary.floor === null ? (r.chance_floor.reason ?? "not recorded") : `${r.summary.floor_passed} of ${r.summary.total_tasks} tasks: what a zero-work purple passes`)}
    ${card("lift over the floor", "lift", rate(r.summary.lift), r.summary.lift === null ? (r.summary.floor === null ? "no floor to lift over" : "the floor is 100%: nothing to lift over") : "(pass − floor) / (1 − floor)")}
    ${card("CRMArena-Pro accuracy", "accuracy", r.original.scores.accuracy_percent === null ? html`<span class="na">skipped</span>` : html`${r.original.scores.accuracy_percent}%`, "over the scored tasks")}
    ${card("drift / rot", "entropy", `${r.extension_metrics.drift_level} / ${r.extension_metrics.rot_level}`, `seed ${r.seed}`)}
    ${card("judge", "judge", r.judge.mode, verdicts || "no verdicts")}
    ${card("status", "status", r.status ?? "unknown", `${r.timing.total_seconds} s wall, ${r.timing.avg_seconds_per_task} s per task`)}
    ${card("not answered", "not-answered", String(notAnswered.reduce((sum, [, count]) => sum + count, 0)), notAnswered.map(([name, count]) => `${name} ${count}`).join(", ") || "every episode ended with an answer")}
  </div></section>`;
}

/** How the run was configured: config, seed, data, judge, weights, calibration, timing. */
export function configSection(model: ReportModel): Html {
  const r = model.results;
  const sources = r.data_sources;
  const usage = r.judge.usage
    ? Object.entries(r.judge.usage).map(
        ([role, u]) => [`usage (${role})`, `${u.calls} calls, ${u.failures} failures, ${u.input_tokens} in / ${u.output_tokens} out tokens`] as const,
      )
    : [];
  return html`<section id="config"><h2>How the run was configured</h2><div class="grid">
    <div><h3>Run</h3>${facts([
      ["agent", r.participants.agent],
      ["run id", r.run.id],
      ["status", r.status ?? "unknown"],
      ["timestamp (UTC)", r.timestamp],
      ["shard", `${r.run.shard_index + 1} of ${r.run.num_shards}`],
      ["selection", `${r.run.selection.mode}: ${r.run.selection.size} tasks, ${r.run.selection.in_this_shard} in this shard`],
      ["seed", String(r.seed)],
      ["results layout", r.version],
      [
        "green agent",
        r.green_agent
          ? `${r.green_agent.name} ${Object.entries(r.green_agent.versions)
              .map(([k, v]) => `${k} ${v}`)
              .join(", ")}`
          : "unknown",
      ],
      ["trajectories", model.source],
    ])}</div>
    <div><h3>Config</h3>${facts(Object.entries(r.config).map(([key, raw]) => [key, value(raw)] as const))}
      ${r.ignored_config_keys.length > 0 ? html`<p class="warning">Ignored config keys: ${r.ignored_config_keys.join(", ")}</p>` : html``}</div>
    <div><h3>Data</h3>${facts([
      ["dataset", r.dataset],
      ...(sources
        ? ([
            ["tasks", `${sources.tasks.path} (${sources.tasks.kind})`],
            ...(sources.tasks.builtFrom
              ? ([
                  [
                    "built from",
                    `${sources.tasks.builtFrom.source.path} (sha256 ${sources.tasks.builtFrom.source.sha256}), ${builtWith(sources.tasks.builtFrom)}, builder version ${sources.tasks.builtFrom.version}; ${sources.tasks.builtFrom.missing.length} source tasks without a twin`,
                  ],
                ] as const)
              : []),
            ["org", `${sources.org.path} (${sources.org.kind})`],
            ...(sources.check
              ? ([
                  [
                    "data check",
                    `${sources.check.referenced_ids} record Ids referenced, ${sources.check.missing_ids} missing${sources.check.allowed_mismatch ? " (mismatch allowed)" : ""}${sources.check.examples.length ? `: ${sources.check.examples.join(", ")}` : ""}`,
                  ],
                ] as const)
              : []),
          ] as const)
        : []),
    ])}</div>
    <div><h3>Judge</h3>${facts([
      ["mode", r.judge.mode],
      ["primary model", r.judge.primary_model ?? "none"],
      ["cheap model", r.judge.cheap_model ?? "none"],
      [
        "verdicts",
        Object.entries(r.judge.verdicts)
          .map(([source, count]) => `${source} ${count}`)
          .join(", "),
      ],
      ...usage,
    ])}</div>
    <div><h3>Weights of the dimensions in total_score</h3>${facts(Object.entries(r.weights).map(([dimension, weight]) => [dimension, weight.toFixed(2)] as const))}</div>
    <div><h3>Calibration and timing</h3>${facts([
      ["calibration", r.calibration ? r.calibration.source : "unknown"],
      ["calibration digest", r.calibration?.digest ?? "unknown"],
      ["wall time", `${r.timing.total_seconds} s`],
      ["purple / green time", `${r.timing.purple_agent_seconds} s / ${r.timing.green_agent_seconds} s (purple ${r.timing.purple_agent_percent}%)`],
      ["per task", `${r.timing.avg_seconds_per_task} s`],
      [
        "terminations",
        Object.entries(r.terminations)
          .map(([name, count]) => `${name} ${count}`)
          .join(", "),
      ],
    ])}</div>
  </div></section>`;
}

/** Pass rate, average score and every dimension per category. */
export function categoriesSection(model: ReportModel): Html {
  return html`<section id="categories"><h2>Scores per category</h2>
    ${chart(chartOf(model, "chart-categories"))}
    <h3>Per category (dimension means over the episodes where each applies)</h3>
    <div class="wide"><table><thead><tr><th>category</th><th class="num">tasks</th><th class="num">passed</th><th class="num">pass rate</th><th class="num">avg score</th>
      <th class="num" title="the pass rate of a zero-work purple on these tasks">floor</th><th class="num" title="(pass − floor) / (1 − floor)">lift</th>
      ${model.dimensions.map((dimension) => html`<th class="num" title="${dimension}">${dimensionColumn(dimension, "report")}</th>`)}<th></th></tr></thead>
    <tbody>${model.categories.map(
      (
        row,
      ) => html`<tr data-category-row="${row.category}"><td>${row.category}</td><td class="num">${row.count}</td><td class="num">${row.passed}</td><td class="num">${rate(row.passRate)}</td><td class="num" data-avg-score="${row.category}">${num(row.avgScore)}</td>
        <td class="num" data-floor="${row.category}">${rate(row.floor)}</td><td class="num" data-lift="${row.category}">${rate(row.lift)}</td>
        ${model.dimensions.map((dimension) => html`<td class="num">${num(row.dimensions[dimension] ?? null)}</td>`)}<td><a href="#episodes" data-show-category="${row.category}">episodes</a></td></tr>`,
    )}</tbody></table></div>
    <p class="muted">${model.dimensions.map((dimension) => `${dimensionColumn(dimension, "report")} = ${dimension}`).join(", ")}. n/a: the dimension applied to no episode of the category.
      Floor: the pass rate of a zero-work purple (${model.results.chance_floor.strategy ?? model.results.chance_floor.reason ?? "not recorded"}); lift = (pass − floor) / (1 − floor), n/a where the floor is unknown or 100%.</p>
  </section>`;
}

/** The dimensions: overall, and each one per category. */
export function dimensionsSection(model: ReportModel): Html {
  const r = model.results;
  return html`<section id="dimensions"><h2>The dimensions</h2>
    <div class="grid">${chart(chartOf(model, "chart-dimensions"))}
    <div><table><thead><tr><th>dimension</th><th class="num">mean</th><th class="num">episodes where it applies</th><th class="num">weight</th></tr></thead><tbody>
      ${model.dimensions.map((dimension) => {
        const applied = model.episodes.filter((card) => card.view.dimensions.some((d) => d.name === dimension && d.value !== null)).length;
        // A dimension this build does not know (a results file of another build) is shown by its name alone.
        return html`<tr><td title="${dimensionSpec(dimension)?.description ?? "not a dimension of this build"}">${dimension}</td><td class="num" data-dimension="${dimension}">${num(r.dimension_averages[dimension])}</td><td class="num">${applied} of ${model.episodes.length}</td><td class="num">${(r.weights[dimension] ?? 0).toFixed(2)}</td></tr>`;
      })}</tbody></table>
      <p class="muted">n/a: the dimension applied to no episode (each episode's reasons are in its scores).</p></div></div>
    <h3>Each dimension per category</h3>
    <div class="grid">${model.dimensions.map((dimension) => chart(chartOf(model, `chart-dimension-${dimension}`)))}</div>
  </section>`;
}

function fieldChange(change: FieldChange): Html {
  switch (change.kind) {
    case "renamed":
      return html`<code>${change.field}</code> → <code>${change.detail}</code>`;
    case "copied":
      return html`<code>${change.field}</code> copied to <code>${change.detail}</code>`;
    case "annotated":
      return html`<code>${change.field}</code> annotated (${change.detail})`;
    case "added":
      return html`<code>${change.field}</code> added`;
    case "set":
      return html`<code>${change.field}</code> set on ${change.detail} records`;
  }
}

/** What drift changed and rot injected, and which episodes it touched. */
export function entropySection(model: ReportModel): Html {
  const e = model.entropy;
  const groupRows = (groups: ReportModel["entropy"]["groups"], links: boolean) =>
    groups.map(
      (group) =>
        html`<tr><td>${group.label}</td><td class="num">${group.idxs.length}</td><td class="num">${group.passed}</td><td class="num">${rate(group.idxs.length === 0 ? null : group.passed / group.idxs.length)}</td><td>${links ? taskLinks(group.idxs) : html``}</td></tr>`,
    );
  const groupTable = (title: string, groups: ReportModel["entropy"]["groups"], first: string) =>
    groups.length === 0
      ? html``
      : html`<h3>${title}</h3><table><thead><tr><th>${first}</th><th class="num">episodes</th><th class="num">passed</th><th class="num">pass rate</th><th>tasks</th></tr></thead><tbody>${groupRows(groups, true)}</tbody></table>`;
  const changedCount = e.fieldChanges.reduce((sum, object) => sum + object.changes.length, 0);
  const injectedCount = e.injected.reduce((sum, object) => sum + object.count, 0);
  return html`<section id="entropy"><h2>Drift and rot</h2>
    <p>Drift <b>${e.driftLevel}</b>, rot <b>${e.rotLevel}</b>, seed ${e.seed}: drift changed ${changedCount} fields of ${e.fieldChanges.length} objects; rot injected ${injectedCount} distractor records into ${e.injected.length} objects.</p>
    ${
      e.perturbations.length === 0
        ? html``
        : html`<h3>Perturbations</h3><table><thead><tr><th>kind</th><th>family</th><th>level</th><th>what it did</th><th class="num">org changes</th><th class="num">text changes</th><th class="num">distractor records</th></tr></thead><tbody>${e.perturbations.map(
            (row) =>
              html`<tr><td>${row.kind}</td><td>${row.family}</td><td>${row.level}</td><td>${row.summary}</td><td class="num">${row.changes}</td><td class="num">${row.textChanges}</td><td class="num">${row.distractors}</td></tr>`,
          )}</tbody></table>`
    }
    <h3>Which episodes they touched</h3>
    <table><thead><tr><th>episodes</th><th class="num">episodes</th><th class="num">passed</th><th class="num">pass rate</th><th>tasks</th></tr></thead>
      <tbody>${groupRows(e.groups.slice(0, 1), false)}${groupRows(e.groups.slice(1), true)}</tbody></table>
    ${groupTable("Renamed fields the tasks needed (drift exposure)", e.exposures, "field")}
    ${groupTable("Distractor passages in the tasks' context", e.passages, "passage")}
    <h3>Changed by drift</h3>${
      e.fieldChanges.length === 0
        ? html`<p class="muted">No field was changed.</p>`
        : html`<table class="full-width"><thead><tr><th>object</th><th>field → drifted name (and other field changes)</th></tr></thead><tbody>${e.fieldChanges.map(
            (object) => html`<tr><td>${object.object}</td><td>${object.changes.map((change, i) => html`${i > 0 ? ", " : ""}${fieldChange(change)}`)}</td></tr>`,
          )}</tbody></table>`
    }
    <h3>Injected by rot</h3>${
      e.injected.length === 0
        ? html`<p class="muted">No record was injected.</p>`
        : html`<div class="grid">${chart(chartOf(model, "chart-injected"))}<div><table><thead><tr><th>object</th><th class="num">deleted distractor records</th></tr></thead><tbody>${e.injected.map(
            (entry) => html`<tr><td>${entry.object}</td><td class="num">${entry.count}</td></tr>`,
          )}</tbody></table></div></div>`
    }
    ${e.other.length > 0 ? html`<h3>Other entropy keys</h3>${facts(e.other.map((entry) => [entry.key, html`<pre>${entry.value}</pre>`] as const))}` : html``}
  </section>`;
}
