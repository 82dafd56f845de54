import type { EpisodeView, StepView } from "./episode.js";
import { clip, fixed, indent, percent, printable } from "./terminal.js";

export interface ShowOptions {
  /** Print observations whole instead of their first lines. */
  readonly full?: boolean;
  /** Where the trajectory came from (the run log, or the results alone and why). */
  readonly source: string;
  /** The run's dimension weights, printed beside the scores. */
  readonly weights?: Readonly<Record<string, number>>;
}

const OBSERVATION_CHARS = 1_200;
const OBSERVATION_LINES = 16;

/** One episode, turn by turn, for a terminal. Every text from the results is made printable. */
export function showText(episode: EpisodeView, options: ShowOptions): string {
  const lines: string[] = [
    `Task ${episode.idx} · ${episode.category}${episode.rewardMetric ? ` (${episode.rewardMetric})` : ""} · ${episode.success ? "PASS" : "FAIL"} · score ${fixed(episode.totalScore)} · crm_reward ${fixed(episode.crmReward, 2)}`,
    options.source,
    `Query: ${printable(episode.query)}`,
    `Ended: ${episode.termination} after ${episode.steps.length} turn${episode.steps.length === 1 ? "" : "s"}`,
    "",
    ...episode.steps.flatMap((step) => [...stepLines(step, options.full === true), ""]),
    ...outcomeLines(episode),
    "",
    ...scoreLines(episode, options.weights),
    "",
    ...contextLines(episode),
  ];
  return `${lines.join("\n")}\n`;
}

function stepLines(step: StepView, full: boolean): string[] {
  const facts = [
    step.ok === null ? null : step.ok ? `ok${step.rows === null ? "" : ` · ${step.rows} rows`}` : "error",
    `purple ${step.purpleMs} ms`,
    `green ${step.greenMs} ms`,
    `tokens to purple ${step.sentTokens}, from purple ${step.receivedTokens}`,
    step.reportedUsage ? `reported usage ${step.reportedUsage.input} in / ${step.reportedUsage.output} out` : null,
  ].filter((fact): fact is string => fact !== null);
  const lines = [`Turn ${step.turn} · ${printable(step.action)}`, `  ${facts.join(" · ")}`];
  const observation = step.fullObservation ?? step.observation;
  if (observation !== null) {
    const shown = full ? observation : clip(observation, OBSERVATION_CHARS, OBSERVATION_LINES, step.fullObservation ? "; --full prints it whole" : "");
    lines.push(indent(printable(shown)));
  }
  if (step.rawReply !== null)
    lines.push("  purple's reply:", indent(printable(full ? step.rawReply : clip(step.rawReply, OBSERVATION_CHARS, OBSERVATION_LINES, "; --full prints it whole"))));
  for (const warning of step.warnings) lines.push(`  warning: ${printable(warning)}`);
  return lines;
}

function outcomeLines(episode: EpisodeView): string[] {
  const lines = [
    `Answer:   ${episode.answer === null ? "(none)" : printable(episode.answer)}`,
    `Expected: ${episode.expected === null ? "(unknown)" : printable(episode.expected)}`,
  ];
  if (episode.parsedAnswer) lines.push(`Parsed:   ${printable(JSON.stringify(episode.parsedAnswer))}`);
  const judge = episode.judge;
  lines.push(
    `Verdict:  ${episode.success ? "PASS" : "FAIL"}${judge ? ` · method ${judge.method} · source ${judge.source}${judge.model ? ` · model ${printable(judge.model)}` : ""}` : " · not judged"}`,
  );
  if (judge?.fallback) lines.push(`  fallback: ${printable(judge.fallback)}`);
  if (judge?.raw_output) lines.push("  judge's raw output:", indent(printable(judge.raw_output)));
  return lines;
}

function scoreLines(episode: EpisodeView, weights: Readonly<Record<string, number>> | undefined): string[] {
  const width = Math.max(...episode.dimensions.map((dimension) => dimension.name.length)) + 2;
  return [
    `Scores: total ${fixed(episode.totalScore)}`,
    ...episode.dimensions.map((dimension) => {
      const weight = weights?.[dimension.name];
      const weightText = weight === undefined ? "" : `  weight ${weight.toFixed(2)}`;
      const value = fixed(dimension.value).padStart(6);
      return `  ${dimension.name.padEnd(width)}${value}${weightText}${dimension.reason ? `  n/a: ${printable(dimension.reason)}` : ""}`;
    }),
  ];
}

function contextLines(episode: EpisodeView): string[] {
  const events = episode.entropy;
  const list = (values: readonly string[]) => (values.length === 0 ? "none" : printable(values.join(", ")));
  const lines = [
    `Drift: exposure ${list(events.drift_exposure)}; renamed in the task text ${list(events.renamed_in_text)}`,
    `Rot: passages ${list(events.passages)}; distractor records seen ${events.distractor_records_seen}; distractor Ids in the answer ${list(events.distractor_ids_in_answer)}`,
  ];
  const m = episode.metrics;
  if (m) {
    lines.push(
      `Metrics: ${m.turns} turns, ${m.queries} queries (${m.failed_queries} failed), ${m.tool_calls} tool calls, ${m.invalid_actions} invalid actions, ${m.errors} errors (${m.errors_recovered} recovered), ${m.tokens_estimate} tokens${m.reported_tokens === null ? "" : ` (${m.reported_tokens} reported)`}; answer Ids live ${m.answer_ids.live}, distractor ${m.answer_ids.distractor}, absent ${m.answer_ids.absent}`,
    );
  }
  if (episode.optimum) lines.push(`Optimum: ${episode.optimum.turns} turns, ${episode.optimum.queries} queries, ${episode.optimum.tokens} tokens`);
  if (episode.timing) lines.push(`Timing: ${episode.timing.total_seconds} s (purple ${episode.timing.purple_agent_seconds} s, green ${episode.timing.green_agent_seconds} s)`);
  if (episode.error) lines.push(`Error: ${printable(episode.error)}`);
  if (episode.unscored) lines.push(`Unscored: ${printable(episode.unscored)}`);
  for (const warning of episode.warnings) lines.push(`Warning: ${printable(warning)}`);
  return lines;
}

/** A one-line-per-episode index, for `show` without --task. */
export function episodeIndexText(episodes: readonly EpisodeView[]): string {
  const passed = episodes.filter((episode) => episode.success).length;
  const width = Math.max(8, ...episodes.map((episode) => episode.category.length)) + 2;
  const lines = [
    `${episodes.length} episodes, ${passed} passed (${percent(episodes.length === 0 ? null : passed / episodes.length)}); show one with --task IDX`,
    `${"task".padStart(6)}  ${"category".padEnd(width)}${"outcome".padEnd(9)}${"score".padStart(6)}  ${"turns".padStart(5)}  termination`,
    ...episodes.map(
      (episode) =>
        `${printable(episode.idx).padStart(6)}  ${printable(episode.category).padEnd(width)}${(episode.success ? "pass" : "fail").padEnd(9)}${fixed(episode.totalScore).padStart(6)}  ${String(episode.steps.length).padStart(5)}  ${episode.termination}`,
    ),
  ];
  return `${lines.join("\n")}\n`;
}
