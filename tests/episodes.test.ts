import { createHash } from "node:crypto";
import { readFileSync, writeFileSync } from "node:fs";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { assess, parseConfig, runSpecFor } from "../src/assessment/index.js";
import { type Strategy, servePurple, solverStrategy } from "../src/baselines/index.js";
import type { AssessmentLog } from "../src/log/index.js";
import { A2APurpleClient } from "../src/purple/index.js";
import { calibration, sampleData } from "./helpers.js";

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

const GOLDEN = fileURLToPath(new URL("./fixtures/episodes-golden.json", import.meta.url));
const sha = (text: string) => createHash("sha256").update(text).digest("hex").slice(0, 16);

/** What a single-trial unpaired run showed and scored, episode by episode (no timings). */
function episodesOf(log: AssessmentLog, taskIds: ReadonlyMap<string, Set<string>>) {
  return log.episodes.map((record) => ({
    position: record.position,
    idx: record.task.idx,
    // Tasks of one wording are told apart by their context; the ids shown for a text, sorted.
    taskIds: [...(taskIds.get(`${record.task.query}\n${record.task.requiredContext}`) ?? [])].sort(),
    query: record.task.query,
    truth: record.task.answer,
    answer: record.trajectory.answer ?? null,
    replies: sha(record.trajectory.steps.map((step) => step.replyText).join("\n")),
    observations: sha(record.trajectory.steps.map((step) => step.observation?.text ?? "").join("\n")),
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
    const { log } = await assess(data, new A2APurpleClient(url), {
      spec: runSpecFor({ participantUrl: url, config, tasksSource: data.sources.tasks.path }),
      calibration,
      idSecret: "",
    });
    const episodes = episodesOf(log, taskIds);
    if (process.env.UPDATE_GOLDEN === "1") writeFileSync(GOLDEN, `${JSON.stringify(episodes, null, 1)}\n`);
    const golden = JSON.parse(readFileSync(GOLDEN, "utf8")) as unknown[];
    expect(episodes).toEqual(golden);
  }, 120_000);
});
