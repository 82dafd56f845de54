import { dimensionColumn } from "../scoring/index.js";
import type { Comparison, Delta, RunSide } from "./compare.js";
import { fixed, percent, printable, signed } from "./view/index.js";

const rate = (d: Delta) => [percent(d.before), percent(d.after), signed(d.delta === null ? null : d.delta * 100, 1, " pp")];
const score = (d: Delta) => [fixed(d.before), fixed(d.after), signed(d.delta)];
const score2 = (d: Delta) => [fixed(d.before, 3), fixed(d.after, 3), signed(d.delta, 3)];
/** An interval of rates in percent (or of ratios with `digits`), "n/a" without one. */
const interval = (range: readonly [number, number] | null, digits?: number) =>
  range === null ? "n/a" : digits === undefined ? `${percent(range[0])}–${percent(range[1])}` : `${fixed(range[0], digits)}–${fixed(range[1], digits)}`;
/** Whether a difference is beyond the runs' intervals (they do not overlap). */
const verdict = (beyond: boolean | null) => (beyond === null ? "n/a" : beyond ? "beyond the intervals" : "within the intervals");

function describe(side: RunSide): string {
  return `${printable(side.label)} (${printable(side.runId)}, ${printable(side.agent)}, ${side.tasks} tasks, ${side.dataset}, drift ${side.driftLevel}, rot ${side.rotLevel}, seed ${side.seed})`;
}

/** A table with the first `left` columns left-aligned and the others right-aligned. */
function table(header: readonly string[], rows: readonly (readonly string[])[], left = 1): string[] {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i]?.length ?? 0)));
  const line = (row: readonly string[]) => row.map((cell, i) => (i < left ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ");
  return [line(header), ...rows.map(line)].map((text) => text.trimEnd());
}

/** The comparison for a terminal: deltas are B − A. */
export function compareText(comparison: Comparison): string {
  const { before, after } = comparison;
  const lines = [`A: ${describe(before)}`, `B: ${describe(after)}`, "Deltas are B − A; pp = percentage points; n/a where a side has no value.", ""];
  if (comparison.configDifferences.length === 0) lines.push("Config: the same in both runs.");
  else lines.push("Config differences:", ...comparison.configDifferences.map((d) => `  ${d.key}: ${printable(d.before)} → ${printable(d.after)}`));
  const common = before.tasks - comparison.onlyBefore.length;
  lines.push(
    `Tasks: ${common} in both${comparison.onlyBefore.length ? `; only in A: ${comparison.onlyBefore.map(printable).join(", ")}` : ""}${comparison.onlyAfter.length ? `; only in B: ${comparison.onlyAfter.map(printable).join(", ")}` : ""}`,
    "",
  );

  lines.push(
    ...table(
      ["overall", "A", "B", "Δ"],
      [
        ["pass rate", ...rate(comparison.passRate)],
        ...(comparison.passInterval.before || comparison.passInterval.after
          ? [["pass@1 95% interval", interval(comparison.passInterval.before), interval(comparison.passInterval.after), verdict(comparison.passInterval.beyond)]]
          : []),
        ...(comparison.robustness.ratio.before !== null || comparison.robustness.ratio.after !== null
          ? [
              ["robustness ratio", ...score2(comparison.robustness.ratio)],
              ["ratio 95% interval", interval(comparison.robustness.before, 3), interval(comparison.robustness.after, 3), verdict(comparison.robustness.beyond)],
            ]
          : []),
        ["avg score", ...score(comparison.avgScore)],
        ["chance floor", ...rate(comparison.floor)],
        ["lift over floor", ...rate(comparison.lift)],
        ...comparison.dimensionNames.map((dimension) => [dimension, ...score(comparison.dimensions[dimension]!)]),
      ],
    ),
    "",
  );

  lines.push(
    ...table(
      ["category", "tasks A/B", "pass A", "pass B", "Δ pass", "score A", "score B", "Δ score", "lift A", "lift B", "Δ lift"],
      comparison.categories.map((c) => [printable(c.category), `${c.countBefore}/${c.countAfter}`, ...rate(c.passRate), ...score(c.avgScore), ...rate(c.lift)]),
    ),
    "Lift = (pass rate − chance floor) / (1 − chance floor): 0 at what a zero-work purple passes, 100% at every task; n/a where the floor is unknown or 100%.",
    "",
    `Dimension deltas per category (B − A; ${comparison.dimensionNames.map((dimension) => `${dimensionColumn(dimension, "report")} = ${dimension}`).join(", ")}):`,
    ...table(
      ["category", ...comparison.dimensionNames.map((dimension) => dimensionColumn(dimension, "report"))],
      comparison.categories.map((c) => [printable(c.category), ...comparison.dimensionNames.map((dimension) => signed(c.dimensions[dimension]!.delta))]),
    ),
    "",
  );

  const broken = comparison.flipped.filter((flip) => flip.direction === "broken");
  const fixedTasks = comparison.flipped.filter((flip) => flip.direction === "fixed");
  lines.push(`Flipped: ${comparison.flipped.length} task${comparison.flipped.length === 1 ? "" : "s"}`);
  for (const [title, flips] of [
    ["pass → fail", broken],
    ["fail → pass", fixedTasks],
  ] as const) {
    lines.push(`${title} (${flips.length})${flips.length === 0 ? ": none" : ":"}`);
    if (flips.length === 0) continue;
    const rows = flips.map((flip) => [`  ${printable(flip.idx)}`, printable(flip.category), fixed(flip.scoreBefore), fixed(flip.scoreAfter), printable(flip.terminationAfter)]);
    lines.push(...table(["  task", "category", "score A", "score B", "B ended"], rows, 2));
  }
  return `${lines.join("\n")}\n`;
}
