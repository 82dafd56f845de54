/** How the benchmark prints: numbers, verdicts beside targets, aligned tables, the load average. */
import { loadavg } from "node:os";

export const f = (value: number, digits = 1) => value.toFixed(digits);
export const mb = (value: number) => f(value, 0);
export const verdict = (ok: boolean) => (ok ? "met" : "NOT met");
/** The 1-minute load average: every figure is read beside it (the machine may be shared). */
export const load = () => `load ${f(loadavg()[0]!, 2)}`;

export function out(line = ""): void {
  process.stdout.write(`${line}\n`);
}

export function table(header: string[], rows: string[][]): void {
  const widths = header.map((cell, i) => Math.max(cell.length, ...rows.map((row) => row[i]!.length)));
  const render = (row: string[]) => `  ${row.map((cell, i) => (i === 0 ? cell.padEnd(widths[i]!) : cell.padStart(widths[i]!))).join("  ")}`.trimEnd();
  out(render(header));
  out(`  ${widths.map((width) => "-".repeat(width)).join("  ")}`);
  for (const row of rows) out(render(row));
}
