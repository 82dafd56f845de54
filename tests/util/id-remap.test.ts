import { afterAll, describe, expect, it } from "vitest";
import { assess, parseConfig, runSpecFor } from "../../src/assessment/index.js";
import { oracleStrategy, type Strategy, servePurple } from "../../src/baselines/index.js";
import { A2APurpleClient } from "../../src/purple/index.js";
import { canonicalId, EpisodeIds, IdRemap, idsIn, isCaseSafeId } from "../../src/util/index.js";
import { calibration, sampleData } from "../support/helpers.js";

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

describe("an episode's own Ids (EpisodeIds)", () => {
  it("show another Id for each record, read back only the Ids shown, and make an unshown Id of the run name nothing", async () => {
    const run = IdRemap.forRun(9, "s");
    const [a, b, c] = [...(await data.org.recordIds())].map((id) => run.id(id));
    const known = new Set([a!, b!, c!].map((id) => id.slice(0, 15)));
    const episode = new EpisodeIds(run.episodeLayer(4, { trial: 2 }), known);
    const other = new EpisodeIds(run.episodeLayer(4, { trial: 3 }), known);
    // A task id per episode; the first episode's is the run's as it always was.
    expect(new Set([run.episodeId(4), run.episodeId(4, { trial: 2 }), run.episodeId(4, { trial: 1, condition: "clean" })]).size).toBe(3);
    const shownA = episode.show(`the record ${a} and ${a!.slice(0, 15)}`);
    const idA = idsIn(shownA)[0]!;
    expect(idA).not.toBe(a);
    expect(idA.slice(0, 3)).toBe(a!.slice(0, 3));
    expect(isCaseSafeId(idA)).toBe(true);
    expect(shownA).toBe(`the record ${idA} and ${idA.slice(0, 15)}`);
    expect(other.show(a!)).not.toBe(idA);
    // The truth is in the Ids the episode shows.
    expect(episode.answer([a!, null, "None"])).toEqual([idA, null, "None"]);
    // Read back: a shown Id in any letter case, its 15-character form too; other words as written.
    expect(episode.read(`WHERE Id = '${idA}'`)).toBe(`WHERE Id = '${a}'`);
    expect(episode.read(`WHERE Id = '${idA.toLowerCase()}'`)).toBe(`WHERE Id = '${a}'`);
    expect(episode.read(idA.slice(0, 15))).toBe(a!.slice(0, 15));
    expect(episode.readValue({ query: `FIND {${idA}}`, limit: 3 })).toEqual({ query: `FIND {${a}}`, limit: 3 });
    expect(episode.runId(idA)).toBe(a!.slice(0, 15));
    // The run's Id of a record this episode did not show (copied from another episode) is read as one no record has, and echoed back as written.
    const blind = episode.read(b!);
    expect(blind).not.toBe(b);
    expect(known.has(blind.slice(0, 15))).toBe(false);
    expect(episode.show(`no such row: ${blind}`)).toBe(`no such row: ${b}`);
    expect(episode.runId(b!)).toBeUndefined();
    // A guess that is no Id of the run stays as written; a shown one shows as the episode showed it.
    expect(episode.read("0123456789abcdeXYZ")).toBe("0123456789abcdeXYZ");
    expect(episode.showValue([{ Id: a, Name: "Acme", Nested: { OwnerId: a } }])).toEqual([{ Id: idA, Name: "Acme", Nested: { OwnerId: idA } }]);
    expect(episode.shownId(c!)).toBe(episode.show(c!));
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
