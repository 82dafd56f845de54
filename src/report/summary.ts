import type { ResultsObject } from "./results.js";

/**
 * A human summary of a results object. It must never parse as JSON: the AgentBeats client
 * would take a JSON text part for an extra result.
 */
export function summaryText(results: ResultsObject): string {
  const { summary, timing } = results;
  const lines = [
    `CRMArena assessment of ${results.participants.agent} on the ${results.dataset} dataset: ${summary.total_passed}/${summary.total_tasks} tasks passed (${(summary.pass_rate * 100).toFixed(1)}%), average score ${summary.avg_score.toFixed(1)}.`,
    `Original CRMArena-Pro accuracy: ${results.original.scores.accuracy_percent ?? "skipped"}${results.original.scores.accuracy_percent === null ? "" : "%"}. Drift ${results.extension_metrics.drift_level}, rot ${results.extension_metrics.rot_level}, seed ${results.seed}.`,
    `Time: ${timing.total_seconds} s wall, purple agent ${timing.purple_agent_percent}% of episode time.`,
    "Dimensions: " +
      Object.entries(results.dimension_averages)
        .map(([name, value]) => `${name} ${value ?? "n/a"}`)
        .join(", "),
    "",
    `${"category".padEnd(34)}${"tasks".padStart(6)}${"passed".padStart(8)}${"avg score".padStart(11)}`,
    ...Object.entries(results.by_category).map(
      ([category, group]) => `${category.padEnd(34)}${String(group.count).padStart(6)}${String(group.passed).padStart(8)}${group.avg_score.toFixed(1).padStart(11)}`,
    ),
  ];
  if (results.ignored_config_keys.length > 0) lines.push(`Ignored config keys: ${results.ignored_config_keys.join(", ")}`);
  return lines.join("\n");
}
