import { addDays, addMonths, countWordValue, MONTH_NAMES } from "../util/index.js";

/**
 * The time windows of CRMArena-Pro's task texts, read the way its own ground truth computed them
 * (its "Domain Details": a quarter is three months, "past N units" ends on Today's date, a
 * season or a quarter of a year is that span, Winter runs December to February). The twins'
 * answer programs use this; the reference agent has a reading of its own, so a misreading here
 * shows as a disagreement instead of being shared.
 */
export interface TwinPeriod {
  /** First and last day, both inclusive (YYYY-MM-DD). */
  readonly start: string;
  readonly end: string;
  /** Where the phrase sits in the text, so a twin can rewrite its year. */
  readonly at: number;
  readonly phrase: string;
  /** The named year ("fall of 2021"), absent for windows relative to today. */
  readonly year?: number;
}

const ORDINALS: Record<string, number> = { first: 1, "1st": 1, second: 2, "2nd": 2, third: 3, "3rd": 3, fourth: 4, "4th": 4 };
const SEASON_START: Record<string, number> = { winter: 12, spring: 3, summer: 6, fall: 9, autumn: 9 };

function count(word: string | undefined): number | undefined {
  if (word === undefined) return 1;
  const lower = word.toLowerCase();
  return countWordValue(lower) ?? (/^\d+$/.test(lower) ? Number(lower) : undefined);
}

function back(today: string, n: number, unit: string): string {
  const u = unit.toLowerCase().replace(/s$/, "");
  if (u === "day") return addDays(today, -n);
  if (u === "week") return addDays(today, -7 * n);
  if (u === "fortnight") return addDays(today, -14 * n);
  if (u === "month") return addMonths(today, -n);
  if (u === "quarter") return addMonths(today, -3 * n);
  return addMonths(today, -12 * n);
}

const pad = (n: number) => String(n).padStart(2, "0");
const monthSpan = (year: number, month: number, months: number) => {
  const start = `${year}-${pad(month)}-01`;
  return { start, end: addDays(addMonths(start, months), -1) };
};

const RELATIVE = /\b(?:last|past|previous|prior|preceding|recent)\s+(?:(\w+)\s+)?(days?|weeks?|fortnights?|months?|quarters?|years?)\b/i;
const QUARTER_OF = /\b(first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter\s+(?:of\s+)?(\d{4})\b/i;
const Q_YEAR = /\bQ([1-4])\s*(?:of\s+)?(\d{4})\b/i;
const SEASON = /\b(winter|spring|summer|fall|autumn)\s+(?:of\s+)?(\d{4})\b/i;
/** "the 2020 Winter season": the year first. */
const YEAR_SEASON = /\b(\d{4})\s+(winter|spring|summer|fall|autumn)\b/i;
const MONTH_YEAR = new RegExp(`\\b(${MONTH_NAMES.join("|")})\\s+(?:of\\s+)?(\\d{4})\\b`, "i");

/** The window a task's question names, or undefined when it names none. */
export function readPeriod(text: string, today: string): TwinPeriod | undefined {
  let m = QUARTER_OF.exec(text) ?? Q_YEAR.exec(text);
  if (m) {
    const quarter = ORDINALS[m[1]!.toLowerCase()] ?? Number(m[1]);
    const year = Number(m[2]);
    return { ...monthSpan(year, 3 * quarter - 2, 3), at: m.index, phrase: m[0], year };
  }
  m = SEASON.exec(text);
  if (m) {
    const year = Number(m[2]);
    return { ...monthSpan(year, SEASON_START[m[1]!.toLowerCase()]!, 3), at: m.index, phrase: m[0], year };
  }
  m = YEAR_SEASON.exec(text);
  if (m) {
    const year = Number(m[1]);
    return { ...monthSpan(year, SEASON_START[m[2]!.toLowerCase()]!, 3), at: m.index, phrase: m[0], year };
  }
  m = MONTH_YEAR.exec(text);
  if (m) {
    const year = Number(m[2]);
    const month = MONTH_NAMES.findIndex((name) => name.toLowerCase() === m![1]!.toLowerCase()) + 1;
    return { ...monthSpan(year, month, 1), at: m.index, phrase: m[0], year };
  }
  m = RELATIVE.exec(text);
  if (m) {
    const n = count(m[1]);
    if (n === undefined) return undefined;
    return { start: back(today, n, m[2]!), end: today, at: m.index, phrase: m[0] };
  }
  return undefined;
}

const AGO =
  /\b(a|an|one|two|three|four|five|six|seven|eight|nine|ten|fourteen|fifteen|twenty|thirty|\d+)\s+(days?|weeks?|fortnights?|months?)\s+(?:ago|back|prior|earlier|before|past)\b/i;
const LAST_UNIT = /\b(?:last|past|previous)\s+(week|month|fortnight)\b/i;

/**
 * The day a purchase phrase points at ("three days prior", "a fortnight back", "fourteen days
 * past", "last month"), or undefined: a week is 7 days, a fortnight 14, a month a calendar month.
 */
export function readDaysAgo(text: string, today: string): { readonly day: string; readonly at: number; readonly phrase: string } | undefined {
  const m = AGO.exec(text) ?? LAST_UNIT.exec(text);
  if (!m) return undefined;
  const n = m.length > 2 ? count(m[1]) : 1;
  const unit = m.length > 2 ? m[2]! : m[1]!;
  if (n === undefined) return undefined;
  return { day: back(today, n, unit), at: m.index, phrase: m[0] };
}

/** The text with the named period's year replaced (the twin moves a named window into its own timeline). */
export function withYear(text: string, period: TwinPeriod, year: number): string {
  if (period.year === undefined) return text;
  const phrase = period.phrase.replace(String(period.year), String(year));
  return text.slice(0, period.at) + phrase + text.slice(period.at + period.phrase.length);
}
