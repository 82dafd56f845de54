/** Calendar helpers on ISO dates (YYYY-MM-DD), shared by the sample generator and the reference solver. */

export const MONTH_NAMES = ["January", "February", "March", "April", "May", "June", "July", "August", "September", "October", "November", "December"];

function parts(date: string): [number, number, number] {
  const [y, m, d] = date.slice(0, 10).split("-").map(Number) as [number, number, number];
  return [y, m, d];
}

function format(y: number, m: number, d: number): string {
  return `${String(y).padStart(4, "0")}-${String(m).padStart(2, "0")}-${String(d).padStart(2, "0")}`;
}

/** Adds months like dateutil's relativedelta: the day is clamped to the target month's length. */
export function addMonths(date: string, months: number): string {
  const [y, m, d] = parts(date);
  const index = y * 12 + (m - 1) + months;
  const year = Math.floor(index / 12);
  const month = (index % 12) + 1;
  const last = new Date(Date.UTC(year, month, 0)).getUTCDate();
  return format(year, month, Math.min(d, last));
}

export function addDays(date: string, days: number): string {
  const [y, m, d] = parts(date);
  const shifted = new Date(Date.UTC(y, m - 1, d + days));
  return shifted.toISOString().slice(0, 10);
}

/** Days between two dates or datetimes (b - a), fractional for datetimes. */
export function daysBetween(a: string, b: string): number {
  return (toMillis(b) - toMillis(a)) / 86_400_000;
}

export function toMillis(value: string): number {
  if (value.length <= 10) return Date.parse(`${value}T00:00:00Z`);
  return Date.parse(value.replace(/\.(\d{3})\+0000$/, ".$1Z"));
}

/** A period unit of the task texts ("past 4 months", "past 3 quarters", "past 6 weeks", "past 10 days"). */
export type PeriodUnit = "day" | "week" | "month" | "quarter";

/** The first day of the window "past N units" ending on `today`. */
export function windowStart(today: string, n: number, unit: PeriodUnit): string {
  switch (unit) {
    case "day":
      return addDays(today, -n);
    case "week":
      return addDays(today, -7 * n);
    case "month":
      return addMonths(today, -n);
    case "quarter":
      return addMonths(today, -3 * n);
  }
}

/** Whether the date part of `value` lies in [start, end], both inclusive. */
export function inWindow(value: string | null | undefined, start: string, end: string): boolean {
  if (!value) return false;
  const day = value.slice(0, 10);
  return day >= start && day <= end;
}

export function monthName(value: string): string {
  return MONTH_NAMES[Number(value.slice(5, 7)) - 1]!;
}
