import type { ResultsObject } from "./results.js";

const percent = (rate: number | null) => (rate === null ? "n/a" : `${(rate * 100).toFixed(1)}%`);

/** The overall chance floor and lift, or why the results have none. */
function floorLine(results: ResultsObject): string {
  const { summary, chance_floor } = results;
  if (summary.floor === null) return `Chance floor: n/a (${chance_floor.reason ?? "not recorded"}).`;
  const lifted = summary.lift === null ? "lift n/a (the floor is 100%: nothing to lift over)" : `lift ${percent(summary.lift)}`;
  return `Chance floor ${percent(summary.floor)} (a zero-work purple's pass rate on these tasks), ${lifted} (pass rate above the floor, as a share of the room above it).`;
}

/** What each way of ending without an answer means, for a reader who sees only the counts. */
const NO_ANSWER: Record<string, string> = {
  purple_error: "the purple failed or could not be reached",
  protocol_error: "the purple's reply was no usable A2A reply",
  timeout: "the purple did not reply in time",
  max_steps: "the purple used every turn without answering",
  canceled: "the run was canceled",
  user_error: "interactive mode's simulated user failed (the simulator's fault, not the purple's)",
};

/**
 * Episodes that ended without an answer, named apart from wrong answers: a purple that went away
 * mid-run must not read as one that answered badly. Null when every episode answered.
 */
function noAnswerLine(results: ResultsObject): string | null {
  const ended = Object.entries(results.terminations).filter(([termination]) => termination !== "answered");
  const count = ended.reduce((sum, [, n]) => sum + n, 0);
  if (count === 0) return null;
  const examples = results.results.flatMap((entry) => ("error" in entry && entry.error ? [entry.error] : [])).slice(0, 1);
  return `No answer in ${count} of ${results.summary.total_tasks} episodes: ${ended.map(([termination, n]) => `${n} ${termination} (${NO_ANSWER[termination] ?? termination})`).join(", ")}${examples.length > 0 ? `; e.g. ${examples[0]!.slice(0, 160)}` : ""}. They count as failed.`;
}

/** pass^k with pass@1's interval, and the robustness ratio, in runs that have them. */
function trialLines(results: ResultsObject): string[] {
  const lines: string[] = [];
  const { trials, robustness } = results;
  const range = (interval: readonly [number, number] | null | undefined, format: (value: number) => string) => (interval ? `${format(interval[0])}-${format(interval[1])}` : "n/a");
  if (trials)
    lines.push(
      `Trials: ${trials.k} per task over ${trials.tasks} tasks; ${Object.entries(trials.pass_hat)
        .map(([k, value]) => `pass^${k} ${percent(value)}`)
        .join(", ")}; pass@1's 95% interval ${range(trials.interval["1"], percent)}.`,
    );
  if (robustness)
    lines.push(
      `Robustness: clean ${percent(robustness.clean.pass_rate)}, perturbed ${percent(robustness.perturbed.pass_rate)}, ratio ${robustness.ratio === null ? "n/a" : robustness.ratio.toFixed(3)} (95% interval ${range(robustness.ratio_interval, (value) => value.toFixed(3))}); ${robustness.lost} answers lost to the perturbations.${robustness.flag ? ` Flagged ${robustness.flag}: the clean pass rate is below the perturbed one, which no perturbation explains; the ratio is no sign of robustness.` : ""}`,
    );
  return lines;
}

/** Whether the leaderboard ranks the run, and if not, why (results written before the keys say nothing). */
function rankingLine(results: ResultsObject): string[] {
  if (results.ranked === undefined) return [];
  return results.ranked
    ? [`Ranked: on the leaderboard's track (${results.track_fingerprint}).`]
    : [`Not ranked (track ${results.track_fingerprint}): ${results.unranked_reasons.join("; ")}.`];
}

/** The twin key a set was built with, by its digest (a log from before twins were keyed: its seed), and its twins per task when more than one. */
export function builtWith(built: { readonly key?: string | undefined; readonly seed?: number | undefined; readonly trials?: number | undefined }): string {
  const key = built.key !== undefined ? `with twin key ${built.key}` : `at seed ${built.seed}`;
  return built.trials !== undefined && built.trials > 1 ? `${key}, ${built.trials} twins per task` : key;
}

/** A built task set (the twins): what it was built from, and the source tasks it has no twin for (said, never hidden). */
function builtFromLines(results: ResultsObject): string[] {
  const built = results.data_sources.tasks.builtFrom;
  if (!built) return [];
  const counts = new Map<string, number>();
  for (const entry of built.missing) counts.set(entry.category, (counts.get(entry.category) ?? 0) + 1);
  const missing =
    built.missing.length === 0
      ? "every source task has a twin"
      : `${built.missing.length} source tasks have no twin and were not run (${[...counts].map(([category, count]) => `${category} ${count}`).join(", ")})`;
  return [`Built from ${built.source.path} (sha256 ${built.source.sha256.slice(0, 12)}…) ${builtWith(built)}, builder version ${built.version}: ${missing}.`];
}

/**
 * A human summary of a results object. It must never parse as JSON: the AgentBeats client
 * would take a JSON text part for an extra result.
 */
/** Interactive mode: who played the user, how much it spoke, and its own failures apart from the purple's. */
function interactiveLines(results: ResultsObject): string[] {
  const block = results.interactive;
  if (!block) return [];
  return [
    `Interactive mode, user ${block.user_simulators.join(", ") || "none"}: ${block.user_turns_per_episode} user turns per episode; ${block.user_failures} episodes ended by the simulator's own failure (${percent(block.user_failure_rate)}, not the purple's).`,
  ];
}

export function summaryText(results: ResultsObject): string {
  const { summary, timing } = results;
  const noAnswer = noAnswerLine(results);
  const lines = [
    `CRMArena assessment of ${results.participants.agent} on the ${results.dataset} dataset: ${summary.total_passed}/${summary.total_tasks} tasks passed (${(summary.pass_rate * 100).toFixed(1)}%), average score ${summary.avg_score.toFixed(1)}.`,
    floorLine(results),
    ...rankingLine(results),
    ...builtFromLines(results),
    ...trialLines(results),
    ...interactiveLines(results),
    ...(noAnswer ? [noAnswer] : []),
    `Original CRMArena-Pro accuracy: ${results.original.scores.accuracy_percent ?? "skipped"}${results.original.scores.accuracy_percent === null ? "" : "%"}. Drift ${results.extension_metrics.drift_level}, rot ${results.extension_metrics.rot_level}, seed ${results.seed}.`,
    `Time: ${timing.total_seconds} s wall, purple agent ${timing.purple_agent_percent}% of episode time.`,
    "Dimensions: " +
      Object.entries(results.dimension_averages)
        .map(([name, value]) => `${name} ${value ?? "n/a"}`)
        .join(", "),
    "",
    `${"category".padEnd(34)}${"tasks".padStart(6)}${"passed".padStart(8)}${"avg score".padStart(11)}${"floor".padStart(8)}${"lift".padStart(8)}`,
    ...Object.entries(results.by_category).map(
      ([category, group]) =>
        `${category.padEnd(34)}${String(group.count).padStart(6)}${String(group.passed).padStart(8)}${group.avg_score.toFixed(1).padStart(11)}${percent(group.floor).padStart(8)}${percent(group.lift).padStart(8)}`,
    ),
  ];
  if (results.ignored_config_keys.length > 0) lines.push(`Ignored config keys: ${results.ignored_config_keys.join(", ")}`);
  return lines.join("\n");
}
