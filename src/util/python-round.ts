/**
 * Python's `round(x, digits)`: ties go to the even neighbour. The leaderboard's old files
 * were written by Python; rounding the same way keeps figures comparable.
 */
export function pyRound(value: number, digits = 0): number {
  if (!Number.isFinite(value)) return value;
  const factor = 10 ** digits;
  const scaled = value * factor;
  const floor = Math.floor(scaled);
  const diff = scaled - floor;
  let rounded: number;
  if (diff > 0.5) rounded = floor + 1;
  else if (diff < 0.5) rounded = floor;
  else rounded = floor % 2 === 0 ? floor : floor + 1;
  return rounded / factor;
}

/** Python's naive `datetime.utcnow().isoformat()`: microseconds, no zone suffix. */
export function naiveUtcIso(date: Date): string {
  return date.toISOString().replace("Z", "000");
}
