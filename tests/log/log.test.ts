import { appendFileSync, copyFileSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { type AssessmentLog, Journal, LOG_VERSION, LogError, LogHeaderSchema, readLog } from "../../src/log/index.js";
import { buildResults } from "../../src/report/index.js";

const fixture = (name: string) => fileURLToPath(new URL(`../fixtures/logs/${name}`, import.meta.url));
const GOLDEN = fixture("golden-v2.jsonl");
const GOLDEN_V1 = fixture("golden-v1.jsonl");
const scratch = () => mkdtempSync(join(tmpdir(), "log-"));
const resultsOf = async (path: string, logFile: string) => {
  const stored = await readLog(path);
  const log: AssessmentLog = { header: stored.header, episodes: stored.episodes, footer: stored.footer! };
  return JSON.parse(JSON.stringify(buildResults(log, { logFile })));
};

/** Every key of a value, at any depth, but those of the values that keep their owners' keys (the user's config, the entropy plan). */
function keysOf(value: unknown, skip: ReadonlySet<string>): string[] {
  if (Array.isArray(value)) return value.flatMap((item) => keysOf(item, skip));
  if (value === null || typeof value !== "object") return [];
  return Object.entries(value).flatMap(([key, item]) => (skip.has(key) ? [key] : [key, ...keysOf(item, skip)]));
}

describe("the assessment log", () => {
  it("reads the golden log of version 2 and rebuilds exactly the results it gave", async () => {
    const stored = await readLog(GOLDEN);
    expect(stored.writtenVersion).toBe(LOG_VERSION);
    expect(stored.header).toMatchObject({ kind: "header", logVersion: 2, spec: { specVersion: 1, runId: "golden-v2" } });
    expect(stored.episodes.map((episode) => episode.task.idx)).toEqual([0, 18, 40]);
    expect(stored.footer?.status).toBe("completed");
    expect(await resultsOf(GOLDEN, "golden-v2.jsonl")).toEqual(JSON.parse(readFileSync(fixture("golden-v2.results.json"), "utf8")));
  });

  it("has one casing: every key the log names is camelCase, but the user's config keys and the entropy plan's", () => {
    const lines = readFileSync(GOLDEN, "utf8").split("\n").filter(Boolean);
    const keys = lines.flatMap((line) => keysOf(JSON.parse(line), new Set(["config", "entropy", "weights", "dimensions", "notApplicable", "answers", "versions", "arguments"])));
    expect(keys.filter((key) => key.includes("_"))).toEqual([]);
  });

  it("reads a log of version 1 migrated to the current layout: the same results, field for field", async () => {
    const stored = await readLog(GOLDEN_V1);
    expect(stored.writtenVersion).toBe(1);
    // Migrated, the header is a current one.
    expect(LogHeaderSchema.parse(stored.header)).toEqual(stored.header);
    expect(stored.header).toMatchObject({ logVersion: 2, spec: { runId: "golden-v1", participantUrl: "http://purple.example/" }, chanceFloor: null, idRemap: null });
    expect(stored.header.selection).toEqual({ mode: "task_ids", size: 3, shardIndex: 0, numShards: 1, taskIdxs: [0, 18, 40] });
    expect(stored.header.data.check).toEqual({ referencedIds: 4, missingIds: 0, examples: [], allowedMismatch: false });
    expect(stored.footer).toMatchObject({ status: "completed", judgeUsage: null });
    expect(await resultsOf(GOLDEN_V1, "golden-v1.jsonl")).toEqual(JSON.parse(readFileSync(fixture("golden-v1.results.json"), "utf8")));
  });

  it("refuses a log of another version, and any line that does not fit the layout, naming the line and field", async () => {
    const dir = scratch();
    const lines = readFileSync(GOLDEN, "utf8").split("\n");
    const future = join(dir, "future.jsonl");
    writeFileSync(future, [JSON.stringify({ ...JSON.parse(lines[0]!), logVersion: LOG_VERSION + 1 }), ...lines.slice(1)].join("\n"));
    await expect(readLog(future)).rejects.toThrow(/has log version 3; this green agent reads versions 2 and 1/);
    const broken = join(dir, "broken.jsonl");
    const episode = JSON.parse(lines[1]!);
    episode.trajectory.termination = "bored";
    writeFileSync(broken, [lines[0], JSON.stringify(episode), ...lines.slice(2)].join("\n"));
    await expect(readLog(broken)).rejects.toThrow(LogError);
    await expect(readLog(broken)).rejects.toThrow(/broken\.jsonl:2: field 'trajectory\.termination'/);
    const brokenHeader = join(dir, "broken-header.jsonl");
    const header = JSON.parse(lines[0]!);
    header.selection.shardIndex = -1;
    writeFileSync(brokenHeader, [JSON.stringify(header), ...lines.slice(1)].join("\n"));
    await expect(readLog(brokenHeader)).rejects.toThrow(/broken-header\.jsonl:1: field 'selection\.shardIndex'/);
  });

  it("names a bad field of a version-1 log as that version spells it, with its file and line", async () => {
    const dir = scratch();
    const lines = readFileSync(GOLDEN_V1, "utf8").split("\n");
    const header = JSON.parse(lines[0]!);
    delete header.participant_url;
    const noUrl = join(dir, "v1-header.jsonl");
    writeFileSync(noUrl, [JSON.stringify(header), ...lines.slice(1)].join("\n"));
    await expect(readLog(noUrl)).rejects.toThrow(/v1-header\.jsonl:1: field 'participant_url'/);
    const footerLine = lines.findIndex((line) => line.includes('"kind":"footer"'));
    const footer = JSON.parse(lines[footerLine]!);
    footer.wall_ms = "long";
    const badFooter = join(dir, "v1-footer.jsonl");
    writeFileSync(badFooter, [...lines.slice(0, footerLine), JSON.stringify(footer), ...lines.slice(footerLine + 1)].join("\n"));
    await expect(readLog(badFooter)).rejects.toThrow(new RegExp(`v1-footer\\.jsonl:${footerLine + 1}: field 'wall_ms'`));
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
