import { fixed } from "../view/index.js";
import { type Html, html } from "./escape.js";
import type { EpisodeCard, ReportModel } from "./model.js";
import { num } from "./parts.js";

function filters(model: ReportModel): Html {
  const options = (values: readonly string[]) => values.map((v) => html`<option value="${v}">${v}</option>`);
  return html`<div class="filters" role="group" aria-label="Filter the episodes">
    <label>Category <select id="filter-category"><option value="">all</option>${options(model.filters.categories)}</select></label>
    <span role="group" aria-label="Outcome">Outcome
      <button type="button" data-outcome-filter="" aria-pressed="true">all</button><button type="button" data-outcome-filter="pass" aria-pressed="false">pass</button><button type="button" data-outcome-filter="fail" aria-pressed="false">fail</button></span>
    <label>Termination <select id="filter-termination"><option value="">all</option>${options(model.filters.terminations)}</select></label>
    <label>Entropy <select id="filter-entropy"><option value="">all</option><option value="drift">touched by drift</option><option value="rot">touched by rot</option><option value="none">touched by neither</option></select></label>
    <button type="button" id="filter-reset">reset</button>
    <button type="button" id="expand-all">expand all</button><button type="button" id="collapse-all">collapse all</button>
    <output id="episode-count">${model.episodes.length} of ${model.episodes.length} episodes</output>
  </div>`;
}

function verdict(card: EpisodeCard): Html {
  const { view } = card;
  const judge = view.judge;
  return html`<span class="${view.success ? "pass" : "fail"}">${view.success ? "PASS" : "FAIL"}</span> · crm_reward ${fixed(view.crmReward, 2)}${
    judge
      ? html` · method <code>${judge.method}</code> · source <code>${judge.source}</code> · model ${judge.model === null ? html`<span class="na">none</span>` : html`<code>${judge.model}</code>`}`
      : html` · <span class="na">not judged</span>`
  }${judge?.fallback ? html`<br><span class="warning">fallback: ${judge.fallback}</span>` : html``}`;
}

function steps(card: EpisodeCard): Html {
  const { view } = card;
  if (view.steps.length === 0) return html`<p class="muted">No turns.</p>`;
  return html`<table class="steps"><thead><tr><th class="num">turn</th><th>action</th><th>observation</th><th class="num">purple ms</th><th class="num">green ms</th><th class="num">tokens to / from purple</th></tr></thead><tbody>${view.steps.map(
    (step, i) => {
      const observationRef = card.observationRefs[i] ?? null;
      const replyRef = card.replyRefs[i] ?? null;
      const status =
        step.ok === null ? html`` : html`<span class="${step.ok ? "pass" : "fail"}">${step.ok ? "ok" : "error"}${step.rows === null ? "" : ` · ${step.rows} rows`}</span>`;
      return html`<tr><td class="num">${step.turn}</td><td><pre>${step.action}</pre>${
        replyRef === null
          ? html``
          : html`<details class="full" data-text="${replyRef}"><summary>the purple's reply (${step.rawReply?.length ?? 0} chars)</summary><pre></pre></details>`
      }${step.warnings.map((warning) => html`<div class="warning">warning: ${warning}</div>`)}</td>
      <td>${status}${step.observation === null ? html`` : html`<pre>${step.observation}</pre>`}${
        observationRef === null
          ? html``
          : html`<details class="full" data-text="${observationRef}"><summary>full observation (${(step.fullObservation?.length ?? 0).toLocaleString("en-US")} chars)</summary><pre></pre></details>`
      }</td>
      <td class="num">${step.purpleMs}</td><td class="num">${step.greenMs}</td><td class="num">${step.sentTokens} / ${step.receivedTokens}${step.reportedUsage ? html`<br><span class="muted">reported ${step.reportedUsage.input} in / ${step.reportedUsage.output} out</span>` : html``}</td></tr>`;
    },
  )}</tbody></table>`;
}

function episode(card: EpisodeCard): Html {
  const { view } = card;
  const e = view.entropy;
  const list = (values: readonly string[]) => (values.length === 0 ? html`<span class="na">none</span>` : html`${values.join(", ")}`);
  const m = view.metrics;
  return html`<details class="episode" id="task-${view.idx}" data-category="${view.category}" data-outcome="${view.success ? "pass" : "fail"}" data-termination="${view.termination}" data-drift="${view.touchedByDrift ? "1" : "0"}" data-rot="${view.touchedByRot ? "1" : "0"}">
  <summary><span class="badge ${view.success ? "pass" : "fail"}">${view.success ? "pass" : "fail"}</span><span class="idx">#${view.idx}</span><span>${view.category}</span><span class="meta">score ${fixed(view.totalScore)} · ${view.termination} · ${view.steps.length} turns${view.touchedByDrift ? " · drift" : ""}${view.touchedByRot ? " · rot" : ""}</span></summary>
  <div class="episode-body">
    <dl class="facts">
      <dt>Query</dt><dd><pre>${view.query}</pre></dd>
      <dt>Answer</dt><dd>${view.answer === null || view.answer === "" ? html`<span class="na">no answer</span>` : html`<pre class="answer" data-answer="${view.idx}">${view.answer}</pre>`}</dd>
      <dt>Expected</dt><dd>${view.expected === null ? html`<span class="na">unknown</span>` : html`<pre>${view.expected}</pre>`}</dd>
      ${view.parsedAnswer ? html`<dt>Parsed answer</dt><dd><pre>${JSON.stringify(view.parsedAnswer)}</pre></dd>` : html``}
      <dt>Verdict</dt><dd>${verdict(card)}</dd>
      ${view.judge?.raw_output ? html`<dt>Judge's raw output</dt><dd><pre>${view.judge.raw_output}</pre></dd>` : html``}
      <dt>Termination</dt><dd>${view.termination} after ${view.steps.length} turns</dd>
      ${view.error ? html`<dt>Error</dt><dd class="fail"><pre>${view.error}</pre></dd>` : html``}
      ${view.unscored ? html`<dt>Unscored</dt><dd>${view.unscored}</dd>` : html``}
      ${view.warnings.length > 0 ? html`<dt>Warnings</dt><dd class="warning">${view.warnings.join("; ")}</dd>` : html``}
      <dt>Drift</dt><dd>needs renamed ${list(e.drift_exposure)}; renamed in the text ${list(e.renamed_in_text)}</dd>
      <dt>Rot</dt><dd>passages ${list(e.passages)}; distractor records seen ${e.distractor_records_seen}; distractor Ids in the answer ${list(e.distractor_ids_in_answer)}</dd>
      ${m ? html`<dt>Metrics</dt><dd>${m.turns} turns, ${m.queries} queries (${m.failed_queries} failed), ${m.tool_calls} tool calls, ${m.invalid_actions} invalid actions, ${m.errors} errors (${m.errors_recovered} recovered), ${m.tokens_estimate} tokens${m.reported_tokens === null ? "" : ` (${m.reported_tokens} reported)`}; answer Ids live ${m.answer_ids.live}, distractor ${m.answer_ids.distractor}, absent ${m.answer_ids.absent}${view.optimum ? `; optimum ${view.optimum.turns} turns, ${view.optimum.queries} queries, ${view.optimum.tokens} tokens` : ""}</dd>` : html``}
      ${view.timing ? html`<dt>Timing</dt><dd>${view.timing.total_seconds} s (purple ${view.timing.purple_agent_seconds} s, green ${view.timing.green_agent_seconds} s)</dd>` : html``}
    </dl>
    <table class="scores"><thead><tr><th>dimension</th><th class="num">score</th><th>not applicable because</th></tr></thead><tbody>
      <tr><td><b>total_score</b></td><td class="num"><b>${fixed(view.totalScore)}</b></td><td></td></tr>
      ${view.dimensions.map((d) => html`<tr><td>${d.name}</td><td class="num">${num(d.value)}</td><td>${d.reason ?? ""}</td></tr>`)}
    </tbody></table>
    ${steps(card)}
  </div>
</details>`;
}

/** Every episode, filterable by category, outcome, termination and entropy. */
export function episodesSection(model: ReportModel): Html {
  return html`<section id="episodes"><h2>Episodes</h2>
    <p class="muted">${model.source}</p>
    ${filters(model)}
    <div id="episode-list">${model.episodes.map(episode)}</div>
  </section>`;
}
