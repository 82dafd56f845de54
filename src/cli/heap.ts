import { setFlagsFromString } from "node:v8";

/**
 * How far V8 lets the JavaScript heap grow past what a full collection left, before the next one.
 *
 * V8 sizes that itself (its "heap growing factor", up to about 4x the live heap when a process
 * allocates fast). An assessment allocates fast and briefly: every turn makes its query result,
 * observation text and request body, dead a moment later. With 0.64 MB observations the heap was
 * let grow to about 3.7 times its live 60-100 MB before a full collection, and the green's peak
 * RSS rose 357 MB above idle (`npm run bench -- --only observations`, journal on). Capping the
 * factor at 1.5 (--heap-growing-percent=50) brought the same run to +145 MB for about 1 s more
 * wall time over 300 turns: full collections of a small live heap are cheap. 0 gives V8 back its
 * own factor.
 */
export const HEAP_GROWTH_ENV = "ENTROPIC_HEAP_GROWING_PERCENT";
export const DEFAULT_HEAP_GROWING_PERCENT = 50;

/** The percent the environment asks for: an integer from 0 (V8's own factor) to 300; anything else is refused, naming the variable. */
export function heapGrowingPercentFromEnv(env: NodeJS.ProcessEnv = process.env): number {
  const raw = env[HEAP_GROWTH_ENV];
  if (raw === undefined || raw.trim() === "") return DEFAULT_HEAP_GROWING_PERCENT;
  const percent = Number(raw);
  if (!Number.isInteger(percent) || percent < 0 || percent > 300) {
    throw new Error(`${HEAP_GROWTH_ENV} must be a whole number of percent from 0 (V8's own heap growing factor) to 300 (got ${JSON.stringify(raw)})`);
  }
  return percent;
}

/**
 * Sets V8's heap growing factor for this process from the environment; returns the percent set
 * (0: nothing set). V8 reads the flag each time it sizes the heap after a collection, so setting
 * it once at start-up holds for the life of the process.
 */
export function tuneHeapGrowth(env: NodeJS.ProcessEnv = process.env): number {
  const percent = heapGrowingPercentFromEnv(env);
  if (percent > 0) setFlagsFromString(`--heap-growing-percent=${percent}`);
  return percent;
}
