import { type ChildProcess, spawn } from "node:child_process";
import { existsSync, mkdtempSync, readdirSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { type Message, Role, type Task, TaskState } from "@a2a-js/sdk";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { chooseTasks, MEMORY_TEXT_CHARS, parseConfig, runAssessment, runSpecFor, WholeTextBudget } from "../../src/assessment/index.js";
import { type Strategy, servePurple, solverStrategy } from "../../src/baselines/index.js";
import { Journal, readLog } from "../../src/log/index.js";
import type { PurpleClient } from "../../src/purple/index.js";
import { HeuristicJudge } from "../../src/scoring/index.js";
import { ExpiringTaskStore, IN_FLIGHT_HISTORY } from "../../src/server/task-store.js";
import { fullLength } from "../../src/util/index.js";
import { cliInProcess } from "../support/cli-runner.js";
import { assessmentParams, calibration, freePort, rawRpc, sampleData, startGreen } from "../support/helpers.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const data = await sampleData();
const purples: { server: { close(): void } }[] = [];
let green: Awaited<ReturnType<typeof startGreen>>;

async function purple(strategy: Strategy): Promise<string> {
  const served = await servePurple("test", strategy, "127.0.0.1", 0);
  purples.push(served);
  return served.url;
}

/** A solver that takes `ms` before each of its replies. */
const slowSolver =
  (ms: number): Strategy =>
  async (task, tools) => {
    const slow =
      <T>(call: (...args: never[]) => Promise<T>) =>
      async (...args: never[]) => {
        await sleep(ms);
        return call(...args);
      };
    await sleep(ms);
    return solverStrategy(task, {
      describe: slow(tools.describe as never),
      soql: slow(tools.soql as never),
      sosl: slow(tools.sosl as never),
      sql: slow(tools.sql as never),
      call: slow(tools.call as never),
    });
  };

beforeAll(async () => {
  green = await startGreen(data);
});

afterAll(async () => {
  for (const served of purples) served.server.close();
  await green.close();
  await data.org.close();
});

/** Streams an assessment; returns every event with the time it arrived. */
/** The order in which events arrive, over every stream of this file: which came before which. */
let arrivals = 0;

/** Streams an assessment; each event with its place in the order of arrival over all streams. */
async function streamEvents(url: string, document: unknown): Promise<{ seq: number; event: any }[]> {
  const response = await fetch(url, {
    method: "POST",
    headers: { "content-type": "application/json", accept: "text/event-stream" },
    body: JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/stream", params: assessmentParams(document) }),
  });
  const reader = response.body!.getReader();
  const decoder = new TextDecoder();
  const events: { seq: number; event: any }[] = [];
  let buffer = "";
  for (;;) {
    const { done, value } = await reader.read();
    if (done) break;
    buffer += decoder.decode(value, { stream: true });
    const lines = buffer.split("\n");
    buffer = lines.pop()!;
    for (const line of lines) if (line.startsWith("data:")) events.push({ seq: arrivals++, event: JSON.parse(line.slice(5)).result });
  }
  return events;
}

/** How many of `events` arrived while `run` was in flight (after its first event, before its last). */
const during = (events: { seq: number }[], run: { seq: number }[]) => events.filter(({ seq }) => seq > run[0]!.seq && seq < run[run.length - 1]!.seq).length;

describe("no reply can freeze the server", () => {
  it("a 1 MB one-word answer and 100 KB answers leave a concurrent assessment's events flowing, and all complete", async () => {
    const giant = await purple(async () => "a".repeat(1_000_000));
    const large = await purple(async (task) => `${task.taskId} ${"lorem ipsum dolor ".repeat(6_000)}`);
    const steady = await purple(slowSolver(50));
    const [observer, giantRun, largeRun] = await Promise.all([
      streamEvents(green.url, { participants: { agent: steady }, config: { task_limit: 12, concurrency: 2 } }),
      streamEvents(green.url, { participants: { agent: giant }, config: { task_limit: 6, concurrency: 3 } }),
      streamEvents(green.url, { participants: { agent: large }, config: { task_limit: 20, concurrency: 4 } }),
    ]);
    for (const run of [observer, giantRun, largeRun]) expect(run[run.length - 1]!.event.status.state).toBe("completed");
    // The observer's episodes went on while the giant's and the large answers' were read and
    // scored: its events interleave with theirs (in order of arrival; the clock is the bench's).
    expect(during(observer, giantRun)).toBeGreaterThanOrEqual(2);
    expect(during(observer, largeRun)).toBeGreaterThanOrEqual(2);
    const results = giantRun.find((entry) => entry.event.kind === "artifact-update")!.event.artifact.parts[1].data;
    expect(results.results[0].trajectory.steps[0].received_tokens).toBeGreaterThan(100_000);
  }, 120_000);
});

describe("cancel", () => {
  it("ends an assessment whose purple hangs as canceled, the abort reaching the HTTP call", async () => {
    const hanging = await purple(() => new Promise<string>(() => undefined));
    const started = await rawRpc(green.url, "message/send", {
      ...assessmentParams({ participants: { agent: hanging }, config: { task_limit: 3, timeout: 300 } }),
      configuration: { blocking: false },
    });
    const taskId = started.body.result.id;
    await sleep(300);
    const canceled = await rawRpc(green.url, "tasks/cancel", { id: taskId, metadata: { task_token: started.body.result.metadata.task_token } });
    expect(canceled.body.result.status.state).toBe("canceled");
  }, 30_000);
});

describe("the task store", () => {
  it("forgets finished tasks after their time, never those in flight", async () => {
    let now = 0;
    const store = new ExpiringTaskStore(1_000, () => now);
    const task = (id: string, state: TaskState) => ({ id, contextId: "c", status: { state }, artifacts: [], history: [] }) as never;
    await store.save(task("done", TaskState.TASK_STATE_COMPLETED));
    await store.save(task("busy", TaskState.TASK_STATE_WORKING));
    now = 999;
    expect(await store.load("done")).toBeDefined();
    now = 1_001;
    expect(await store.load("done")).toBeUndefined();
    now = 1_000_000;
    expect(await store.load("busy")).toBeDefined();
    expect(store.size).toBe(1);
  });

  it("keeps a finished task's request, final status and artifacts, not its progress history, and only the most recent finished tasks", async () => {
    const store = new ExpiringTaskStore(60_000, () => 0, 2);
    const message = (id: string) => ({ role: Role.ROLE_AGENT, messageId: id, parts: [] });
    const finished = (id: string) =>
      ({
        id,
        contextId: "c",
        status: { state: TaskState.TASK_STATE_COMPLETED },
        history: [message("request"), ...Array.from({ length: 100 }, (_, i) => message(`p${i}`)), message("final")],
        artifacts: [{ artifactId: "a", parts: [] }],
      }) as never;
    for (const id of ["t1", "t2", "t3"]) await store.save(finished(id));
    expect(await store.load("t1")).toBeUndefined();
    const kept = (await store.load("t3")) as unknown as { history: { messageId: string }[]; artifacts: unknown[] };
    expect(kept.history.map((entry) => entry.messageId)).toEqual(["request", "final"]);
    expect(kept.artifacts).toHaveLength(1);
    expect(store.size).toBe(2);
  });

  it("bounds an in-flight task's history, in the object the SDK keeps updating: the request and the latest updates", async () => {
    const store = new ExpiringTaskStore(60_000, () => 0);
    const message = (id: string): Message => ({
      role: Role.ROLE_AGENT,
      messageId: id,
      contextId: "c",
      taskId: "t",
      parts: [],
      metadata: undefined,
      extensions: [],
      referenceTaskIds: [],
    });
    const task: Task = {
      id: "t",
      contextId: "c",
      status: { state: TaskState.TASK_STATE_WORKING, message: undefined, timestamp: undefined },
      artifacts: [],
      history: [message("request")],
      metadata: undefined,
    };
    // As the SDK's result manager does: append each update to the same task object and save it.
    for (let i = 0; i < 5_000; i++) {
      task.history = [...(task.history ?? []), message(`p${i}`)];
      await store.save(task);
      expect(task.history!.length).toBeLessThanOrEqual(IN_FLIGHT_HISTORY);
    }
    const loaded = (await store.load("t"))!;
    expect(loaded.history![0]!.messageId).toBe("request");
    expect(loaded.history!.at(-1)!.messageId).toBe("p4999");
    // The latest updates are kept in order, without gaps.
    const ids = loaded.history!.slice(1).map((entry) => Number(entry.messageId.slice(1)));
    expect(ids).toEqual(Array.from({ length: ids.length }, (_, i) => 5_000 - ids.length + i));
  });
});

/** A CLI child process and its exit, watched from the start (a process that ends early is not missed). */
function cli(args: string[]): ChildProcess & { exit: Promise<number | null> } {
  const child = spawn(process.execPath, ["--import", "tsx", "src/cli.ts", ...args], {
    cwd: ROOT,
    stdio: ["ignore", "ignore", "ignore"],
    env: { ...process.env, LOG_LEVEL: "warn" },
  });
  return Object.assign(child, { exit: new Promise<number | null>((resolve) => child.on("exit", (code) => resolve(code))) });
}

const exited = (child: { exit: Promise<number | null> }) => child.exit;

const episodeLines = (path: string) =>
  existsSync(path)
    ? readFileSync(path, "utf8")
        .split("\n")
        .filter((line) => line.includes('"kind":"episode"'))
    : [];

describe("a run survives a crash", () => {
  it("kill -9 of assess mid-run, then --resume: no task lost, none run twice, the same scores as an uninterrupted run", async () => {
    // Slow enough that the run is still going when it is killed, even on a loaded machine.
    const agent = await purple(slowSolver(150));
    const config = ["--task-limit", "16", "--concurrency", "2", "--drift-level", "medium", "--rot-level", "medium"];
    const crashed = mkdtempSync(join(tmpdir(), "crash-"));
    const whole = mkdtempSync(join(tmpdir(), "whole-"));
    const first = cli(["assess", "--agent", agent, "--out", join(crashed, "results.json"), ...config]);
    const journal = () => readdirJsonl(crashed);
    for (let i = 0; i < 1500 && episodeLines(journal() ?? "").length < 5; i++) await sleep(20);
    first.kill("SIGKILL");
    await exited(first);
    const lost = episodeLines(journal()!).length;
    expect(lost).toBeGreaterThanOrEqual(5);
    expect(lost).toBeLessThan(16);
    const resumed = cli(["assess", "--agent", agent, "--out", join(crashed, "results.json"), "--resume", ...config]);
    // The uninterrupted run is the same command in this process: only the crashed one and its resume need processes of their own.
    const uninterrupted = await cliInProcess(["assess", "--agent", agent, "--out", join(whole, "results.json"), ...config]);
    expect(await exited(resumed)).toBe(0);
    expect(uninterrupted.code).toBe(0);
    const lines = episodeLines(journal()!).map((line) => JSON.parse(line) as { position: number });
    expect(lines).toHaveLength(16);
    expect(new Set(lines.map((line) => line.position)).size).toBe(16);
    const a = JSON.parse(readFileSync(join(crashed, "results.json"), "utf8"));
    const b = JSON.parse(readFileSync(join(whole, "results.json"), "utf8"));
    expect(a.run.id).toBe(b.run.id);
    expect(a.summary).toEqual(b.summary);
    expect(a.dimension_averages).toEqual(b.dimension_averages);
    const scores = (results: any) => Object.fromEntries(results.results.map((entry: any) => [entry.task_idx, entry.total_score]));
    expect(scores(a)).toEqual(scores(b));
  }, 120_000);

  it("SIGTERM to the server mid-assessment gives the client a final event with the partial results", async () => {
    const agent = await purple(slowSolver(400));
    const port = await freePort();
    const runs = mkdtempSync(join(tmpdir(), "runs-"));
    const server = cli(["serve", "--port", String(port), "--runs-dir", runs, "--shutdown-grace", "2"]);
    const url = `http://127.0.0.1:${port}/`;
    for (let i = 0; i < 200; i++) {
      if (
        await fetch(new URL(".well-known/agent-card.json", url)).then(
          (response) => response.ok,
          () => false,
        )
      )
        break;
      await sleep(100);
    }
    const events: any[] = [];
    const stream = streamEvents(url, { participants: { agent }, config: { task_limit: 20, concurrency: 2 } });
    // Stop the server once the first episode has finished.
    const watcher = (async () => {
      for (let i = 0; i < 300 && episodeLines(readdirJsonl(runs) ?? "").length < 1; i++) await sleep(100);
      server.kill("SIGTERM");
    })();
    events.push(...(await stream));
    await watcher;
    const last = events[events.length - 1];
    expect(last.event).toMatchObject({ kind: "status-update", final: true, status: { state: "failed" } });
    expect(last.event.status.message.parts[0].text).toMatch(/interrupted .* partial results are attached .* resumes it from its journal/);
    const results = events.find((entry) => entry.event.kind === "artifact-update")!.event.artifact.parts[1].data;
    expect(results.status).toBe("interrupted");
    expect(results.summary.total_tasks).toBeGreaterThan(0);
    expect(results.summary.total_tasks).toBeLessThan(20);
    expect(await exited(server)).toBe(0);
  }, 60_000);
});

/** The one run journal in a folder (`run-*.jsonl`), if it exists yet. */
function readdirJsonl(dir: string): string | undefined {
  const name = readdirSync(dir).find((file) => file.endsWith(".jsonl"));
  return name ? join(dir, name) : undefined;
}

describe("whole texts held for the journal", () => {
  const scratch = () => mkdtempSync(join(tmpdir(), "whole-texts-"));
  /** A purple that asks for a large result on turns 1 and 2, then answers. */
  const bigQueries: PurpleClient = {
    url: "stub://big-queries",
    send: async (message) => {
      const turn = typeof message.data.turn === "number" ? message.data.turn + 1 : 1;
      const action = turn <= 2 ? { name: "sql_query", arguments: { query: "SELECT * FROM EmailMessage" } } : { name: "respond", arguments: { answer: "None" } };
      return { reply: { texts: [JSON.stringify(action)], data: [] }, contextId: undefined, openTaskId: undefined, usage: undefined, bytes: 100 };
    },
  };
  const run = async (budget: WholeTextBudget, journalFile?: string) => {
    const { config } = parseConfig({ task_limit: 6, max_steps: 3, concurrency: 3, run_id: "whole-texts" });
    const journal = journalFile ? await Journal.open(journalFile, "new") : undefined;
    try {
      const spec = runSpecFor({ participantUrl: bigQueries.url, config, tasksSource: data.sources.tasks.path });
      const base = { spec, chosen: await chooseTasks(data, config), judge: new HeuristicJudge(), calibration, wholeTexts: budget };
      return await runAssessment(data, bigQueries, journal ? { ...base, journal } : base);
    } finally {
      await journal?.close();
    }
  };

  it("keeps whole texts for the journal within the budget, cuts the rest with their length, and gives the budget back", async () => {
    const observations = async (file: string) =>
      (await readLog(file)).episodes.flatMap((episode) => episode.trajectory.steps.flatMap((step) => (step.observation ? [{ turn: step.turn, text: step.observation.text }] : [])));
    const ample = join(scratch(), "ample.jsonl");
    await run(new WholeTextBudget(100_000_000), ample);
    const whole = await observations(ample);
    // The same query on turns 1 and 2: the texts differ only in their footer (replies left).
    const lengthOf = new Map(whole.map(({ turn, text }) => [turn, text.length]));
    expect(whole.every(({ turn, text }) => text.length === lengthOf.get(turn))).toBe(true);
    const length = Math.max(...lengthOf.values());
    expect(length).toBeGreaterThan(10 * MEMORY_TEXT_CHARS);

    // Room for one observation at a time: some are kept whole, the others cut, none lost track of.
    const budget = new WholeTextBudget(length + 100);
    const tight = join(scratch(), "tight.jsonl");
    await run(budget, tight);
    expect(budget.held).toBe(0);
    const texts = await observations(tight);
    expect(texts).toHaveLength(whole.length);
    const cut = texts.filter(({ turn, text }) => text.length < lengthOf.get(turn)!);
    expect(cut.length).toBeGreaterThan(0);
    expect(cut.length).toBeLessThan(texts.length);
    for (const { turn, text } of cut) expect(fullLength(text)).toBe(lengthOf.get(turn));
  }, 30_000);

  it("stops the run with the error when the journal cannot be written, and gives the budget back", async () => {
    const { config } = parseConfig({ task_limit: 6, max_steps: 3, concurrency: 3, run_id: "full-disk" });
    const journal = await Journal.open(join(scratch(), "full.jsonl"), "new");
    journal.writeEpisode = async () => {
      throw new Error("ENOSPC: no space left on device");
    };
    const budget = new WholeTextBudget(100_000_000);
    try {
      const spec = runSpecFor({ participantUrl: bigQueries.url, config, tasksSource: data.sources.tasks.path });
      const options = { spec, chosen: await chooseTasks(data, config), judge: new HeuristicJudge(), calibration, journal, wholeTexts: budget };
      await expect(runAssessment(data, bigQueries, options)).rejects.toThrow(/ENOSPC/);
      expect(budget.held).toBe(0);
    } finally {
      await journal.close();
    }
  }, 30_000);

  it("lets at most one episode per worker wait to be recorded: a slow journal slows the run, episodes do not pile up", async () => {
    const { config } = parseConfig({ task_limit: 8, max_steps: 3, concurrency: 1, run_id: "slow-journal" });
    const journal = await Journal.open(join(scratch(), "slow.jsonl"), "new");
    const write = journal.writeEpisode.bind(journal);
    journal.writeEpisode = async (record) => {
      await new Promise((resolve) => setTimeout(resolve, 100));
      await write(record);
    };
    const answers: PurpleClient = {
      url: "stub://answers",
      send: async () => ({
        reply: { texts: ['{"name": "respond", "arguments": {"answer": "None"}}'], data: [] },
        contextId: undefined,
        openTaskId: undefined,
        usage: undefined,
        bytes: 60,
      }),
    };
    let started = 0;
    let finished = 0;
    let mostWaiting = 0;
    try {
      const spec = runSpecFor({ participantUrl: answers.url, config, tasksSource: data.sources.tasks.path });
      const options = { spec, chosen: await chooseTasks(data, config), judge: new HeuristicJudge(), calibration, journal };
      const log = await runAssessment(data, answers, {
        ...options,
        onEvent: (event) => {
          if (event.kind === "task_started") mostWaiting = Math.max(mostWaiting, started++ - finished);
          if (event.kind === "task_finished") finished++;
        },
      });
      expect(log.episodes).toHaveLength(8);
      // Started but not yet recorded when the next one starts: the one being recorded and the one just run.
      expect(mostWaiting).toBeLessThanOrEqual(2);
    } finally {
      await journal.close();
    }
  }, 30_000);

  it("keeps no whole text without a journal", async () => {
    const budget = new WholeTextBudget(100_000_000);
    const log = await run(budget);
    expect(budget.held).toBe(0);
    const texts = log.episodes.flatMap((episode) => episode.trajectory.steps.flatMap((step) => (step.observation ? [step.observation.text] : [])));
    expect(texts.length).toBeGreaterThan(0);
    for (const text of texts) expect(text.length).toBeLessThan(MEMORY_TEXT_CHARS + 40);
  }, 30_000);
});
