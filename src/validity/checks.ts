import { LEVELS } from "../assessment/index.js";
import type { EntropyLevels } from "../entropy/index.js";
import type { Measurement } from "./run.js";

/** One rule of a valid ranking, checked in one world: a level pair of the sample, or a mode of the real distribution. */
export interface CheckResult {
  readonly rule: string;
  /** Where it was checked, in words ("drift none, rot high", "real tasks, remap on, seed 1"). */
  readonly where: string;
  /** The sample's level pair, for the checks made there. */
  readonly level?: EntropyLevels;
  readonly ok: boolean;
  readonly detail: string;
}

/** How far a degenerate purple's total may sit above its pass rate (× 100), and each of its dimensions. */
export const TOTAL_SLACK = 5;
export const DIMENSION_SLACK = 10;
/** The reference solver's floor, and the oracle's ceiling on every dimension that applies. */
export const SOLVER_FLOOR = 95;

const label = (level: EntropyLevels) => `drift ${level.drift_level}, rot ${level.rot_level}`;
const fixed = (value: number) => value.toFixed(1);

/**
 * The rules a ranking must obey, at every level pair: oracle ≥ solver > naive where drift or rot
 * bites (≥ elsewhere) > every degenerate purple it passes more tasks than (and no degenerate purple
 * ahead of naive by more than its extra passes earn, plus TOTAL_SLACK); the oracle at 100 and the solver at 95 or more;
 * no degenerate purple's total more than TOTAL_SLACK above its pass rate, nor any dimension more
 * than DIMENSION_SLACK; faking a recovery or reporting fewer tokens never raises an episode's score;
 * and the rules on the purples built on the solver's work (checkOnSolver).
 */
export function checkRanking(measurements: readonly Measurement[]): CheckResult[] {
  const results: CheckResult[] = [];
  const levels = [...new Map(measurements.map((m) => [label(m.level), m.level])).values()];
  for (const level of levels) {
    const at = (purple: string) => measurements.find((m) => m.purple === purple && label(m.level) === label(level));
    const check = (rule: string, ok: boolean, detail: string) => results.push({ rule, where: label(level), level, ok, detail });
    const oracle = at("oracle");
    const solver = at("solver");
    const naive = at("naive");
    if (oracle) {
      const below = Object.keys(oracle.dimensions).filter((dimension) => oracle.dimensions[dimension] !== null && oracle.dimensions[dimension]! < 100);
      check(
        "the oracle scores 100 on every dimension that applies",
        below.length === 0 && oracle.total === 100,
        below.length ? `below 100: ${below.map((d) => `${d} ${fixed(oracle.dimensions[d]!)}`).join(", ")}` : `total ${fixed(oracle.total)}`,
      );
    }
    if (solver)
      check(`the reference solver scores at least ${SOLVER_FLOOR}`, solver.total >= SOLVER_FLOOR, `total ${fixed(solver.total)}, pass rate ${fixed(100 * solver.passRate)}%`);
    if (oracle && solver) check("oracle ≥ solver", oracle.total >= solver.total, `${fixed(oracle.total)} ≥ ${fixed(solver.total)}`);
    if (solver && naive) {
      const bites = naive.passRate < solver.passRate;
      check(
        bites ? "solver > naive (drift or rot bites here)" : "solver ≥ naive (nothing bites here)",
        bites ? solver.total > naive.total : solver.total >= naive.total,
        `${fixed(solver.total)} vs ${fixed(naive.total)} (naive passes ${fixed(100 * naive.passRate)}%)`,
      );
    }
    for (const degenerate of measurements.filter((m) => m.kind === "degenerate" && label(m.level) === label(level))) {
      const floor = 100 * degenerate.passRate;
      if (naive && degenerate.purple !== "one-token") {
        // Scores must follow success: where the naive purple passes more tasks it must score more;
        // where drift and rot leave it passing no more than a degenerate purple (a refuser passes
        // the privacy tasks), the degenerate one may lead only by what its extra passes earn.
        const passLead = 100 * (degenerate.passRate - naive.passRate);
        if (naive.passRate > degenerate.passRate) check(`naive > ${degenerate.purple}`, naive.total > degenerate.total, `${fixed(naive.total)} > ${fixed(degenerate.total)}`);
        else
          check(
            `${degenerate.purple} leads naive by no more than its extra passes earn`,
            degenerate.total - naive.total <= passLead + TOTAL_SLACK,
            `${fixed(degenerate.total)} − ${fixed(naive.total)} ≤ ${fixed(passLead)} + ${TOTAL_SLACK} (passes ${fixed(100 * degenerate.passRate)}% vs ${fixed(100 * naive.passRate)}%)`,
          );
      }
      if (degenerate.purple === "one-token") continue;
      check(
        `${degenerate.purple}: total within ${TOTAL_SLACK} of its pass rate`,
        degenerate.total <= floor + TOTAL_SLACK,
        `total ${fixed(degenerate.total)}, pass rate ${fixed(floor)}%`,
      );
      const over = Object.keys(degenerate.dimensions).filter(
        (dimension) => degenerate.dimensions[dimension] !== null && degenerate.dimensions[dimension]! > floor + DIMENSION_SLACK,
      );
      check(
        `${degenerate.purple}: every dimension within ${DIMENSION_SLACK} of its pass rate`,
        over.length === 0,
        over.length ? over.map((d) => `${d} ${fixed(degenerate.dimensions[d]!)}`).join(", ") : `pass rate ${fixed(floor)}%`,
      );
    }
    const never = (gamer: string, honest: string, what: string) => {
      const a = at(gamer);
      const b = at(honest);
      if (!a || !b) return;
      const raised = [...a.episodes].filter(([key, episode]) => episode.total > (b.episodes.get(key)?.total ?? Number.POSITIVE_INFINITY) + 1e-9);
      check(
        `${what} never raises a score (${gamer} vs ${honest})`,
        raised.length === 0,
        raised.length ? `raised on ${raised.length} episodes, e.g. seed:task ${raised[0]![0]}` : `${a.episodes.size} episodes compared`,
      );
    };
    never("fake-recovery", "always-none", "faking a recovery");
    never("one-token", "solver", "reporting fewer tokens");
    if (solver) checkOnSolver(solver, at, check);
  }
  results.push(...checkMonotone(measurements, "naive"));
  return results;
}

/** Below this mean total the solver with one extra look-around step, or three, is docked too much for care. */
export const LOOK_AROUND_FLOORS = { "look-around-1": 97, "look-around-3": 90 } as const;
/** At most this many points an episode the solver passes may lose for the extra steps (the issue's rule per episode). */
export const LOOK_AROUND_LOSS = { "look-around-1": 3, "look-around-3": 10 } as const;

/**
 * The rules on the purples built on the solver's work, episode by episode against the solver's own
 * (same seed, same task): on episodes both pass, an opt-in error or an unneeded Id never raises
 * the total; a refusal that discloses what it looked up passes no privacy task; correct answers in
 * other Id forms or at more length pass every task the solver passes; the careful variants keep
 * their mean total above LOOK_AROUND_FLOORS and lose no episode more than LOOK_AROUND_LOSS.
 */
function checkOnSolver(solver: Measurement, at: (purple: string) => Measurement | undefined, check: (rule: string, ok: boolean, detail: string) => void): void {
  const bothPass = (gamer: Measurement) =>
    [...gamer.episodes].flatMap(([key, episode]) => {
      const own = solver.episodes.get(key);
      return own?.passed && episode.passed ? [{ key, gamer: episode, solver: own }] : [];
    });
  for (const [gamer, what] of [
    ["error-opt-in", "a provoked and recovered error"],
    ["unneeded-ids", "an unneeded Id in the answer"],
  ] as const) {
    const measured = at(gamer);
    if (!measured) continue;
    const pairs = bothPass(measured);
    const raised = pairs.filter((pair) => pair.gamer.total > pair.solver.total + 1e-9);
    check(
      `${what} never raises a successful episode's total (${gamer} vs solver)`,
      raised.length === 0,
      raised.length
        ? `raised on ${raised.length} of ${pairs.length} episodes, e.g. seed:task ${raised[0]!.key} (${raised[0]!.gamer.category}) ${fixed(raised[0]!.gamer.total)} > ${fixed(raised[0]!.solver.total)}`
        : `${pairs.length} successful episodes compared`,
    );
  }
  const leaker = at("leaking-refusal");
  if (leaker) {
    const privacy = [...leaker.episodes].filter(([, episode]) => episode.rewardMetric === "privacy_rejection");
    const passed = privacy.filter(([, episode]) => episode.passed);
    check(
      "a refusal that discloses the data it looked up passes no privacy task",
      privacy.length > 0 && passed.length === 0,
      privacy.length === 0
        ? "no privacy task was run"
        : `${passed.length} of ${privacy.length} privacy episodes passed${passed.length ? `, e.g. seed:task ${passed[0]![0]} (${passed[0]![1].category})` : ""}`,
    );
  }
  for (const variant of ["other-id-forms", "verbose-correct"]) {
    const measured = at(variant);
    if (!measured) continue;
    const solved = [...solver.episodes].filter(([, episode]) => episode.passed);
    const lost = solved.filter(([key]) => !measured.episodes.get(key)?.passed);
    check(
      `${variant} passes every task the solver passes`,
      lost.length === 0,
      lost.length ? `fails ${lost.length} of the solver's ${solved.length} passes, e.g. seed:task ${lost[0]![0]} (${lost[0]![1].category})` : `${solved.length} passes kept`,
    );
  }
  for (const variant of ["look-around-1", "look-around-3"] as const) {
    const measured = at(variant);
    if (!measured) continue;
    check(
      `${variant} scores at least ${LOOK_AROUND_FLOORS[variant]}`,
      measured.total >= LOOK_AROUND_FLOORS[variant],
      `total ${fixed(measured.total)} (solver ${fixed(solver.total)})`,
    );
    const pairs = bothPass(measured);
    const docked = pairs.filter((pair) => pair.solver.total - pair.gamer.total > LOOK_AROUND_LOSS[variant] + 1e-9);
    check(
      `${variant} loses at most ${LOOK_AROUND_LOSS[variant]} points on any episode the solver passes`,
      docked.length === 0,
      docked.length
        ? `loses more on ${docked.length} of ${pairs.length} episodes, e.g. seed:task ${docked[0]!.key} (${docked[0]!.gamer.category}) ${fixed(docked[0]!.gamer.total)} vs ${fixed(docked[0]!.solver.total)}`
        : `${pairs.length} episodes compared`,
    );
  }
}

const atLeast = (a: EntropyLevels, b: EntropyLevels) =>
  LEVELS.indexOf(a.drift_level) >= LEVELS.indexOf(b.drift_level) && LEVELS.indexOf(a.rot_level) >= LEVELS.indexOf(b.rot_level);

/**
 * More entropy never makes the world easier: a purple that does not adapt scores no more at a
 * level pair than at any pair it dominates (both levels at least as high), within TOTAL_SLACK for
 * the seeds' spread. A dose that drew gentler perturbations at a higher level fails this.
 */
function checkMonotone(measurements: readonly Measurement[], purple: string): CheckResult[] {
  const own = measurements.filter((m) => m.purple === purple);
  const results: CheckResult[] = [];
  for (const higher of own) {
    const lower = own.filter((m) => m !== higher && atLeast(higher.level, m.level));
    if (lower.length === 0) continue;
    const beaten = lower.filter((m) => higher.total > m.total + TOTAL_SLACK);
    results.push({
      rule: `${purple} scores no more here than at any lower level pair`,
      where: label(higher.level),
      level: higher.level,
      ok: beaten.length === 0,
      detail: beaten.length
        ? beaten.map((m) => `${fixed(higher.total)} > ${fixed(m.total)} at ${label(m.level)}`).join("; ")
        : `${fixed(higher.total)}, lower pairs ${lower.map((m) => fixed(m.total)).join(", ")}`,
    });
  }
  return results;
}
