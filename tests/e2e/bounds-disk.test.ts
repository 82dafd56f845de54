import { mkdtempSync, readFileSync, statSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import {
  assess,
  chooseTasks,
  DEFAULT_JOURNAL_BUDGET_MB,
  JOURNAL_REPLY_CHARS,
  journalBudgetBytes,
  parseConfig,
  runAssessment,
  runSpecFor,
  WholeTextBudget,
} from "../../src/assessment/index.js";
import { servePurple } from "../../src/baselines/index.js";
import { Journal, readLog } from "../../src/log/index.js";
import type { PurpleClient } from "../../src/purple/index.js";
import { HeuristicJudge } from "../../src/scoring/index.js";
import { assessmentParams, calibration, rawRpc, resultsOf, sampleData, startGreen } from "../support/helpers.js";

const data = await sampleData();
afterAll(() => data.org.close());

/** Characters of each hostile reply: about 3.5 MB, under the 4,000,000-byte reply cap. */
const HUGE = 3_500_000;

/**
 * A purple whose every reply is 3.5 MB, in each shape a reply can take: a query that long, a tool
 * name that long, a valid call beside a text part that long, a data part that long, and an answer
 * that long.
 */
function hugeReplies(): PurpleClient {
  const pad = (c: string) => c.repeat(HUGE);
  const turns: ((context: string) => { texts: string[]; data: Record<string, unknown>[] })[] = [
    () => ({ texts: [JSON.stringify({ name: "soql_query", arguments: { query: `SELECT Id FROM Account WHERE Name = '${pad("q")}'` } })], data: [] }),
    () => ({ texts: [JSON.stringify({ name: pad("n"), arguments: {} })], data: [] }),
    () => ({ texts: [JSON.stringify({ name: "soql_query", arguments: { query: "SELECT Id FROM Account LIMIT 1" } }), pad("t")], data: [] }),
    () => ({ texts: [JSON.stringify({ name: "describe_schema", arguments: {} })], data: [{ note: pad("d") }] }),
    () => ({ texts: [JSON.stringify({ name: "respond", arguments: { answer: pad("a") } })], data: [] }),
  ];
  return {
    url: "stub://huge-replies",
    send: async (message, thread) => {
      const turn = typeof message.data.turn === "number" ? message.data.turn + 1 : 1;
      const context = thread.contextId ?? `context-${Math.random()}`;
      const reply = turns[Math.min(turn, turns.length) - 1]!(context);
      return { reply, contextId: context, openTaskId: undefined, usage: undefined, bytes: HUGE };
    },
  };
}

describe("the journal keeps a capped amount of a purple's words per episode", () => {
  it("journals a purple's 3.5 MB replies within the episode's cap, the cut recorded, and the observations bounded", async () => {
    const file = join(mkdtempSync(join(tmpdir(), "bounds-disk-")), "run.jsonl");
    const journal = await Journal.open(file, "new");
    const { config } = parseConfig({ task_limit: 2, max_steps: 6, concurrency: 2, run_id: "bounds-disk" });
    try {
      await runAssessment(data, hugeReplies(), {
        spec: runSpecFor({ participantUrl: "stub://huge-replies", config, tasksSource: data.sources.tasks.path }),
        chosen: await chooseTasks(data, config),
        judge: new HeuristicJudge(),
        calibration,
        journal,
        wholeTexts: new WholeTextBudget(200_000_000),
      });
    } finally {
      await journal.close();
    }
    const lines = readFileSync(file, "utf8").trimEnd().split("\n");
    const episodes = lines.filter((line) => line.startsWith('{"kind":"episode"'));
    expect(episodes).toHaveLength(2);
    // Five replies of 3.5 MB each (17.5 MB of the purple's words): the line keeps the cap and the green's own texts.
    for (const line of episodes) expect(Buffer.byteLength(line)).toBeLessThan(JOURNAL_REPLY_CHARS + 200_000);
    const stored = await readLog(file);
    for (const episode of stored.episodes) {
      const cut = episode.trajectory.journalCut;
      expect(cut?.limitChars).toBe(JOURNAL_REPLY_CHARS);
      // Each of the five replies (the answer, and the call's text and action beside it) is past the cap: all cut.
      expect(cut!.texts).toBeGreaterThanOrEqual(5);
      expect(episode.trajectory.answer).toMatch(/^a+… \(\+\d+ chars\)$/);
      expect(cut!.chars).toBeGreaterThan(4 * (HUGE - 1_000));
      expect(episode.trajectory.termination).toBe("answered");
      for (const step of episode.trajectory.steps) expect(step.observation?.text.length ?? 0).toBeLessThan(20_000);
    }
  }, 120_000);
});

/** A purple that answers None at once. */
const quiet: PurpleClient = {
  url: "stub://quiet",
  send: async (_message, thread) => ({
    reply: { texts: [JSON.stringify({ name: "respond", arguments: { answer: "None" } })], data: [] },
    contextId: thread.contextId ?? "quiet",
    openTaskId: undefined,
    usage: undefined,
    bytes: 10,
  }),
};

describe("a run's journal has a byte budget", () => {
  it("stops only the run that reaches it, with its recorded episodes and a status naming the budget; a run beside it completes", async () => {
    const dir = mkdtempSync(join(tmpdir(), "bounds-budget-"));
    const run = async (purple: PurpleClient, runId: string, budget?: number) => {
      const { config } = parseConfig({ task_limit: 6, max_steps: 6, concurrency: 1, run_id: runId });
      return assess(data, purple, {
        spec: runSpecFor({ participantUrl: purple.url, config, tasksSource: data.sources.tasks.path }),
        calibration,
        logDir: dir,
        wholeTexts: new WholeTextBudget(200_000_000),
        ...(budget !== undefined ? { journalBudgetBytes: budget } : {}),
      });
    };
    // The header and about two episodes of the hostile purple (a line each of about 25 KB, its words cut).
    const budget = 80_000;
    const [hostile, honest] = await Promise.all([run(hugeReplies(), "bounds-budget-hostile", budget), run(quiet, "bounds-budget-honest")]);
    expect(hostile.journalFailure).toContain("reached its budget of 80000 bytes (ENTROPIC_JOURNAL_BUDGET_MB)");
    expect(hostile.journalRemedy).toContain("ENTROPIC_JOURNAL_BUDGET_MB");
    expect(hostile.results.status).toBe("interrupted");
    expect(hostile.log.episodes.length).toBeGreaterThan(0);
    expect(hostile.log.episodes.length).toBeLessThan(6);
    expect(statSync(hostile.logFile!).size).toBeLessThanOrEqual(budget);
    // What is on disk is whole lines: each recorded episode, readable.
    expect((await readLog(hostile.logFile!)).episodes).toHaveLength(hostile.log.episodes.length);
    expect(honest.journalFailure).toBeUndefined();
    expect(honest.results.status).toBe("completed");
    expect(honest.log.episodes).toHaveLength(6);
  }, 120_000);

  it("served: the run that reaches it ends failed naming the budget, its finished episodes attached; another run on the server completes", async () => {
    const saved = process.env.ENTROPIC_JOURNAL_BUDGET_MB;
    // A few lines of a purple answering 200,000 characters (each line holds its answer several times: the reply, the action, the answer).
    process.env.ENTROPIC_JOURNAL_BUDGET_MB = "2";
    const green = await startGreen(data, { runsDir: mkdtempSync(join(tmpdir(), "bounds-budget-served-")) });
    const verbose = await servePurple("verbose", async () => `None ${"v".repeat(200_000)}`, "127.0.0.1", 0);
    const brief = await servePurple("brief", async () => "None", "127.0.0.1", 0);
    try {
      const [full, fine] = await Promise.all([
        rawRpc(green.url, "message/send", assessmentParams({ participants: { agent: verbose.url }, config: { task_limit: 8, concurrency: 1 } })),
        rawRpc(green.url, "message/send", assessmentParams({ participants: { agent: brief.url }, config: { task_limit: 8, concurrency: 1 } })),
      ]);
      expect(full.body.result.status.state).toBe("failed");
      expect(full.body.result.status.message.parts[0].text).toMatch(
        /^Assessment stopped after \d of 8 tasks: cannot write the run's journal .*: the run's journal reached its budget of 2 MB \(ENTROPIC_JOURNAL_BUDGET_MB\)\. The partial results are attached \(status "interrupted"\); the same request continues it from its journal once the operator raises ENTROPIC_JOURNAL_BUDGET_MB/,
      );
      expect(resultsOf(full.body.result).status).toBe("interrupted");
      expect(fine.body.result.status.state).toBe("completed");
    } finally {
      verbose.server.close();
      brief.server.close();
      await green.close();
      if (saved === undefined) delete process.env.ENTROPIC_JOURNAL_BUDGET_MB;
      else process.env.ENTROPIC_JOURNAL_BUDGET_MB = saved;
    }
  }, 120_000);

  it("is the operator's ENTROPIC_JOURNAL_BUDGET_MB, else the default, and refuses a value that is no positive number", () => {
    expect(journalBudgetBytes({})).toBe(DEFAULT_JOURNAL_BUDGET_MB * 1024 * 1024);
    expect(journalBudgetBytes({ ENTROPIC_JOURNAL_BUDGET_MB: "0.5" })).toBe(512 * 1024);
    expect(() => journalBudgetBytes({ ENTROPIC_JOURNAL_BUDGET_MB: "lots" })).toThrow(/ENTROPIC_JOURNAL_BUDGET_MB must be a positive number of megabytes/);
    expect(() => journalBudgetBytes({ ENTROPIC_JOURNAL_BUDGET_MB: "-1" })).toThrow(/positive/);
  });
});

describe("what a journal line keeps of the purple's words", () => {
  it("keeps them whole while the episode's budget lasts, the answer first, and cuts the rest with a count", () => {
    const lease = new WholeTextBudget(10_000_000).lease();
    const first = "f".repeat(3_000);
    const second = "s".repeat(3_000);
    const answer = "a".repeat(2_500);
    const step = (turn: number, replyText: string) => ({
      turn,
      sent: { chars: 1, tokens: 1 },
      received: { chars: 1, tokens: 1, bytes: 1 },
      replyText: lease.keep(replyText),
      replyData: [],
      action: { kind: "tool" as const, source: "json" as const, tool: "describe_schema" as const, args: {} },
      purpleMs: 0,
      greenMs: 0,
    });
    const trajectory = { steps: [step(1, first), step(2, second)], answer } as unknown as Parameters<typeof lease.forJournal>[0];
    // 6,000 characters: the answer (2,500) and the first reply (3,000) fit, the second reply does not.
    const journalled = lease.forJournal(trajectory, 6_000);
    expect(journalled.answer).toBe(answer);
    expect(JSON.parse(JSON.stringify(journalled.steps[0]!.replyText))).toBe(first);
    expect(journalled.steps[1]!.replyText).toMatch(/^s{600}… \(\+2400 chars\)$/);
    expect(journalled.journalCut).toEqual({ texts: 1, chars: 2_400, limitChars: 6_000 });
    lease.release();
  });
});
