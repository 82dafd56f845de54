import type { Server } from "node:http";
import express from "express";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { REPLY_JSON_DEPTH } from "../../src/purple/index.js";
import { assessmentParams, rawPurpleServer, rawRpc, resultsOf, sampleData, startGreen } from "../support/helpers.js";

// A purple that goes away is waited for this long (default 30 s) before its episodes fail; set
// back after the file, whose worker may run other files next (vitest.config.ts).
const retrySeconds = process.env.ENTROPIC_PURPLE_RETRY_SECONDS;
process.env.ENTROPIC_PURPLE_RETRY_SECONDS = "1";
afterAll(() => {
  if (retrySeconds === undefined) delete process.env.ENTROPIC_PURPLE_RETRY_SECONDS;
  else process.env.ENTROPIC_PURPLE_RETRY_SECONDS = retrySeconds;
});

let data: Awaited<ReturnType<typeof sampleData>>;
let green: Awaited<ReturnType<typeof startGreen>>;
const servers: Server[] = [];

beforeAll(async () => {
  data = await sampleData();
  green = await startGreen(data);
});

afterAll(async () => {
  for (const server of servers) server.close();
  await green.close();
  await data.org.close();
});

/** Nested deeper than any reader's stack: JSON.stringify and structuredClone of it throw "Maximum call stack size exceeded". */
const DEEP = 100_000;
const deepJson = `${"[".repeat(DEEP)}${"]".repeat(DEEP)}`;

const answer = (id: unknown) => ({ jsonrpc: "2.0", id, result: { kind: "message", role: "agent", messageId: "m", parts: [{ kind: "text", text: "None" }] } });

/** A raw purple whose first reply is `hostile` (written as text: the test's own JSON.stringify could not write it) and every later one a plain answer. */
async function firstReplyHostile(hostile: (id: unknown, res: express.Response) => void): Promise<string> {
  let calls = 0;
  const { url, server } = await rawPurpleServer((body, res) => {
    calls++;
    if (calls === 1) hostile(body.id, res);
    else res.json(answer(body.id));
  });
  servers.push(server);
  return url;
}

async function assessTwo(agent: string) {
  const { body } = await rawRpc(green.url, "message/send", assessmentParams({ participants: { agent }, config: { task_ids: [0, 1], concurrency: 1 } }));
  expect(body.result.status.state).toBe("completed");
  const results = resultsOf(body.result);
  expect(results.summary.total_tasks).toBe(2);
  return results.results as { termination: string; error?: string }[];
}

describe("a purple's bad reply ends its own episode; the assessment goes on and returns results", () => {
  it("a reply nested 100,000 deep (in the result itself) is the protocol_error of its episode only", async () => {
    const agent = await firstReplyHostile((id, res) =>
      res.type("json").send(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"kind":"message","role":"agent","messageId":"m","parts":[],"metadata":{"x":${deepJson}}}}`),
    );
    const [first, second] = await assessTwo(agent);
    expect(first!.termination).toBe("protocol_error");
    expect(first!.error).toContain(`the purple agent's reply to message/send is refused: it nests deeper than ${REPLY_JSON_DEPTH} levels of arrays and objects`);
    expect(second!.termination).not.toBe("protocol_error");
  });

  it("a data part nested 100,000 deep is the protocol_error of its episode only", async () => {
    const agent = await firstReplyHostile((id, res) =>
      res
        .type("json")
        .send(`{"jsonrpc":"2.0","id":${JSON.stringify(id)},"result":{"kind":"message","role":"agent","messageId":"m","parts":[{"kind":"data","data":{"answer":${deepJson}}}]}}`),
    );
    const [first, second] = await assessTwo(agent);
    expect(first!.termination).toBe("protocol_error");
    expect(first!.error).toMatch(/nests deeper than 64 levels/);
    expect(second!.termination).not.toBe("protocol_error");
  });

  it("a reply whose headers overflow Node's parser is a protocol_error of its episode, not an unreachable purple", async () => {
    const agent = await firstReplyHostile((id, res) => {
      res.setHeader("x-padding", "p".repeat(20_000));
      res.json(answer(id));
    });
    const [first, second] = await assessTwo(agent);
    expect(first!.termination).toBe("protocol_error");
    expect(first!.error).toMatch(/HPE_HEADER_OVERFLOW/);
    expect(second!.termination).not.toBe("protocol_error");
  });

  it("an agent card nested 100,000 deep rejects the request before any episode, naming why", async () => {
    const app = express();
    app.get("/.well-known/agent-card.json", (_req, res) =>
      res.type("json").send(`{"name":"deep","version":"1","protocolVersion":"0.3.0","url":"http://127.0.0.1/","skills":[{"id":"x","examples":${deepJson}}]}`),
    );
    const server = await new Promise<Server>((resolve) => {
      const listening = app.listen(0, "127.0.0.1", () => resolve(listening));
    });
    servers.push(server);
    const agent = `http://127.0.0.1:${(server.address() as { port: number }).port}/`;
    const { body } = await rawRpc(green.url, "message/send", assessmentParams({ participants: { agent }, config: { task_ids: [0] } }));
    expect(body.result.status.state).toBe("rejected");
    expect(body.result.status.message.parts[0].text).toMatch(/the card is refused: it nests deeper than 64 levels/);
  });
});
