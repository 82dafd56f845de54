import { addDays, type Random } from "../../util/index.js";
import type { TwinAnswer, TwinContext, TwinDraft } from "../category.js";
import { readPeriod } from "../window.js";
import type { TwinWorld } from "../world.js";

/**
 * What the windowed "which agent had the most/least X" categories (sales amount, conversion
 * rate, sales cycle) share: the source's "Today's date" and window phrase are re-drawn inside
 * the twin org's timeline, the rest of the wording is kept, and the answer is the one agent with
 * the best score under the category's definition (None when the window holds nothing to score).
 */

const TODAY = /(Today's date:\s*)(\d{4}-\d{2}-\d{2})/;
const FIRST_DAY = "2020-01-01";
const LAST_DAY = "2024-12-31";

export function todayOf(required: string): string | undefined {
  return TODAY.exec(required)?.[2];
}

export function withToday(required: string, today: string): string {
  return required.replace(TODAY, (_, label: string) => `${label}${today}`);
}

const dayNumber = (day: string) => Math.round(Date.parse(`${day}T00:00:00Z`) / 86_400_000);

/** Whole days from `from` to `to` (ISO days or datetimes; the day part counts). */
export function daysBetween(from: string, to: string): number {
  return dayNumber(to.slice(0, 10)) - dayNumber(from.slice(0, 10));
}

/** A day drawn uniformly in [from, to]. */
export function drawDay(rng: Random, from: string, to: string): string {
  const span = Math.max(0, daysBetween(from, to));
  return addDays(from, rng.int(0, span));
}

export const inPeriod = (value: unknown, period: { start: string; end: string }) => {
  if (value === null || value === undefined || value === "") return false;
  const day = String(value).slice(0, 10);
  return day >= period.start && day <= period.end;
};

const MOST = /\b(top|highest|greatest|most|largest|maximum|best|longest|leading|peak|biggest|slowest)\b/i;
const LEAST = /\b(lowest|least|smallest|poorest|minimal|minimum|worst|quickest|fastest|shortest|briefest|swiftest|speediest)\b/i;

/** Whether the question asks for the highest or the lowest score: the first superlative it uses decides. */
export function askedDirection(query: string): "max" | "min" | undefined {
  const most = MOST.exec(query);
  const least = LEAST.exec(query);
  if (most && (!least || most.index < least.index)) return "max";
  if (least) return "min";
  return undefined;
}

/** The single agent with the best score; undefined when two share it (such a draw has no unique answer). */
export function uniqueBest(scores: ReadonlyMap<string, number>, direction: "max" | "min"): string | undefined {
  let best: string | undefined;
  let bestScore = 0;
  let tied = false;
  const epsilon = 1e-9;
  for (const [agent, score] of scores) {
    if (best === undefined || (direction === "max" ? score > bestScore + epsilon : score < bestScore - epsilon)) {
      best = agent;
      bestScore = score;
      tied = false;
    } else if (Math.abs(score - bestScore) <= epsilon) tied = true;
  }
  return tied ? undefined : best;
}

/** One agent's score per agent, for a window (the category's answer program). */
export type WindowScores = (world: TwinWorld, period: { readonly start: string; readonly end: string }) => ReadonlyMap<string, number>;

/**
 * The answer a windowed ranking gives: the best agent; `[null]` when the window ranks nobody
 * (no agent scores, or every agent scores the same, as when no lead in it was converted);
 * undefined when some but not all agents tie for the best.
 */
export function rankingAnswer(scores: ReadonlyMap<string, number>, direction: "max" | "min"): TwinAnswer | undefined {
  const values = [...scores.values()];
  if (values.length === 0 || values.every((value) => Math.abs(value - values[0]!) <= 1e-9)) return [null];
  const best = uniqueBest(scores, direction);
  return best === undefined ? undefined : [best];
}

/**
 * The twin of a windowed ranking task: a new today (and, for a named window, a new year with
 * today after the window), the same wording, the answer program's ranking on the twin org.
 * A None twin is drawn half the time with today in the timeline's first weeks (relative windows
 * then reach back before the org's first records) or with a named window in the year before it.
 */
export function windowedTwin(context: TwinContext, scores: WindowScores): TwinDraft | undefined {
  const { source, rng, world } = context;
  const sourceToday = todayOf(source.metadata.required);
  if (!sourceToday) return undefined;
  const sourcePeriod = readPeriod(source.query, sourceToday);
  const direction = askedDirection(source.query);
  if (!sourcePeriod || !direction) return undefined;
  let query = source.query;
  let today: string;
  if (sourcePeriod.year !== undefined) {
    // A None twin may name a window of a year before the org's first records (today stays inside the timeline).
    const year = context.wantNone && rng.chance(0.5) ? rng.pick([2018, 2019]) : rng.int(2020, 2024);
    // The tasks name one year, the window's: it is the one to move.
    query = source.query.replace(String(sourcePeriod.year), String(year));
    const moved = readPeriod(query, sourceToday);
    if (!moved) return undefined;
    const after = moved.end < LAST_DAY ? addDays(moved.end, 1) : LAST_DAY;
    today = drawDay(rng, after < FIRST_DAY ? FIRST_DAY : after, LAST_DAY);
  } else {
    today = context.wantNone && rng.chance(0.5) ? drawDay(rng, "2020-01-01", "2020-01-10") : drawDay(rng, "2020-03-01", LAST_DAY);
  }
  const period = readPeriod(query, today);
  if (!period || period.start < "2018-01-01") return undefined;
  const answer = rankingAnswer(scores(world, period), direction);
  if (!answer) return undefined;
  return { query, required: withToday(source.metadata.required, today), answer };
}
