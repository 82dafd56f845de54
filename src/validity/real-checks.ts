import type { CheckResult } from "./checks.js";
import { figure, type RealMeasurement, type RealOutcome, type VerdictName } from "./real.js";

/**
 * How many points a purple may sit above a bound before a rule fails. One point is what the
 * judges' edge cases can move (e.g. an answer the heuristic reads differently from the floor's
 * list rule), far below what any leak gives: one leaked Id category is 100 tasks, 4.7 points.
 */
export const REAL_SLACK_POINTS = 1;

const pct = (rate: number) => `${(100 * rate).toFixed(1)}%`;

/**
 * The rules on the real task distribution (src/validity/real.ts), per mode, under `verdict` (the
 * benchmark's own): docs/validity.md explains each.
 *
 * - Remapping with the operator's secret: no lookup that reads only the shown task passes more of
 *   the Id categories than the category prior, plus REAL_SLACK_POINTS (a dataset Id names no
 *   record of the run). The purple that remembers the run's other tasks may gain only tasks whose
 *   answer Ids some task text shows (their new Id is shown in another episode): any other gain is
 *   a leak.
 * - No zero-work purple passes more than REAL_SLACK_POINTS above the chance floor in any category
 *   (the floor is the best fixed answer per category, so only a judge's blind spot, such as a
 *   hedge passing token F1, could lift one), and the prior, which is the floor's strategy played
 *   out, passes what the floor says within REAL_SLACK_POINTS.
 * - The controls, which show the rules above can fail: without remapping the index lookup passes
 *   every task and beats the prior on the Id categories; with the seed alone keying the remap,
 *   replaying the public code on the shown seed recovers every answer.
 */
export function checkRealDistribution(measurements: readonly RealMeasurement[], verdict: VerdictName = "success"): CheckResult[] {
  const results: CheckResult[] = [];
  const modes = [...new Map(measurements.map((m) => [m.mode.label, m.mode])).values()];
  for (const mode of modes) {
    const own = measurements.filter((m) => m.mode.label === mode.label);
    const at = (strategy: string) => own.find((m) => m.strategy === strategy);
    const check = (rule: string, ok: boolean, detail: string) => results.push({ rule, where: `real tasks, ${mode.label}`, ok, detail });
    const prior = at("category-prior");
    const priorId = prior ? figure(prior.outcomes, verdict, "id") : undefined;

    if (mode.remapIds && prior && priorId) {
      for (const lookup of own.filter((m) => m.kind === "lookup")) {
        const lookupId = figure(lookup.outcomes, verdict, "id");
        if (lookup.remembersRun) {
          const gained = gainedOver(lookup.outcomes, prior.outcomes, verdict);
          const unexplained = gained.filter((outcome) => !outcome.idsShown);
          check(
            `${lookup.strategy} gains over the prior on Id categories only where another task's text shows the answer's Ids`,
            unexplained.length === 0,
            unexplained.length
              ? `${unexplained.length} gains not explained by shown Ids, e.g. task ${unexplained[0]!.idx} (${unexplained[0]!.category})`
              : `${gained.length} tasks gained (${pct(lookupId.pass)} vs the prior's ${pct(priorId.pass)}), every one an answer whose Ids other task texts show${byCategory(gained)}`,
          );
        } else if (lookup.strategy === "seed-replay" && mode.secret === "") {
          const all = figure(lookup.outcomes, verdict);
          check(
            "control: with the seed alone keying the remap, replaying the public code on the shown seed recovers every answer",
            all.passed === all.tasks,
            `seed-replay passes ${all.passed} of ${all.tasks}: remapping holds only with the operator's secret (ENTROPIC_ID_SECRET)`,
          );
        } else {
          check(
            `${lookup.strategy} passes no more of the Id categories than the category prior (+${REAL_SLACK_POINTS} point)`,
            lookupId.pass <= priorId.pass + REAL_SLACK_POINTS / 100,
            `${pct(lookupId.pass)} vs ${pct(priorId.pass)} on ${lookupId.tasks} tasks`,
          );
        }
      }
    }

    if (!mode.remapIds) {
      const index = at("index-lookup");
      if (index && priorId) {
        for (const name of ["original", "success"] as const) {
          const all = figure(index.outcomes, name);
          check(`control: without remapping the index lookup passes every task (${name})`, all.passed === all.tasks, `${all.passed} of ${all.tasks}`);
        }
        const indexId = figure(index.outcomes, verdict, "id");
        check(
          "control: without remapping the Id-category rule fails (the index lookup beats the prior there)",
          indexId.pass > priorId.pass + REAL_SLACK_POINTS / 100,
          `${pct(indexId.pass)} vs the prior's ${pct(priorId.pass)}`,
        );
      }
    }

    for (const zeroWork of own.filter((m) => m.kind === "zero-work")) {
      const categories = [...new Set(zeroWork.outcomes.map((outcome) => outcome.category))];
      const above = categories
        .map((category) => ({ category, figure: figure(zeroWork.outcomes, verdict, "all", category) }))
        .filter(({ figure: f }) => f.pass > f.floor + REAL_SLACK_POINTS / 100);
      check(
        `${zeroWork.strategy} passes no more than the chance floor (+${REAL_SLACK_POINTS} point) in any category`,
        above.length === 0,
        above.length
          ? above.map(({ category, figure: f }) => `${category} ${f.passed} vs floor ${f.floorPassed} of ${f.tasks}`).join("; ")
          : `overall ${pct(figure(zeroWork.outcomes, verdict).pass)}, floor ${pct(figure(zeroWork.outcomes, verdict).floor)}`,
      );
    }
    if (prior) {
      const all = figure(prior.outcomes, verdict);
      check(
        `the category prior passes what the chance floor says (±${REAL_SLACK_POINTS} point)`,
        Math.abs(all.pass - all.floor) <= REAL_SLACK_POINTS / 100,
        `${pct(all.pass)} measured, floor ${pct(all.floor)}`,
      );
    }
  }
  return results;
}

/** Id-category tasks the lookup passes and the prior does not. */
function gainedOver(lookup: readonly RealOutcome[], prior: readonly RealOutcome[], verdict: VerdictName): RealOutcome[] {
  const priorPassed = new Set(prior.filter((outcome) => outcome.passed[verdict]).map((outcome) => outcome.idx));
  return lookup.filter((outcome) => outcome.idCategory && outcome.passed[verdict] && !priorPassed.has(outcome.idx));
}

function byCategory(outcomes: readonly RealOutcome[]): string {
  if (outcomes.length === 0) return "";
  const counts = new Map<string, number>();
  for (const outcome of outcomes) counts.set(outcome.category, (counts.get(outcome.category) ?? 0) + 1);
  return ` (${[...counts].map(([category, n]) => `${category} ${n}`).join(", ")})`;
}
