import { createHash } from "node:crypto";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { assess, chooseTasks, episodePlan, laterEpisode, parseConfig, runSpecFor } from "../../src/assessment/index.js";
import { type Strategy, servePurple, solverStrategy } from "../../src/baselines/index.js";
import { type AssessmentLog, readLog } from "../../src/log/index.js";
import { A2APurpleClient, type PurpleClient, type PurpleTurn } from "../../src/purple/index.js";
import { elide, IdRemap, idsIn, isCaseSafeId, Random } from "../../src/util/index.js";
import { OrgView } from "../../src/world/index.js";
import { calibration, sampleData } from "../support/helpers.js";

/**
 * Unlinkable episodes (issue 28): every trial and paired condition of a task is its own episode,
 * with its own task id and Ids, run only after the task's previous episode ended.
 */

const data = await sampleData();
const servers: { close(): void }[] = [];
afterAll(async () => {
  for (const server of servers) server.close();
  await data.org.close();
});

const GOLDEN = fileURLToPath(new URL("../fixtures/episodes-golden.json", import.meta.url));
const sha = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);

/**
 * What a single-trial unpaired run showed and scored, episode by episode (no timings), read from
 * its journal (the texts whole) with each text cut to 600 characters, as the golden file was made.
 */
function episodesOf(log: Pick<AssessmentLog, "episodes">, taskIds: ReadonlyMap<string, Set<string>>) {
  const cut = (text: string) => elide(text, 600);
  return log.episodes.map((record) => ({
    position: record.position,
    idx: record.task.idx,
    // Tasks of one wording are told apart by their context; the ids shown for a text, sorted.
    taskIds: [...(taskIds.get(`${record.task.query}\n${record.task.requiredContext}`) ?? [])].sort(),
    query: record.task.query,
    truth: record.task.answer,
    answer: record.trajectory.answer === undefined ? null : cut(record.trajectory.answer),
    replies: sha(record.trajectory.steps.map((step) => cut(step.replyText)).join("\n")),
    observations: sha(record.trajectory.steps.map((step) => cut(step.observation?.text ?? "")).join("\n")),
    passed: record.score?.success?.passed ?? null,
  }));
}

describe("a single-trial unpaired run", () => {
  it("shows and scores exactly what it did before episodes were made unlinkable (golden file)", async () => {
    const taskIds = new Map<string, Set<string>>();
    const strategy: Strategy = async (task, tools) => {
      const key = `${task.prompt}\n${task.requiredContext}`;
      taskIds.set(key, (taskIds.get(key) ?? new Set()).add(task.taskId));
      return solverStrategy(task, tools);
    };
    const { server, url } = await servePurple("golden", strategy, "127.0.0.1", 0);
    servers.push(server);
    const { config } = parseConfig({ task_limit: 24, seed: 11, concurrency: 4, drift_level: "high", rot_level: "high" });
    const { logFile } = await assess(data, new A2APurpleClient(url), {
      spec: runSpecFor({ participantUrl: url, config, tasksSource: data.sources.tasks.path }),
      calibration,
      idSecret: "",
      logDir: mkdtempSync(join(tmpdir(), "episodes-golden-")),
    });
    const episodes = episodesOf(await readLog(logFile!), taskIds);
    if (process.env.UPDATE_GOLDEN === "1") writeFileSync(GOLDEN, `${JSON.stringify(episodes, null, 1)}\n`);
    const golden = JSON.parse(readFileSync(GOLDEN, "utf8")) as unknown[];
    expect(episodes).toEqual(golden);
  }, 120_000);
});

describe("an episode's own Ids", () => {
  it("differ between two trials of one task: the task id, the Ids of a record, the texts and the truth; the way back knows only what was shown", async () => {
    const remap = IdRemap.forRun(7, "");
    const task = data.tasks.byIdx.get(6)!;
    const view = await OrgView.plan(data.org, { drift_level: "high", rot_level: "high", seed: 7 }, [task], data.tasks.tasks, remap);
    try {
      const entropy = { drift_level: "high", rot_level: "high" };
      const first = view.episode(task, { keys: remap, entropy });
      const second = view.episode(task, { ordinal: { trial: 2 }, keys: remap, entropy });
      const clean = view.episode(task, { ordinal: { trial: 1, condition: "clean" }, keys: remap, entropy });
      // The first episode is the run's, as it always was.
      expect(first.taskId).toBe(remap.episodeId(task.idx));
      expect(first.groundTruth()).toEqual(remap.answer(task.answer));
      expect(new Set([first.taskId, second.taskId, clean.taskId]).size).toBe(3);
      const truths = [first, second, clean].map((episode) => episode.groundTruth()[0]!);
      expect(new Set(truths).size).toBe(3);
      for (const truth of truths) expect(isCaseSafeId(truth) && truth.slice(0, 3) === task.answer[0]!.slice(0, 3)).toBe(true);
      // The Id in the task's prompt: another in each episode, the rest of the text the same.
      const promptId = (episode: typeof first) => idsIn(episode.brief(10).text.prompt)[0]!;
      expect(promptId(first)).toBe(remap.id(idsIn(task.query)[0]!));
      expect(promptId(second)).not.toBe(promptId(first));
      expect(second.brief(10).text.prompt.replace(promptId(second), "X")).toBe(first.brief(10).text.prompt.replace(promptId(first), "X"));
      // The same records under other Ids, and the crm_task's entropy alike, without the seed.
      const query = (episode: typeof first, soql: string) => episode.runTool({ tool: "soql_query", query: soql }, "2025-12-31");
      const rows = async (episode: typeof first, soql: string) => {
        const outcome = await query(episode, soql);
        if (!outcome.ok || outcome.kind !== "records") throw new Error(JSON.stringify(outcome));
        return outcome.records as { Id: string; Name: string }[];
      };
      const listing = "SELECT Id, Name FROM Product2 ORDER BY Name LIMIT 5";
      const [a, b] = [await rows(first, listing), await rows(second, listing)];
      expect(b.map((row) => row.Name)).toEqual(a.map((row) => row.Name));
      for (const [i, row] of b.entries()) expect(row.Id).not.toBe(a[i]!.Id);
      expect(second.brief(10).brief.entropy).toEqual(first.brief(10).brief.entropy);
      expect(Object.keys(second.brief(10).brief.entropy).sort()).toEqual(["drift_level", "rot_level"]);
      // Named back, an Id the episode showed finds its record (in any letter case); one it did not show, from the other trial, nothing.
      const byId = (id: string) => `SELECT Id, Name FROM Product2 WHERE Id = '${id}'`;
      expect(await rows(second, byId(b[0]!.Id))).toEqual([b[0]]);
      expect(await rows(second, byId(b[0]!.Id.toLowerCase()))).toEqual([b[0]]);
      expect(await rows(second, byId(a[0]!.Id))).toEqual([]);
      expect(second.idStatus(b[0]!.Id)).toBe("live");
      expect(second.idStatus(a[0]!.Id)).toBe("absent");
      expect(first.idStatus(a[0]!.Id)).toBe("live");
      // The product the prompt names is found by the Id this episode's prompt shows, not by the first episode's.
      expect((await rows(second, byId(promptId(second)))).length).toBe(1);
      expect(await rows(second, byId(promptId(first)))).toEqual([]);
      // The truth is the record's Id as this episode shows it.
      expect(second.shownId(remap.id(task.answer[0]!))).toBe(second.groundTruth()[0]);
      // Named before it was shown, it names nothing (a guess); once a listing has shown it, it names its record.
      const truthById = byId(second.groundTruth()[0]!).replace("Product2", "Issue__c");
      expect(await rows(second, truthById)).toEqual([]);
      expect((await rows(second, "SELECT Id, Name FROM Issue__c")).map((row) => row.Id)).toContain(second.groundTruth()[0]);
      expect((await rows(second, truthById)).map((row) => row.Id)).toEqual([second.groundTruth()[0]]);
    } finally {
      await view.close();
    }
  });
});

/** A turn of a fake purple: one reply text, in the context it was given (or a new one). */
const turn = (text: string, contextId: string): PurpleTurn => ({ reply: { texts: [text], data: [] }, contextId, openTaskId: undefined, usage: undefined, bytes: text.length });
const answerWith = (answer: string) => JSON.stringify({ name: "respond", arguments: { answer } });

describe("a task's episodes", () => {
  it("run one after another, never two of a task in flight, while other tasks run beside them; a purple waiting for a sibling sees none", async () => {
    const seed = 5;
    const { config } = parseConfig({ task_limit: 8, seed, concurrency: 4, trials: 2, paired: true, drift_level: "high", rot_level: "high" });
    const spec = runSpecFor({ participantUrl: "stub://paired-wait", config, tasksSource: data.sources.tasks.path });
    const chosen = await chooseTasks(data, config);
    // White-box: which source task and episode each task id is (the test holds the key; the purple does not).
    const remap = IdRemap.forRun(seed, "");
    const plan = episodePlan(chosen.selection.tasks, config);
    const episodeOf = new Map(plan.map((item) => [remap.episodeId(item.task.idx, laterEpisode(item)), item]));
    expect(episodeOf.size).toBe(plan.length);

    // The adversary: holds each task's first reply a while, looking for an episode in flight with
    // the same task id, or the same prompt (a clean twin shows the same question), to copy its answer.
    const inFlight = new Set<{ taskId: string; prompt: string; answer?: string }>();
    const started: string[] = [];
    const entropies: unknown[] = [];
    const sightings: { taskId: string; sibling: string }[] = [];
    let mostInFlight = 0;
    let mostOfOneTask = 0;
    const sourceOf = (taskId: string) => episodeOf.get(taskId)!.task.idx;
    const purple: PurpleClient = {
      url: "stub://paired-wait",
      send: async (message) => {
        const task = message.data;
        const mine = { taskId: String(task.task_id), prompt: String(task.prompt) };
        started.push(mine.taskId);
        entropies.push(task.entropy);
        inFlight.add(mine);
        mostInFlight = Math.max(mostInFlight, inFlight.size);
        mostOfOneTask = Math.max(mostOfOneTask, [...inFlight].filter((other) => sourceOf(other.taskId) === sourceOf(mine.taskId)).length);
        let answer = "None";
        for (let wait = 0; wait < 5; wait++) {
          await new Promise((resolve) => setTimeout(resolve, 3));
          for (const other of inFlight)
            if (other !== mine && (other.taskId === mine.taskId || other.prompt === mine.prompt)) {
              sightings.push({ taskId: mine.taskId, sibling: other.taskId });
              answer = other.answer ?? answer;
            }
        }
        inFlight.delete(mine);
        return turn(answerWith(answer), `ctx-${mine.taskId}`);
      },
    };
    const { log } = await assess(data, purple, { spec, chosen, calibration, idSecret: "" });
    expect(log.episodes).toHaveLength(plan.length);
    // Every episode its own task id; other tasks ran beside each other, never two of one task.
    expect(new Set(started).size).toBe(plan.length);
    expect(mostInFlight).toBeGreaterThan(1);
    expect(mostOfOneTask).toBe(1);
    // A task's episodes in plan order: trial 1 perturbed, then clean, then trial 2 ...
    for (const task of chosen.selection.tasks) {
      const mine = started.map((id) => episodeOf.get(id)!).filter((item) => item.task.idx === task.idx);
      expect(mine.map((item) => item.position)).toEqual(plan.filter((item) => item.task.idx === task.idx).map((item) => item.position));
    }
    // What the adversary saw in flight with its prompt was another task, never its own.
    for (const { taskId, sibling } of sightings) expect(sourceOf(sibling)).not.toBe(sourceOf(taskId));
    // The crm_task says the run's levels in every episode, clean or not, and never the seed.
    expect(entropies.every((entropy) => JSON.stringify(entropy) === JSON.stringify({ drift_level: "high", rot_level: "high" }))).toBe(true);
  }, 120_000);
});

describe("a trial-cache purple", () => {
  it("gains nothing on Id answers: an answer repeated from an earlier trial names no record of the later one", async () => {
    const seed = 7;
    const { config } = parseConfig({ task_limit: 12, seed, concurrency: 4, trials: 3 });
    const remap = IdRemap.forRun(seed, "");
    /** The flaky solver: an episode fails three times in ten, by its task id (the same in both runs below). */
    const flaky = (cache?: Map<string, string>) => {
      const hits = new Set<string>();
      const strategy: Strategy = async (task, tools) => {
        // The adversary's key: the task's whole text, what a trial of the same task shows again.
        const key = `${task.prompt}\n${task.requiredContext}`;
        const cached = cache?.get(key);
        if (cached !== undefined) {
          hits.add(task.taskId);
          return cached;
        }
        if (new Random(`flaky:${task.taskId}`).chance(0.3)) return "I could not work it out.";
        const answer = await solverStrategy(task, tools);
        cache?.set(key, answer);
        return answer;
      };
      return { hits, strategy };
    };
    const run = async (purple: Strategy) => {
      const { server, url } = await servePurple("trial-cache", purple, "127.0.0.1", 0);
      servers.push(server);
      const spec = runSpecFor({ participantUrl: url, config, tasksSource: data.sources.tasks.path });
      return (await assess(data, new A2APurpleClient(url), { spec, calibration, idSecret: "" })).log;
    };
    const honest = await run(flaky().strategy);
    const adversary = flaky(new Map());
    const cached = await run(adversary.strategy);
    const taskIdOf = (record: AssessmentLog["episodes"][number]) => remap.episodeId(record.task.idx, laterEpisode({ trial: record.trial ?? 1 }));
    const namesAnId = (record: AssessmentLog["episodes"][number]) => record.task.answer.some((item) => item !== null && isCaseSafeId(item));
    const passed = (records: AssessmentLog["episodes"]) => records.filter((record) => record.score?.success?.passed === true).length;
    const hitsOnIds = cached.episodes.filter((record) => namesAnId(record) && adversary.hits.has(taskIdOf(record)));
    expect(hitsOnIds.length).toBeGreaterThan(0);
    // Every repeated Id answer failed: the later trial shows the record under another Id.
    for (const record of hitsOnIds) {
      expect(record.trial).toBeGreaterThan(1);
      expect(record.score?.success?.passed).toBe(false);
    }
    // So on the tasks that answer with an Id the cache passes no more episodes than honest work does.
    expect(passed(cached.episodes.filter(namesAnId))).toBeLessThanOrEqual(passed(honest.episodes.filter(namesAnId)));
  }, 180_000);
});
