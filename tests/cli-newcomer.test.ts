import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";
import { loadResults } from "../src/cli/results-input.js";

const ROOT = fileURLToPath(new URL("..", import.meta.url));
const run = promisify(execFile);
const cli = (...args: string[]) => run(process.execPath, ["--import", "tsx", "src/cli.ts", ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: "silent" } });

describe("what a newcomer types", () => {
  it("rescore finds the log beside the results file, from the project root", async () => {
    const { stderr, stdout } = await cli("rescore", "tests/fixtures/results/a.results.json", "--no-llm");
    expect(stderr).toMatch(/Re-scored 4 tasks .*passed 4 -> 4/);
    expect(JSON.parse(stdout).log_file).toMatch(/tests\/fixtures\/results\/a\.jsonl$/);
  }, 60_000);

  it("show and report read a run log given in place of the results", async () => {
    const loaded = await loadResults(fileURLToPath(new URL("./fixtures/results/b.jsonl", import.meta.url)), undefined);
    expect(loaded.log).toBeDefined();
    expect(loaded.results.summary.total_tasks).toBe(4);
    expect(loaded.source).toMatch(/read in place of a results file/);
    const { stdout } = await cli("show", "tests/fixtures/results/b.jsonl");
    expect(stdout).toMatch(/^4 episodes, 1 passed/);
  }, 60_000);
});
