import { DIMENSIONS } from "../log/index.js";
import type { CheckResult } from "./checks.js";
import type { RosterEntry } from "./roster.js";
import type { Measurement, SuiteOptions } from "./run.js";

const SHORT: Record<(typeof DIMENSIONS)[number], string> = {
  FUNCTIONAL: "FUNC",
  DRIFT_ADAPTATION: "DRIFT",
  TOKEN_EFFICIENCY: "TOKEN",
  QUERY_EFFICIENCY: "QUERY",
  ERROR_RECOVERY: "ERROR",
  TRAJECTORY_EFFICIENCY: "TRAJ",
  HALLUCINATION_RATE: "HALL",
};

const cell = (value: number | null) => (value === null ? "n/a" : value.toFixed(1));

/** docs/validity.md: every purple's figures per level pair, the floor and the ceiling a leaderboard reader needs. */
export function validityMarkdown(
  measurements: readonly Measurement[],
  checks: readonly CheckResult[],
  roster: readonly RosterEntry[],
  options: Pick<SuiteOptions, "levels" | "seeds">,
  dataLabel: string,
): string {
  const failed = checks.filter((check) => !check.ok);
  const lines = [
    "# Validity: what each kind of purple scores",
    "",
    "Written by `npm run validity` (do not edit by hand). Every purple below runs the whole sample",
    `(${dataLabel}) at each drift × rot level pair, seeds ${options.seeds.join(", ")}, and the figures are averaged over the seeds.`,
    "`total` is the mean `total_score`; a dimension is the mean over the episodes where it applies (n/a: it applied nowhere).",
    "The reference purples set the ceiling; the degenerate ones never solve anything on purpose and probe the floor.",
    "",
    "| purple | kind | what it does |",
    "|---|---|---|",
    ...roster.map((entry) => `| ${entry.name} | ${entry.kind} | ${entry.description} |`),
    "",
    `## Checks: ${checks.length - failed.length} of ${checks.length} hold`,
    "",
    ...(failed.length === 0
      ? ["Every rule holds at every level pair (see `src/validity/checks.ts`)."]
      : failed.map((check) => `- FAILED at drift ${check.level.drift}, rot ${check.level.rot}: ${check.rule} (${check.detail})`)),
    "",
  ];
  const levels = [...new Map(measurements.map((m) => [`${m.level.drift}/${m.level.rot}`, m.level])).values()];
  for (const level of levels) {
    lines.push(
      `## Drift ${level.drift}, rot ${level.rot}`,
      "",
      `| purple | pass % | total | ${DIMENSIONS.map((d) => SHORT[d]).join(" | ")} |`,
      `|---|---:|---:|${DIMENSIONS.map(() => "---:").join("|")}|`,
    );
    for (const m of measurements.filter((candidate) => candidate.level.drift === level.drift && candidate.level.rot === level.rot)) {
      lines.push(`| ${m.purple} | ${(100 * m.passRate).toFixed(1)} | ${m.total.toFixed(1)} | ${DIMENSIONS.map((d) => cell(m.dimensions[d])).join(" | ")} |`);
    }
    lines.push("");
  }
  lines.push(`Columns: ${DIMENSIONS.map((d) => `${SHORT[d]} = ${d}`).join(", ")}.`, "");
  return lines.join("\n");
}
