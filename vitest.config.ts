import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Where the tests' runs write (`demo`, `assess`, reports): a fresh folder, never the user's
 * `output/` (ENTROPIC_OUTPUT_DIR reaches the CLIs the tests start, through the environment).
 */
const OUTPUT = mkdtempSync(join(tmpdir(), "entropic-test-output-"));

export default defineConfig({
  test: {
    env: { ENTROPIC_OUTPUT_DIR: OUTPUT },
    include: ["tests/**/*.test.ts"],
    // A clone without the real task file is told once what is missing and where it comes from.
    globalSetup: ["tests/setup/real-tasks.ts"],
    // The documented commands run apart (npm run test:docs; .ci/run runs them too).
    exclude: ["tests/docs.test.ts", "**/node_modules/**"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
  },
});
