/**
 * The slow tier: the longest end-to-end tests (a full-size admission, the npm package installed
 * from its tarball, honest runs beside hostile purples, sharded and resumed trials and paired
 * runs, the fairness runs of seeds 2 and 3), which CI runs (.ci/run sets
 * ENTROPIC_SLOW_TESTS=1) and `npm test` on a development machine leaves out unless asked:
 * `ENTROPIC_SLOW_TESTS=1 npm test`. They assert nothing about time; they are only long.
 */
export const SLOW_TESTS = process.env.ENTROPIC_SLOW_TESTS === "1";
