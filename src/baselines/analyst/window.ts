import { countWordValue, NUMBER_WORDS_PATTERN } from "../../util/index.js";

/**
 * The analyst's own reading of the time windows CRMArena-Pro's tasks speak in, from the
 * definitions every task carries in its "Domain Details": quarters are calendar quarters,
 * seasons are meteorological (Winter of a year runs from that year's December to the next
 * February), and "past N quarters" is N*3 months back from today (likewise days, weeks,
 * months, years). Dates are ISO days (YYYY-MM-DD); a window is inclusive at both ends.
 */

export interface AnalystWindow {
  /** First day inside the window. */
  readonly start: string;
  /** Last day inside the window. */
  readonly end: string;
}

const MONTHS = ["january", "february", "march", "april", "may", "june", "july", "august", "september", "october", "november", "december"];

const ORDINAL_QUARTERS: Record<string, number> = { first: 1, second: 2, third: 3, fourth: 4, "1st": 1, "2nd": 2, "3rd": 3, "4th": 4 };

function countOf(word: string): number | undefined {
  const lower = word.toLowerCase();
  if (/^\d+$/.test(lower)) return Number(lower);
  return countWordValue(lower);
}

const pad = (value: number) => String(value).padStart(2, "0");

function iso(year: number, month: number, day: number): string {
  return `${year}-${pad(month)}-${pad(day)}`;
}

function daysInMonth(year: number, month: number): number {
  return new Date(Date.UTC(year, month, 0)).getUTCDate();
}

function parseDay(day: string): { year: number; month: number; day: number } {
  const [year, month, date] = day.slice(0, 10).split("-").map(Number);
  return { year: year ?? 0, month: month ?? 1, day: date ?? 1 };
}

/** `day` moved back by whole calendar months, the day clamped to the target month's length (Mar 31 - 1 month = Feb 28/29). */
export function monthsBefore(day: string, months: number): string {
  const { year, month, day: date } = parseDay(day);
  const index = year * 12 + (month - 1) - months;
  const targetYear = Math.floor(index / 12);
  const targetMonth = (index % 12) + 1;
  return iso(targetYear, targetMonth, Math.min(date, daysInMonth(targetYear, targetMonth)));
}

export function daysBefore(day: string, days: number): string {
  const { year, month, day: date } = parseDay(day);
  return new Date(Date.UTC(year, month - 1, date - days)).toISOString().slice(0, 10);
}

function monthRange(year: number, firstMonth: number, months: number): AnalystWindow {
  const lastIndex = year * 12 + (firstMonth - 1) + months - 1;
  const lastYear = Math.floor(lastIndex / 12);
  const lastMonth = (lastIndex % 12) + 1;
  return { start: iso(year, firstMonth, 1), end: iso(lastYear, lastMonth, daysInMonth(lastYear, lastMonth)) };
}

function quarterWindow(year: number, quarter: number): AnalystWindow {
  return monthRange(year, (quarter - 1) * 3 + 1, 3);
}

/** Seasons as the Domain Details define them; Winter of Y is December Y through February Y+1. */
function seasonWindow(season: string, year: number): AnalystWindow | undefined {
  switch (season.toLowerCase()) {
    case "winter":
      return monthRange(year, 12, 3);
    case "spring":
      return monthRange(year, 3, 3);
    case "summer":
      return monthRange(year, 6, 3);
    case "fall":
    case "autumn":
      return monthRange(year, 9, 3);
    default:
      return undefined;
  }
}

/** A relative span back from today: today minus the span, through today. */
function spanBack(today: string, count: number, unit: string): AnalystWindow | undefined {
  const end = today.slice(0, 10);
  const singular = unit.toLowerCase().replace(/s$/, "");
  switch (singular) {
    case "day":
      return { start: daysBefore(end, count), end };
    case "week":
      return { start: daysBefore(end, count * 7), end };
    case "fortnight":
      return { start: daysBefore(end, count * 14), end };
    case "month":
      return { start: monthsBefore(end, count), end };
    case "quarter":
      return { start: monthsBefore(end, count * 3), end };
    case "year":
      return { start: monthsBefore(end, count * 12), end };
    case "half-year":
      return { start: monthsBefore(end, count * 6), end };
    default:
      return undefined;
  }
}

const COUNT = `(\\d+|a|an|${NUMBER_WORDS_PATTERN})`;
const UNIT = "(days?|weeks?|fortnights?|months?|quarters?|years?|half-years?)";
const SEASON = "(winter|spring|summer|fall|autumn)";

/**
 * The window a task's text names, or undefined when it names none. Named periods (a quarter, a
 * season, a month of a year) come first, since a text naming one means it; then relative spans
 * back from today ("past three quarters", "last 6 weeks", "last month", "past year").
 */
export function analystWindow(text: string, today: string): AnalystWindow | undefined {
  const lower = text.toLowerCase();

  // "Q4 2021", "Q4 of 2021", "Q4-2021"
  let match = /\bq([1-4])(?:\s+of|\s*[-,]?)\s*(\d{4})\b/.exec(lower);
  if (match) return quarterWindow(Number(match[2]), Number(match[1]));
  // "the third quarter of 2020", "3rd quarter 2020"
  match = /\b(first|second|third|fourth|1st|2nd|3rd|4th)\s+quarter(?:\s+of)?\s*,?\s*(\d{4})\b/.exec(lower);
  if (match) return quarterWindow(Number(match[2]), ORDINAL_QUARTERS[match[1] as string] as number);
  // "fall of 2021", "Fall 2023", "winter of 2020"
  match = new RegExp(`\\b${SEASON}(?:\\s+season)?(?:\\s+of)?\\s*,?\\s*(\\d{4})\\b`).exec(lower);
  if (match) return seasonWindow(match[1] as string, Number(match[2]));
  // "the 2020 Winter season"
  match = new RegExp(`\\b(\\d{4})\\s+${SEASON}\\b`).exec(lower);
  if (match) return seasonWindow(match[2] as string, Number(match[1]));
  // "November 2020", "November of 2020"
  match = new RegExp(`\\b(${MONTHS.join("|")})(?:\\s+of)?\\s*,?\\s*(\\d{4})\\b`).exec(lower);
  if (match) return monthRange(Number(match[2]), MONTHS.indexOf(match[1] as string) + 1, 1);

  // "past three quarters", "last 6 weeks", "previous 5 months", "within the last nine months", "the past half-year"
  match = new RegExp(`\\b(?:last|past|previous|prior|preceding)\\s+${COUNT}?\\s*${UNIT}(?![a-z])`).exec(lower);
  if (match) return spanBack(today, match[1] ? (countOf(match[1]) ?? 1) : 1, match[2] as string);
  // "in months within the last 11" (the unit given earlier in the sentence)
  match = /\bmonths?\s+within\s+the\s+(?:last|past)\s+(\d+|[a-z]+)\b/.exec(lower);
  if (match && countOf(match[1] as string) !== undefined) return spanBack(today, countOf(match[1] as string) as number, "months");
  // "a specific month in the last 10 where ...": a bare count in a question about months counts months
  match = new RegExp(`\\b(?:last|past|previous)\\s+${COUNT}\\b(?!\\s*(?:days?|weeks?|fortnights?|months?|quarters?|years?|half-years?)\\b)`).exec(lower);
  if (match && /\bmonths?\b/.test(lower)) return spanBack(today, countOf(match[1] as string) ?? 1, "months");
  return undefined;
}

/**
 * The day a text dates a purchase or event to, counting back from today: "three days ago",
 * "five days back", "a week prior", "a fortnight ago", "a month ago", "last month". Undefined
 * when the text dates nothing that way.
 */
export function analystDayBack(text: string, today: string): string | undefined {
  const lower = text.toLowerCase();
  const day = today.slice(0, 10);
  const match = new RegExp(`\\b${COUNT}\\s+(days?|weeks?|fortnights?|months?|years?)\\s+(?:ago|back|prior|before|earlier)\\b`).exec(lower);
  if (match) {
    const count = countOf(match[1] as string) ?? 1;
    const unit = (match[2] as string).replace(/s$/, "");
    if (unit === "day") return daysBefore(day, count);
    if (unit === "week") return daysBefore(day, count * 7);
    if (unit === "fortnight") return daysBefore(day, count * 14);
    if (unit === "month") return monthsBefore(day, count);
    return monthsBefore(day, count * 12);
  }
  if (/\blast\s+month\b/.test(lower)) return monthsBefore(day, 1);
  if (/\blast\s+week\b/.test(lower)) return daysBefore(day, 7);
  if (/\byesterday\b/.test(lower)) return daysBefore(day, 1);
  return undefined;
}
