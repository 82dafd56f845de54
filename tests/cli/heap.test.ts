import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { DEFAULT_HEAP_GROWING_PERCENT, HEAP_GROWTH_ENV, heapGrowingPercentFromEnv } from "../../src/cli/index.js";

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));

describe("the heap growing factor (src/cli/heap.ts)", () => {
  // What the factor does to a run's peak is measured by `npm run bench -- --only observations` (a
  // synthetic allocation loop in a test did not reproduce a server's heap sizing either way).
  it("is 50% unless the environment says otherwise, and a bad value is refused naming the variable", () => {
    expect(heapGrowingPercentFromEnv({})).toBe(DEFAULT_HEAP_GROWING_PERCENT);
    expect(DEFAULT_HEAP_GROWING_PERCENT).toBe(50);
    expect(heapGrowingPercentFromEnv({ [HEAP_GROWTH_ENV]: " " })).toBe(50);
    expect(heapGrowingPercentFromEnv({ [HEAP_GROWTH_ENV]: "0" })).toBe(0);
    expect(heapGrowingPercentFromEnv({ [HEAP_GROWTH_ENV]: "120" })).toBe(120);
    for (const bad of ["abc", "-1", "1.5", "301"]) {
      expect(() => heapGrowingPercentFromEnv({ [HEAP_GROWTH_ENV]: bad })).toThrow(`${HEAP_GROWTH_ENV} must be a whole number of percent from 0`);
    }
  });

  it("the CLI refuses a bad value before doing anything", async () => {
    const failed = await run(process.execPath, ["--import", "tsx", "src/cli.ts", "--version"], { cwd: ROOT, env: { ...process.env, [HEAP_GROWTH_ENV]: "lots" } }).catch(
      (error: { code: number; stderr: string }) => error,
    );
    expect(failed).toMatchObject({ code: 1 });
    expect((failed as { stderr: string }).stderr).toContain(`entropic-crmarena: ${HEAP_GROWTH_ENV} must be a whole number of percent`);
  });
});
