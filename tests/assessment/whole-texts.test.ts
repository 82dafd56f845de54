import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { chooseTasks, MEMORY_TEXT_CHARS, parseConfig, runAssessment, runSpecFor, WholeTextBudget } from "../../src/assessment/index.js";
import { Journal, readLog } from "../../src/log/index.js";
import { jsonPieces } from "../../src/log/json-pieces.js";
import type { PurpleClient } from "../../src/purple/index.js";
import { HeuristicJudge } from "../../src/scoring/index.js";
import { calibration, sampleData } from "../support/helpers.js";

/*
 * The whole texts the episodes in flight hold for their journal lines are held packed (see
 * WholeTextBudget): the journal must still hold every one of them exactly as it was sent or
 * received, whatever its characters, and memory only their cuts.
 */
describe("whole texts held packed for the journal", () => {
  // A lone surrogate survives JSON (as an escape) but not UTF-8: the packing must keep it.
  const odd = `caf\u00e9 \u{1F600} \ud800 end`;
  const longReply = `${"reply ".repeat(300)}${odd}`;
  const longData = { note: `${"data ".repeat(300)}${odd}`, n: 1 };

  /** Asks for a large result on turns 1 and 2 with a long reply and reply data, then answers; remembers every message it was sent. */
  const recording = () => {
    const sent = new Map<string, string[]>();
    const replies: { text: string; data: Record<string, unknown>[] }[] = [];
    const purple: PurpleClient = {
      url: "stub://packed-texts",
      send: async (message, thread) => {
        const turn = typeof message.data.turn === "number" ? message.data.turn + 1 : 1;
        const context = thread.contextId ?? `context-${sent.size + 1}`;
        sent.set(context, [...(sent.get(context) ?? []), message.text]);
        const action = turn <= 2 ? { name: "sql_query", arguments: { query: "SELECT * FROM EmailMessage" } } : { name: "respond", arguments: { answer: "None" } };
        const texts = [JSON.stringify(action), ...(turn === 1 ? [longReply] : [])];
        const data = turn === 2 ? [longData] : [];
        replies.push({ text: texts.join("\n"), data });
        return { reply: { texts, data }, contextId: context, openTaskId: undefined, usage: undefined, bytes: 100 };
      },
    };
    return { purple, sent };
  };

  it("journals every held text exactly as sent and received, keeps cuts in memory, and gives the budget back", async () => {
    const data = await sampleData();
    const { purple, sent } = recording();
    const file = join(mkdtempSync(join(tmpdir(), "packed-texts-")), "run.jsonl");
    const journal = await Journal.open(file, "new");
    const budget = new WholeTextBudget(100_000_000);
    const { config } = parseConfig({ task_limit: 4, max_steps: 3, concurrency: 2, run_id: "packed-texts" });
    let log: Awaited<ReturnType<typeof runAssessment>>;
    try {
      log = await runAssessment(data, purple, {
        spec: runSpecFor({ participantUrl: purple.url, config, tasksSource: data.sources.tasks.path }),
        chosen: await chooseTasks(data, config),
        judge: new HeuristicJudge(),
        calibration,
        journal,
        wholeTexts: budget,
      });
    } finally {
      await journal.close();
      await data.org.close();
    }
    expect(budget.held).toBe(0);
    const stored = await readLog(file);
    expect(stored.episodes).toHaveLength(4);
    for (const episode of stored.episodes) {
      const steps = episode.trajectory.steps;
      // The observation of turn n is the message the purple was sent on turn n + 1, character for character.
      const messages = [...sent.values()].find((texts) => texts[1] === steps[0]!.observation?.text);
      expect(messages, "an observation journalled whole").toBeDefined();
      for (const [i, step] of steps.entries()) if (step.observation && messages![i + 1] !== undefined) expect(step.observation.text).toBe(messages![i + 1]);
      expect(steps[0]!.observation!.text.length).toBeGreaterThan(10 * MEMORY_TEXT_CHARS);
      expect(steps[0]!.replyText).toBe(`${JSON.stringify({ name: "sql_query", arguments: { query: "SELECT * FROM EmailMessage" } })}\n${longReply}`);
      expect(steps[1]!.replyData).toEqual([longData]);
    }
    // Memory keeps the cuts only.
    for (const episode of log.episodes)
      for (const step of episode.trajectory.steps) {
        expect(step.replyText.length).toBeLessThan(MEMORY_TEXT_CHARS + 40);
        if (step.observation) expect(step.observation.text.length).toBeLessThan(MEMORY_TEXT_CHARS + 40);
      }
  }, 60_000);

  it("writes a text packed in windows as the JSON of the whole text, surrogate pairs across a window's edge and lone surrogates included", () => {
    const budget = new WholeTextBudget(10_000_000);
    const lease = budget.lease();
    // A pair straddling the 64 K window edge, a lone high and a lone low surrogate, quotes and control characters.
    const text = `${"a".repeat(64 * 1024 - 1)}\u{1F600}"\n\u0001\ud800x\udc00${"b\\".repeat(70_000)}`;
    const cut = lease.keep(text);
    const trajectory = { steps: [], answer: cut } as unknown as Parameters<typeof lease.whole>[0];
    const action = { kind: "answer" as const, source: "json" as const, answer: cut };
    const step = { turn: 1, sent: { chars: 1, tokens: 1 }, received: { chars: 1, tokens: 1, bytes: 1 }, replyText: "r", replyData: [], action, purpleMs: 0, greenMs: 0 };
    const withStep = { ...trajectory, steps: [step] } as unknown as Parameters<typeof lease.whole>[0];
    expect(lease.whole(withStep).steps[0]!.action).toEqual({ ...action, answer: text });
    expect([...jsonPieces(lease.forJournal(withStep))].join("")).toBe(JSON.stringify(lease.whole(withStep)));
    lease.release();
  });

  it("gives scoring and the journal line the texts it held, and refuses a trajectory changed since", () => {
    const budget = new WholeTextBudget(10_000);
    const lease = budget.lease();
    const big = `${"x".repeat(2_000)}${odd}`;
    const tooBig = "y".repeat(9_000);
    const kept = [lease.keep(big), lease.keep("short"), lease.keep(tooBig)];
    expect(kept[0]!.length).toBeLessThan(MEMORY_TEXT_CHARS + 40);
    expect(kept[1]).toBe("short");
    // Beyond the budget: cut, in memory and in the journal.
    expect(kept[2]!.length).toBeLessThan(MEMORY_TEXT_CHARS + 40);
    expect(budget.held).toBe(big.length);
    const step = (replyText: string, observation: string) => ({
      turn: 1,
      sent: { chars: 1, tokens: 1 },
      received: { chars: 1, tokens: 1, bytes: 1 },
      replyText,
      replyData: [],
      action: { kind: "tool" as const, source: "json" as const, tool: "describe_schema" as const, args: {} },
      observation: { ok: true, rowCount: 0, truncated: false, text: observation },
      purpleMs: 0,
      greenMs: 0,
    });
    const trajectory = { steps: [step(kept[0]!, kept[1]!), step("short", kept[2]!)] } as unknown as Parameters<typeof lease.whole>[0];
    const whole = lease.whole(trajectory);
    expect(whole.steps[0]!.replyText).toBe(big);
    expect(whole.steps[1]!.observation!.text).toBe(kept[2]);
    expect(JSON.stringify(lease.forJournal(trajectory))).toBe(JSON.stringify(whole));
    expect([...jsonPieces(lease.forJournal(trajectory))].join("")).toBe(JSON.stringify(whole));
    const changed = { ...trajectory, steps: [step(kept[2]!, "short"), ...trajectory.steps] };
    expect(() => lease.whole(changed)).toThrow(/do not match/);
    lease.release();
    expect(budget.held).toBe(0);
  });
});
