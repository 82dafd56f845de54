import { addDays, addMonths } from "../../util/index.js";

/** A date range [start, end) in ISO dates. */
export interface DateRange {
  readonly start: string;
  readonly end: string;
}

function monthStart(date: string): string {
  return `${date.slice(0, 7)}-01`;
}

function quarterStart(date: string): string {
  const month = Number(date.slice(5, 7));
  const first = Math.floor((month - 1) / 3) * 3 + 1;
  return `${date.slice(0, 4)}-${String(first).padStart(2, "0")}-01`;
}

function yearStart(date: string): string {
  return `${date.slice(0, 4)}-01-01`;
}

/** Weeks start on Sunday (the en_US locale). */
function weekStart(date: string): string {
  const weekday = new Date(`${date}T00:00:00Z`).getUTCDay();
  return addDays(date, -weekday);
}

const FIXED: Record<string, (today: string) => DateRange> = {
  YESTERDAY: (t) => ({ start: addDays(t, -1), end: t }),
  TODAY: (t) => ({ start: t, end: addDays(t, 1) }),
  TOMORROW: (t) => ({ start: addDays(t, 1), end: addDays(t, 2) }),
  LAST_WEEK: (t) => ({ start: addDays(weekStart(t), -7), end: weekStart(t) }),
  THIS_WEEK: (t) => ({ start: weekStart(t), end: addDays(weekStart(t), 7) }),
  NEXT_WEEK: (t) => ({ start: addDays(weekStart(t), 7), end: addDays(weekStart(t), 14) }),
  LAST_MONTH: (t) => ({ start: addMonths(monthStart(t), -1), end: monthStart(t) }),
  THIS_MONTH: (t) => ({ start: monthStart(t), end: addMonths(monthStart(t), 1) }),
  NEXT_MONTH: (t) => ({ start: addMonths(monthStart(t), 1), end: addMonths(monthStart(t), 2) }),
  LAST_90_DAYS: (t) => ({ start: addDays(t, -90), end: addDays(t, 1) }),
  NEXT_90_DAYS: (t) => ({ start: addDays(t, 1), end: addDays(t, 91) }),
  LAST_QUARTER: (t) => ({ start: addMonths(quarterStart(t), -3), end: quarterStart(t) }),
  THIS_QUARTER: (t) => ({ start: quarterStart(t), end: addMonths(quarterStart(t), 3) }),
  NEXT_QUARTER: (t) => ({ start: addMonths(quarterStart(t), 3), end: addMonths(quarterStart(t), 6) }),
  LAST_YEAR: (t) => ({ start: addMonths(yearStart(t), -12), end: yearStart(t) }),
  THIS_YEAR: (t) => ({ start: yearStart(t), end: addMonths(yearStart(t), 12) }),
  NEXT_YEAR: (t) => ({ start: addMonths(yearStart(t), 12), end: addMonths(yearStart(t), 24) }),
};

const WITH_N: Record<string, (today: string, n: number) => DateRange> = {
  // Salesforce: LAST_N_DAYS:n includes today (LAST_N_DAYS:1 is yesterday and today).
  LAST_N_DAYS: (t, n) => ({ start: addDays(t, -n), end: addDays(t, 1) }),
  NEXT_N_DAYS: (t, n) => ({ start: addDays(t, 1), end: addDays(t, n + 1) }),
  N_DAYS_AGO: (t, n) => ({ start: addDays(t, -n), end: addDays(t, -n + 1) }),
  LAST_N_WEEKS: (t, n) => ({ start: addDays(weekStart(t), -7 * n), end: weekStart(t) }),
  NEXT_N_WEEKS: (t, n) => ({ start: addDays(weekStart(t), 7), end: addDays(weekStart(t), 7 * (n + 1)) }),
  N_WEEKS_AGO: (t, n) => ({ start: addDays(weekStart(t), -7 * n), end: addDays(weekStart(t), -7 * (n - 1)) }),
  // The month, quarter and year forms cover whole periods before (or after) the current one.
  LAST_N_MONTHS: (t, n) => ({ start: addMonths(monthStart(t), -n), end: monthStart(t) }),
  NEXT_N_MONTHS: (t, n) => ({ start: addMonths(monthStart(t), 1), end: addMonths(monthStart(t), n + 1) }),
  N_MONTHS_AGO: (t, n) => ({ start: addMonths(monthStart(t), -n), end: addMonths(monthStart(t), -n + 1) }),
  LAST_N_QUARTERS: (t, n) => ({ start: addMonths(quarterStart(t), -3 * n), end: quarterStart(t) }),
  NEXT_N_QUARTERS: (t, n) => ({ start: addMonths(quarterStart(t), 3), end: addMonths(quarterStart(t), 3 * (n + 1)) }),
  N_QUARTERS_AGO: (t, n) => ({ start: addMonths(quarterStart(t), -3 * n), end: addMonths(quarterStart(t), -3 * (n - 1)) }),
  LAST_N_YEARS: (t, n) => ({ start: addMonths(yearStart(t), -12 * n), end: yearStart(t) }),
  NEXT_N_YEARS: (t, n) => ({ start: addMonths(yearStart(t), 12), end: addMonths(yearStart(t), 12 * (n + 1)) }),
  N_YEARS_AGO: (t, n) => ({ start: addMonths(yearStart(t), -12 * n), end: addMonths(yearStart(t), -12 * (n - 1)) }),
};

export const DATE_LITERAL_NAMES = [...Object.keys(FIXED), ...Object.keys(WITH_N).map((name) => `${name}:n`)];

/** The range a relative date literal stands for on `today`, or undefined for an unknown literal. */
export function dateLiteralRange(literal: string, today: string): DateRange | undefined {
  const [name, count] = literal.toUpperCase().split(":");
  if (count === undefined) return FIXED[name!]?.(today);
  const n = Number(count);
  if (!Number.isInteger(n) || n < 0) return undefined;
  return WITH_N[name!]?.(today, n);
}
