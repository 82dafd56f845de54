import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { defineConfig } from "vitest/config";

/**
 * Where the tests' runs write (`demo`, `assess`, reports): a fresh folder, never the user's
 * `output/` (ENTROPIC_OUTPUT_DIR reaches the CLIs the tests start, through the environment).
 */
const OUTPUT = mkdtempSync(join(tmpdir(), "entropic-test-output-"));

/**
 * Files that need a process of their own: they count or measure what the process holds (derive
 * threads started, heap used, event-loop turns) or patch what every file shares (a prototype of
 * node:fs). Every other file shares its worker's modules with the files run before it there:
 * loading the project's modules (the SOQL parser, the tokenizer, the SDKs) cost about 1.2 s of CPU
 * per file, a quarter of the suite's. Such a file leaves what it changed as it found it (the
 * registries' `unregister`, the environment variables it set), which the suite's own files do.
 */
const OWN_PROCESS = [
  "tests/org/derive-thread.test.ts",
  "tests/util/tokens.test.ts",
  "tests/e2e/journal-faults.test.ts",
  "tests/e2e/admission-loop.test.ts",
  "tests/e2e/hostile-neighbour.test.ts",
  "tests/cli/heap.test.ts",
];

export default defineConfig({
  test: {
    env: { ENTROPIC_OUTPUT_DIR: OUTPUT },
    // A clone without the real task file is told once what is missing and where it comes from.
    globalSetup: ["tests/setup/real-tasks.ts"],
    testTimeout: 60_000,
    hookTimeout: 60_000,
    pool: "forks",
    // Both cores (vitest's default leaves one free): most files wait on their purples, servers and
    // query processes for much of their time.
    maxWorkers: 2,
    projects: [
      {
        extends: true,
        test: {
          name: "shared",
          include: ["tests/**/*.test.ts"],
          // The documented commands run apart (npm run test:docs; .ci/run runs them too).
          exclude: ["tests/e2e/docs.test.ts", "**/node_modules/**", ...OWN_PROCESS],
          isolate: false,
        },
      },
      { extends: true, test: { name: "own-process", include: OWN_PROCESS, isolate: true } },
    ],
  },
});
