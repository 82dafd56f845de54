import { execFile } from "node:child_process";
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servePurple, solverStrategy } from "../../src/baselines/index.js";
import { loadResults } from "../../src/cli/results-input.js";
import { assessmentParams, rawStream, sampleData, startGreen } from "../support/helpers.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const run = promisify(execFile);
const cli = (...args: string[]) => run(process.execPath, ["--import", "tsx", "src/cli.ts", ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: "silent" } });

describe("what a newcomer types", () => {
  it("rescore finds the log beside the results file, from the project root", async () => {
    const { stderr, stdout } = await cli("rescore", "tests/fixtures/results/a.results.json", "--no-llm");
    expect(stderr).toMatch(/Re-scored 4 tasks .*passed 4 -> 4/);
    expect(JSON.parse(stdout).log_file).toMatch(/tests\/fixtures\/results\/a\.jsonl$/);
  }, 60_000);

  it("show and report read a run log given in place of the results", async () => {
    const loaded = await loadResults(fileURLToPath(new URL("../fixtures/results/b.jsonl", import.meta.url)), undefined);
    expect(loaded.log).toBeDefined();
    expect(loaded.results.summary.total_tasks).toBe(4);
    expect(loaded.source).toMatch(/read in place of a results file/);
    const { stdout } = await cli("show", "tests/fixtures/results/b.jsonl");
    expect(stdout).toMatch(/^4 episodes, 1 passed/);
  }, 60_000);
});

describe("a request sent again to a server with a runs folder", () => {
  let data: Awaited<ReturnType<typeof sampleData>>;
  beforeAll(async () => {
    data = await sampleData();
  });
  afterAll(async () => {
    await data.org.close();
  });

  it("says it returns the stored run, nothing run again", async () => {
    const purple = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
    const green = await startGreen(data, { runsDir: mkdtempSync(join(tmpdir(), "entropic-runs-")) });
    try {
      const request = assessmentParams({ participants: { agent: purple.url }, config: { task_limit: 2 } });
      const texts = async () =>
        (await rawStream(green.url, { ...request, message: { ...request.message, messageId: `m-${Math.random()}` } })).map(
          (event) => event.result?.status?.message?.parts?.[0]?.text ?? "",
        );
      const first = await texts();
      expect(first.some((text) => /already complete/.test(text))).toBe(false);
      const again = await texts();
      expect(again.some((text) => /is already complete in this server's journal: returning its stored results, nothing runs again/.test(text))).toBe(true);
      expect(again.some((text) => /started task/.test(text))).toBe(false);
    } finally {
      purple.server.close();
      await green.close();
    }
  }, 60_000);
});
