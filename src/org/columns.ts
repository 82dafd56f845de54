/**
 * `SELECT a.Id, b.Id` yields two columns named Id; keep both as Id and Id_2. One rule for the
 * query processes (query-worker.ts) and the in-process rows backend (rows.ts), so both name a
 * result's columns alike.
 */
export function uniqueNames(names: string[]): string[] {
  const seen = new Map<string, number>();
  return names.map((name) => {
    const count = (seen.get(name) ?? 0) + 1;
    seen.set(name, count);
    return count === 1 ? name : `${name}_${count}`;
  });
}
