/** Comparing SOQL records with rows from a hand-written SQLite query (shared by the SOQL test files). */

/** Nested Salesforce records as flat rows: `{Account: {ShippingState}}` → `{"Account.ShippingState"}`, attributes dropped. */
export function flatten(record: Record<string, unknown>, prefix = ""): Record<string, unknown> {
  const flat: Record<string, unknown> = {};
  for (const [key, value] of Object.entries(record)) {
    if (key === "attributes") continue;
    if (value !== null && typeof value === "object" && !Array.isArray(value) && !("records" in value))
      Object.assign(flat, flatten(value as Record<string, unknown>, `${prefix}${key}.`));
    else flat[`${prefix}${key}`] = value;
  }
  return flat;
}

const byJson = (a: unknown, b: unknown) => (JSON.stringify(a) < JSON.stringify(b) ? -1 : 1);

/** Numbers to six decimals: SQLite's and the translator's float arithmetic may differ in the last bits. */
export const round = (rows: Record<string, unknown>[]) =>
  rows.map((row) => Object.fromEntries(Object.entries(row).map(([k, v]) => [k, typeof v === "number" ? Math.round(v * 1e6) / 1e6 : v])));

/** Rows in a canonical order, for comparing results whose order the query does not fix. */
export const sorted = (rows: Record<string, unknown>[]) => [...rows].sort(byJson);
