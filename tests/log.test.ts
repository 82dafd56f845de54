import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type AssessmentLog, Journal, LOG_VERSION, LogError, readLog } from "../src/log/index.js";
import { buildResults } from "../src/report/index.js";

const GOLDEN = fileURLToPath(new URL("./fixtures/logs/golden-v1.jsonl", import.meta.url));
const GOLDEN_RESULTS = fileURLToPath(new URL("./fixtures/logs/golden-v1.results.json", import.meta.url));
const scratch = () => mkdtempSync(join(tmpdir(), "log-"));

describe("the assessment log", () => {
  it("reads the golden log of version 1 and rebuilds exactly the results it gave", async () => {
    const stored = await readLog(GOLDEN);
    expect(stored.header).toMatchObject({ kind: "header", log_version: 1, run_id: "golden-v1" });
    expect(stored.episodes.map((episode) => episode.task.idx)).toEqual([0, 18, 40]);
    expect(stored.footer?.status).toBe("completed");
    const log: AssessmentLog = { header: stored.header, episodes: stored.episodes, footer: stored.footer! };
    expect(JSON.parse(JSON.stringify(buildResults(log, { logFile: "golden-v1.jsonl" })))).toEqual(JSON.parse(readFileSync(GOLDEN_RESULTS, "utf8")));
  });

  it("refuses a log of another version, and any line that does not fit the layout, naming the line and field", async () => {
    const dir = scratch();
    const lines = readFileSync(GOLDEN, "utf8").split("\n");
    const future = join(dir, "future.jsonl");
    writeFileSync(future, [JSON.stringify({ ...JSON.parse(lines[0]!), log_version: LOG_VERSION + 1 }), ...lines.slice(1)].join("\n"));
    await expect(readLog(future)).rejects.toThrow(/has log version 2; this green agent reads version 1/);
    const broken = join(dir, "broken.jsonl");
    const episode = JSON.parse(lines[1]!);
    episode.trajectory.termination = "bored";
    writeFileSync(broken, [lines[0], JSON.stringify(episode), ...lines.slice(2)].join("\n"));
    await expect(readLog(broken)).rejects.toThrow(LogError);
    await expect(readLog(broken)).rejects.toThrow(/broken\.jsonl:2: field 'trajectory\.termination'/);
  });

  it("drops a line a crash cut short, and a journal continued after it starts a line of its own", async () => {
    const dir = scratch();
    const path = join(dir, "torn.jsonl");
    const lines = readFileSync(GOLDEN, "utf8").split("\n").filter(Boolean);
    // The header and the first episode made it; the second was being written when the process died.
    writeFileSync(path, `${lines[0]}\n${lines[1]}\n${lines[2]!.slice(0, 500)}`);
    const torn = await readLog(path);
    expect(torn.episodes).toHaveLength(1);
    expect(torn.footer).toBeUndefined();
    const journal = await Journal.open(path, "continue");
    await journal.writeEpisode(JSON.parse(lines[2]!));
    await journal.close();
    expect((await readLog(path)).episodes.map((episode) => episode.position)).toEqual([1, 2]);
  });

  it("never writes over another run's journal", async () => {
    const dir = scratch();
    const path = join(dir, "run.jsonl");
    copyFileSync(GOLDEN, path);
    await expect(Journal.open(path, "new")).rejects.toThrow(/EEXIST/);
    appendFileSync(path, "");
  });
});
