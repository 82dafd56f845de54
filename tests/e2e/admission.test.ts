import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { serve } from "../../src/server/app.js";
import { assessmentParams, calibration, quietLogger, rawRpc, sampleData, statusText } from "../support/helpers.js";

const sleep = (ms: number) => new Promise((resolve) => setTimeout(resolve, ms));
const data = await sampleData();
const servers: Server[] = [];

afterAll(async () => {
  for (const server of servers) server.close();
  await data.org.close();
});

/** A green on loopback with the given admission limit (the server's default when none). */
async function green(maxAssessments?: number): Promise<string> {
  const { server, url } = await serve({ host: "127.0.0.1", port: 0, data, logger: quietLogger(), calibration, ...(maxAssessments ? { maxAssessments } : {}) });
  servers.push(server);
  return url;
}

/**
 * A purple whose card takes `cardMs` to arrive and which answers every turn at once with an
 * answer, or holds its replies while `hold` is set. Counts card fetches and JSON-RPC calls.
 */
async function purple(cardMs: number): Promise<{ url: string; cards: () => number; calls: () => number; hold: (on: boolean) => void }> {
  let cards = 0;
  let calls = 0;
  let held: (() => void)[] | undefined;
  const app = express();
  app.use(express.json());
  let url = "";
  app.get("/.well-known/agent-card.json", async (_req, res) => {
    cards++;
    await sleep(cardMs);
    res.json({
      name: "slow-card",
      description: "A purple whose card is slow to arrive.",
      url,
      version: "1",
      protocolVersion: "0.3.0",
      capabilities: {},
      defaultInputModes: ["text"],
      defaultOutputModes: ["text"],
      skills: [{ id: "x", name: "x", description: "x", tags: [] }],
    });
  });
  app.post("/", (req, res) => {
    calls++;
    const answer = () =>
      res.json({
        jsonrpc: "2.0",
        id: req.body.id,
        result: { kind: "message", role: "agent", messageId: `m${calls}`, parts: [{ kind: "text", text: '{"name": "respond", "arguments": {"answer": "None"}}' }] },
      });
    if (held) held.push(answer);
    else answer();
  });
  const server = await new Promise<Server>((resolve) => {
    const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
  });
  servers.push(server);
  const address = server.address();
  url = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}/`;
  return {
    url,
    cards: () => cards,
    calls: () => calls,
    hold: (on) => {
      if (on) held ??= [];
      else {
        const waiting = held ?? [];
        held = undefined;
        for (const answer of waiting) answer();
      }
    },
  };
}

const request = (agent: string, config: Record<string, unknown> = {}) => assessmentParams({ participants: { agent }, config: { task_limit: 1, ...config } });

async function send(greenUrl: string, params: unknown): Promise<{ state: string; text: string }> {
  const { body } = await rawRpc(greenUrl, "message/send", params);
  return { state: body.result.status.state, text: statusText(body.result) };
}

describe("--max-assessments holds", () => {
  let slow: Awaited<ReturnType<typeof purple>>;
  beforeAll(async () => {
    slow = await purple(1_000);
  });

  it("admits exactly 2 of 5 simultaneous requests whose purple's card takes 1 s; the other 3 are rejected naming the limit, before reaching the card", async () => {
    const url = await green(2);
    const before = slow.cards();
    const outcomes = await Promise.all(Array.from({ length: 5 }, (_, i) => send(url, request(slow.url, { seed: i }))));
    const completed = outcomes.filter((outcome) => outcome.state === "completed");
    const rejected = outcomes.filter((outcome) => outcome.state === "rejected");
    expect(completed).toHaveLength(2);
    expect(rejected).toHaveLength(3);
    for (const { text } of rejected) expect(text).toMatch(/busy: 2 assessments running or being admitted \(its limit, --max-assessments, is 2\)/);
    // Rejected before any work: only the two admitted requests fetched the card.
    expect(slow.cards() - before).toBe(2);
    // Their slots are free again once they ended.
    expect((await send(url, request(slow.url))).state).toBe("completed");
  }, 60_000);

  it("gives the slot back when admission fails: rejected requests never use up the limit", async () => {
    const url = await green(2);
    // No card there: each request is rejected for the card (after taking and giving back its slot).
    for (let i = 0; i < 3; i++) {
      const outcome = await send(url, request("http://127.0.0.1:9/"));
      expect(outcome.state).toBe("rejected");
      expect(outcome.text).toMatch(/participants\.agent/);
    }
    // An invalid config, rejected before the card.
    expect((await send(url, request(slow.url, { drift_level: "extreme" }))).state).toBe("rejected");
    const both = await Promise.all([send(url, request(slow.url)), send(url, request(slow.url, { seed: 7 }))]);
    expect(both.map((outcome) => outcome.state)).toEqual(["completed", "completed"]);
  }, 60_000);

  it("rejects a 9th request while 8 run (the default limit), and admits again once they end", async () => {
    const fast = await purple(0);
    const url = await green();
    fast.hold(true);
    const running = Array.from({ length: 8 }, (_, i) => send(url, request(fast.url, { seed: i })));
    // All 8 are running once each has sent the purple its first turn.
    for (let i = 0; i < 600 && fast.calls() < 8; i++) await sleep(50);
    expect(fast.calls()).toBe(8);
    const ninth = await send(url, request(fast.url, { seed: 8 }));
    expect(ninth.state).toBe("rejected");
    expect(ninth.text).toMatch(/busy: 8 assessments running or being admitted \(its limit, --max-assessments, is 8\)/);
    fast.hold(false);
    expect((await Promise.all(running)).map((outcome) => outcome.state)).toEqual(Array(8).fill("completed"));
    expect((await send(url, request(fast.url, { seed: 8 }))).state).toBe("completed");
  }, 90_000);
});
