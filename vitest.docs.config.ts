import { defineConfig } from "vitest/config";

/** The documented commands (tests/e2e/docs.test.ts): a minute and a half of CLI runs, so apart from `npm test`; `.ci/run` runs both. */
export default defineConfig({
  test: {
    include: ["tests/e2e/docs.test.ts"],
    testTimeout: 300_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
