import { existsSync, mkdirSync, mkdtempSync, readdirSync, readFileSync, rmSync, utimesSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { DEFAULT_TWINS_CACHE_MB, evictTwinSets, twinCacheBudgetBytes, twinCacheDir, twinSet } from "../../src/data/index.js";
import type { TaskRecord } from "../../src/tasks/index.js";
import { defineTwinCategory, TwinKey } from "../../src/twins/index.js";
import { REAL_TASKS } from "../support/helpers.js";

const MARKER = "built-from.json";
const MB = 1024 * 1024;
/** The clock the eviction is asked at: the sets' ages count back from it. */
const NOW = Date.parse("2026-06-01T12:00:00Z");

/** A cache folder of sets of `mb` megabytes each, last used `ageSeconds` ago. */
function cacheOf(sets: Record<string, { mb: number; ageSeconds: number; marker?: boolean }>): string {
  const dir = mkdtempSync(join(tmpdir(), "twin-cache-"));
  for (const [name, set] of Object.entries(sets)) {
    mkdirSync(join(dir, name, "org"), { recursive: true });
    writeFileSync(join(dir, name, "org", "Account.csv"), Buffer.alloc(set.mb * MB));
    if (set.marker === false) continue;
    writeFileSync(join(dir, name, MARKER), "{}");
    const at = new Date(NOW - set.ageSeconds * 1000);
    utimesSync(join(dir, name, MARKER), at, at);
  }
  return dir;
}

describe("the twin cache is bounded", () => {
  it("evicts the least recently used sets until the cache is within its size, never the one in use or one used in the last minute", async () => {
    const dir = cacheOf({
      oldest: { mb: 1, ageSeconds: 3_000 },
      unfinished: { mb: 1, ageSeconds: 0, marker: false },
      older: { mb: 1, ageSeconds: 2_000 },
      old: { mb: 1, ageSeconds: 1_000 },
      recent: { mb: 1, ageSeconds: 10 },
      current: { mb: 1, ageSeconds: 5_000 },
      "abc.building-1-2": { mb: 1, ageSeconds: 9_000, marker: false },
    });
    const removed = await evictTwinSets(dir, 3.5 * MB, join(dir, "current"), MARKER, NOW);
    // 6 MB of sets (one being built is not counted, nor touched): the unfinished set (no marker, the oldest of all), the oldest and the older go.
    expect(removed.map((path) => path.slice(dir.length + 1))).toEqual(["unfinished", "oldest", "older"]);
    expect(readdirSync(dir).sort()).toEqual(["abc.building-1-2", "current", "old", "recent"]);
    // At a size below what must stay, the set in use and the one used in the last minute still stay.
    await evictTwinSets(dir, 0, join(dir, "current"), MARKER, NOW);
    expect(readdirSync(dir).sort()).toEqual(["abc.building-1-2", "current", "recent"]);
  });

  it("takes its size from ENTROPIC_TWINS_CACHE_MB, else the default, and its folder from ENTROPIC_TWINS_CACHE", () => {
    expect(twinCacheBudgetBytes({})).toBe(DEFAULT_TWINS_CACHE_MB * MB);
    expect(twinCacheBudgetBytes({ ENTROPIC_TWINS_CACHE_MB: "64" })).toBe(64 * MB);
    expect(() => twinCacheBudgetBytes({ ENTROPIC_TWINS_CACHE_MB: "none" })).toThrow(/ENTROPIC_TWINS_CACHE_MB must be a positive number/);
    expect(twinCacheDir({ ENTROPIC_TWINS_CACHE: "/var/lib/entropic/twins", ENTROPIC_CACHE_DIR: "/elsewhere" })).toBe("/var/lib/entropic/twins");
    expect(twinCacheDir({ ENTROPIC_CACHE_DIR: "/elsewhere" })).toBe(join("/elsewhere", "twins"));
  });
});

const maker = defineTwinCategory({
  name: "handle_time",
  twin: ({ source, world, rng, wantNone }) => ({
    query: source.query,
    required: source.metadata.required,
    answer: wantNone ? ["None"] : [String(rng.pick(world.rows("User")).Id)],
  }),
});

describe.skipIf(!existsSync(REAL_TASKS))("twin sets in a bounded cache", () => {
  it("keeps the cache within its size as seeds come, and replaces a damaged set instead of failing on it", async () => {
    const work = mkdtempSync(join(tmpdir(), "twin-cache-sets-"));
    const source = join(work, "source.json");
    const real = JSON.parse(readFileSync(REAL_TASKS, "utf8")) as TaskRecord[];
    writeFileSync(source, JSON.stringify(real.filter((task) => task.task === "handle_time").slice(0, 3)));
    const cacheDir = join(work, "cache");
    const options = (seed: number) => ({ cacheDir, build: { makers: [maker], scale: 0.05 }, key: TwinKey.forRun(seed, "operator secret") });
    const first = await twinSet(source, 1, "config.dataset", options(1));
    // A cache of one byte: the next seed's set evicts every set not in use and not used in the last minute (the first, last used years ago).
    const aged = new Date("2000-01-01T00:00:00Z");
    utimesSync(join(cacheDir, readdirSync(cacheDir)[0]!, MARKER), aged, aged);
    await twinSet(source, 2, "config.dataset", { ...options(2), cacheBytes: 1 });
    expect(readdirSync(cacheDir)).toHaveLength(1);
    expect(existsSync(first.tasksPath)).toBe(false);
    // A set folder left without its marker (damaged) under the key of seed 1: rebuilt over it.
    mkdirSync(join(first.orgPath), { recursive: true });
    writeFileSync(join(first.orgPath, "half.csv"), "Id\n");
    const rebuilt = await twinSet(source, 1, "config.dataset", options(1));
    expect(rebuilt.cached).toBe(false);
    expect(existsSync(join(rebuilt.orgPath, "half.csv"))).toBe(false);
    expect(JSON.parse(readFileSync(rebuilt.tasksPath, "utf8"))).toHaveLength(3);
    // A cache folder that cannot hold sets (a file in its place): refused with its path and the fix, not a runtime text.
    const blocked = join(work, "blocked");
    writeFileSync(blocked, "");
    await expect(twinSet(source, 3, "config.dataset", { ...options(3), cacheDir: blocked })).rejects.toThrow(
      /^config\.dataset: dataset 'twins' cannot be cached in .*blocked \(ENOTDIR\): make it a writable folder, or set ENTROPIC_TWINS_CACHE to one$/,
    );
    rmSync(work, { recursive: true, force: true });
  }, 120_000);
});
