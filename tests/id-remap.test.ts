import { afterAll, describe, expect, it } from "vitest";
import { assess, parseConfig, runSpecFor } from "../src/assessment/index.js";
import { oracleStrategy, type Strategy, servePurple } from "../src/baselines/index.js";
import { A2APurpleClient } from "../src/purple/index.js";
import { canonicalId, IdRemap, idsIn, isCaseSafeId } from "../src/util/index.js";
import { calibration, sampleData } from "./helpers.js";

const data = await sampleData();
afterAll(async () => {
  await data.org.close();
});

describe("the Id remap (a sandbox refresh)", () => {
  it("is a bijection on the org's Ids that keeps the key prefix and gives valid 15- and 18-character Ids", async () => {
    const remap = IdRemap.forRun(42, "secret");
    const ids = [...(await data.org.recordIds())];
    expect(ids.length).toBeGreaterThan(500);
    const mapped = ids.map((id) => remap.id(id));
    expect(new Set(mapped).size).toBe(ids.length);
    expect(() => remap.assertInjective(ids)).not.toThrow();
    for (const [i, id] of ids.entries()) {
      const fresh = mapped[i]!;
      expect(fresh.slice(0, 3)).toBe(id.slice(0, 3));
      expect(fresh).not.toBe(id);
      expect(isCaseSafeId(fresh)).toBe(true);
      expect(remap.id(id.slice(0, 15))).toBe(fresh.slice(0, 15));
    }
  });

  it("follows the seed and the secret, and only them", async () => {
    const id = [...(await data.org.recordIds())][0]!;
    expect(IdRemap.forRun(1, "a").id(id)).toBe(IdRemap.forRun(1, "a").id(id));
    expect(IdRemap.forRun(1, "a").id(id)).not.toBe(IdRemap.forRun(2, "a").id(id));
    expect(IdRemap.forRun(1, "a").id(id)).not.toBe(IdRemap.forRun(1, "b").id(id));
    expect(IdRemap.forRun(1, "a").digest).not.toBe(IdRemap.forRun(1, "b").digest);
  });

  it("rewrites the Ids of a text and leaves every other word alone", async () => {
    const remap = IdRemap.forRun(7);
    const [a, b] = [...(await data.org.recordIds())];
    const text = `Lead Id to be considered is: ${a}. Compare with ${b!.toLowerCase()} and 0123456789abcde, SecureAnalytics2023Pro.`;
    const out = remap.text(text);
    expect(out).toContain(remap.id(a!));
    expect(out).not.toContain(a!);
    // An 18-character token in the wrong case has no valid suffix: it is no Id as written, and stays.
    expect(out).toContain(b!.toLowerCase());
    expect(out).toContain("0123456789abcde, SecureAnalytics2023Pro.");
    expect(remap.answer([a!, null, "None", `the record ${a}`])).toEqual([remap.id(a!), null, "None", `the record ${remap.id(a!)}`]);
  });

  it("compares Ids as Salesforce resolves them", async () => {
    const id = [...(await data.org.recordIds())][0]!;
    expect(canonicalId(id)).toBe(id.slice(0, 15));
    expect(canonicalId(id.toLowerCase())).toBe(id.slice(0, 15));
    expect(canonicalId(id.toUpperCase())).toBe(id.slice(0, 15));
    expect(canonicalId("None")).toBeUndefined();
  });
});

describe("an assessment with the sandbox refresh", () => {
  /** Records everything the green sends the purple, and answers from the ground truth (white-box). */
  function spy(): { strategy: Strategy; seen: string[] } {
    const seen: string[] = [];
    const oracle = oracleStrategy(data.tasks, { secret: "" });
    return {
      seen,
      strategy: async (task, tools) => {
        seen.push(JSON.stringify(task), JSON.stringify(await tools.soql("SELECT Id, Name FROM Account LIMIT 5")));
        return oracle(task, tools);
      },
    };
  }

  it("never shows the purple a dataset Id or index, scores against the remapped truth, and records the map", async () => {
    const datasetIds = new Set([...(await data.org.recordIds())]);
    for (const task of data.tasks.tasks) for (const id of idsIn(`${task.query}\n${task.metadata.required}`)) datasetIds.add(id);
    const run = async (remapIds: boolean) => {
      const { strategy, seen } = spy();
      const { server, url } = await servePurple("spy", strategy, "127.0.0.1", 0);
      try {
        const { config } = parseConfig({ task_limit: 12, seed: 3, concurrency: 4, remap_ids: remapIds });
        const { results, log } = await assess(data, new A2APurpleClient(url), {
          spec: runSpecFor({ participantUrl: url, config, tasksSource: data.sources.tasks.path }),
          calibration,
        });
        return { results, log, seen };
      } finally {
        server.close();
      }
    };
    const on = await run(true);
    const shown = on.seen.flatMap((text) => idsIn(text));
    expect(shown.length).toBeGreaterThan(10);
    expect(shown.filter((id) => datasetIds.has(id))).toEqual([]);
    expect(on.seen.filter((text) => /"taskId":"\d+"/.test(text))).toEqual([]);
    // The white-box oracle knows the key, so it still passes all: the truths it is scored against are the run's.
    expect(on.results.summary.total_passed).toBe(12);
    const idTruths = on.log.episodes.flatMap((record) => record.task.answer.filter((item): item is string => item !== null && isCaseSafeId(item)));
    expect(idTruths.length).toBeGreaterThan(0);
    expect(idTruths.filter((id) => datasetIds.has(id))).toEqual([]);
    expect(on.results.id_remap).toEqual({ digest: IdRemap.forRun(3).digest, keyed: false });
    expect(on.log.header.idRemap).toEqual(on.results.id_remap);
    // Results keep the dataset index of each task.
    expect(on.results.results.map((entry) => entry.task_idx)).toEqual(on.log.header.selection.taskIdxs.map(String));

    const off = await run(false);
    expect(off.seen.flatMap((text) => idsIn(text)).some((id) => datasetIds.has(id))).toBe(true);
    expect(off.results.id_remap).toBeNull();
    expect(off.results.summary.total_passed).toBe(12);
  }, 60_000);
});
