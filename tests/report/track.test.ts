import { createHash } from "node:crypto";
import { existsSync, readFileSync } from "node:fs";
import { describe, expect, it } from "vitest";
import { TWINS_VERSION } from "../../src/datasets/index.js";
import {
  buildResults,
  mergeShards,
  PUBLIC_B2B_TASK_COUNT,
  PUBLIC_B2B_TASKS_SHA256,
  RankingSchema,
  rankedTrack,
  rankedTrackFingerprint,
  rankingOf,
  robustnessOf,
  summaryText,
  type TaskTrials,
  trackFingerprint,
} from "../../src/report/index.js";
import { type RunSpec, TASK_IDXS, trackLog } from "../fixtures/leaderboard-track.js";
import { REAL_TASKS } from "../support/helpers.js";

/**
 * The ranked track (src/report/track.ts): which runs the results mark ranked, why the others are
 * not, the fingerprint, the robustness flag, and what merge and the summary make of them. The
 * logs are the leaderboard fixture set's (the golden log re-dressed as runs of the track).
 */

const DEFAULT: RunSpec = { agent: "agent", runId: "run", passedBelow: 30 };
const reasonsOf = (spec: Partial<RunSpec>, mutate?: (log: ReturnType<typeof trackLog>) => void) => {
  const log = trackLog({ ...DEFAULT, ...spec });
  mutate?.(log);
  return rankingOf(log);
};

describe("the ranked track", () => {
  it("marks a plain pass over all the track's tasks ranked, on the leaderboard's fingerprint, with keys the schema describes", () => {
    const ranking = reasonsOf({});
    expect(ranking).toEqual({ ranked: true, unranked_reasons: [], track: rankedTrack(), track_fingerprint: rankedTrackFingerprint() });
    const results = buildResults(trackLog(DEFAULT));
    expect(RankingSchema.parse(results)).toEqual(ranking);
    expect(summaryText(results)).toContain(`\nRanked: on the leaderboard's track (${rankedTrackFingerprint()}).\n`);
  });

  it("says why each off-track run is not ranked, and moves the fingerprint only for what changes an episode", () => {
    const fingerprint = rankedTrackFingerprint();
    const cases: [string, ReturnType<typeof rankingOf>, RegExp, boolean][] = [
      ["remap off", reasonsOf({ remap: "off" }), /^remap_ids off: /, true],
      ["unkeyed remap", reasonsOf({}, (log) => Object.assign(log.header, { idRemap: { digest: "x", keyed: false } })), /^Ids remapped without the operator's secret/, true],
      ["weights", reasonsOf({ weights: { ...rankedTrack().weights, FUNCTIONAL: 0.5, DRIFT_ADAPTATION: 0 } }), /^custom weights: /, true],
      ["levels", reasonsOf({ config: { rot_level: "high" } }), /^drift medium, rot high: the ranked track runs drift medium, rot medium$/, true],
      ["max_steps", reasonsOf({ config: { max_steps: 20 } }), /^max_steps 20: the ranked track's is 10$/, true],
      ["mode", reasonsOf({ config: { mode: "interactive" } }), /^mode interactive: the ranked track is single_turn$/, true],
      ["perturbation filter", reasonsOf({ config: { perturbations: ["rot.recycle_bin"] } }), /^a perturbation filter \(rot\.recycle_bin\)/, true],
      [
        "public task file",
        reasonsOf({}, (log) => Object.assign(log.header.data, { dataset: "crmarena-pro-b2b", tasks: { path: "t.json", kind: "crmarena-pro-b2b" } })),
        /^dataset crmarena-pro-b2b: the ranked track runs twins$/,
        true,
      ],
      ["other source", reasonsOf({}, (log) => (log.header.data.tasks.builtFrom!.source.sha256 = "0".repeat(64))), /^the twins were built from another task file/, true],
      ["twins version", reasonsOf({}, (log) => (log.header.data.tasks.builtFrom!.version = TWINS_VERSION - 1)), new RegExp(`^twins version ${TWINS_VERSION - 1}: `), true],
      ["trials", reasonsOf({ config: { trials: 3 } }), /^trials 3: the ranked track runs each task once$/, false],
      ["paired", reasonsOf({ config: { paired: true } }), /^paired: a diagnostic mode/, false],
      ["sample", reasonsOf({ sample: TASK_IDXS.slice(0, 44) }), /^a partial task set \(task_limit, 44 tasks\)/, false],
      ["task ids", reasonsOf({}, (log) => Object.assign(log.header.selection, { mode: "task_ids" })), /^a partial task set \(task_ids, 60 tasks\)/, false],
      [
        "num_instances below the set",
        reasonsOf({}, (log) => Object.assign(log.header.selection, { mode: "task_limit", size: PUBLIC_B2B_TASK_COUNT - 1 })),
        /^a partial task set \(task_limit, 2139 tasks\)/,
        false,
      ],
      ["mismatch", reasonsOf({ config: { allow_data_mismatch: true } }), /^allow_data_mismatch: /, false],
      ["canceled", reasonsOf({}, (log) => Object.assign(log, { footer: { ...log.footer, status: "canceled" } })), /^status canceled: /, false],
    ];
    for (const [name, ranking, reason, movesFingerprint] of cases) {
      expect(ranking.ranked, name).toBe(false);
      expect(ranking.unranked_reasons, name).toHaveLength(1);
      expect(ranking.unranked_reasons[0], name).toMatch(reason);
      expect(ranking.track_fingerprint !== fingerprint, name).toBe(movesFingerprint);
    }
  });

  it("takes a sample as large as the whole twin set (the gateway's num_instances at its size) for all the tasks", () => {
    const whole = reasonsOf({}, (log) => Object.assign(log.header.selection, { mode: "task_limit", size: PUBLIC_B2B_TASK_COUNT }));
    expect(whole.ranked).toBe(true);
    // Less the source tasks the builder had no twin for.
    const lessMissing = reasonsOf({}, (log) => {
      Object.assign(log.header.selection, { mode: "task_limit", size: PUBLIC_B2B_TASK_COUNT - 2 });
      log.header.data.tasks.builtFrom!.missing = [
        { idx: 1, category: "handle_time" },
        { idx: 2, category: "handle_time" },
      ];
    });
    expect(lessMissing.ranked).toBe(true);
  });

  it("ranks a shard of a full run, and its shards merged", () => {
    const shards = [0, 1].map((index) => JSON.parse(JSON.stringify(buildResults(trackLog({ ...DEFAULT, shard: { index, of: 2 } })))));
    for (const shard of shards) expect(shard).toMatchObject({ ranked: true, unranked_reasons: [], track_fingerprint: rankedTrackFingerprint() });
    expect(mergeShards(shards)).toMatchObject({ ranked: true, unranked_reasons: [], track_fingerprint: rankedTrackFingerprint(), summary: { total_tasks: 60 } });
    // A shard that is not ranked leaves the merged run unranked, with its reason.
    const canceled = trackLog({ ...DEFAULT, shard: { index: 1, of: 2 } });
    const unranked = JSON.parse(JSON.stringify(buildResults({ ...canceled, footer: { ...canceled.footer, status: "canceled" } })));
    const merged = mergeShards([shards[0], unranked]);
    expect(merged.ranked).toBe(false);
    expect(merged.unranked_reasons).toEqual(["status canceled: not every task ran"]);
    expect(summaryText(merged)).toContain(`\nNot ranked (track ${rankedTrackFingerprint()}): status canceled: not every task ran.\n`);
  });

  it("has a fingerprint of its values alone: the same whatever their order, another for any other value", () => {
    const track = rankedTrack();
    const reordered = Object.fromEntries(Object.entries(track).reverse()) as typeof track;
    reordered.weights = Object.fromEntries(Object.entries(track.weights).reverse());
    expect(trackFingerprint(reordered)).toBe(trackFingerprint(track));
    expect(trackFingerprint(track)).toMatch(/^trk-[0-9a-f]{16}$/);
    const variants = [
      { drift_level: "high" },
      { max_steps: 11 },
      { id_remap: "off" as const },
      { twins_version: track.twins_version! + 1 },
      { perturbations: ["x"] },
      { source_sha256: null },
    ];
    const fingerprints = new Set(variants.map((variant) => trackFingerprint({ ...track, ...variant })));
    expect(fingerprints.size).toBe(variants.length);
    expect(fingerprints.has(trackFingerprint(track))).toBe(false);
  });

  it.skipIf(!existsSync(REAL_TASKS))("names the public task file by its SHA-256", () => {
    expect(createHash("sha256").update(readFileSync(REAL_TASKS)).digest("hex")).toBe(PUBLIC_B2B_TASKS_SHA256);
  });
});

describe("the robustness flag", () => {
  const task = (idx: number, passed: number, cleanPassed: number): TaskTrials => ({
    task_idx: idx,
    category: idx < 10 ? "a" : "b",
    trials: 1,
    passed,
    clean_trials: 1,
    clean_passed: cleanPassed,
    lost: cleanPassed === 1 && passed === 0 ? 1 : 0,
  });

  it("flags a clean pass rate below the perturbed one, overall and per category, and nothing else", () => {
    // Category a: 8 perturbed passes against 2 clean ones (a purple failing clean on purpose); b: 5 against 8.
    const tasks = [
      ...Array.from({ length: 10 }, (_, i) => task(i, i < 8 ? 1 : 0, i < 2 ? 1 : 0)),
      ...Array.from({ length: 10 }, (_, i) => task(10 + i, i < 5 ? 1 : 0, i < 8 ? 1 : 0)),
    ];
    const block = robustnessOf(tasks, {}, 42);
    // Overall 13 perturbed against 10 clean: flagged too.
    expect(block.ratio).toBe(1.3);
    expect(block.flag).toBe("clean_below_perturbed");
    expect(block.by_category.a!.flag).toBe("clean_below_perturbed");
    expect(block.by_category.b!.flag).toBeNull();
    const honest = robustnessOf(
      tasks.filter((entry) => entry.category === "b"),
      {},
      42,
    );
    expect(honest.flag).toBeNull();
  });
});
