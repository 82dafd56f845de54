import { defineConfig } from "vitest/config";

/** The documented commands (tests/docs.test.ts): a minute and a half of CLI runs, so apart from `npm test`; `.ci/run` runs both. */
export default defineConfig({
  test: {
    include: ["tests/docs.test.ts"],
    testTimeout: 300_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
