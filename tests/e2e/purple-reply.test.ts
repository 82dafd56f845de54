import { createServer, type Server } from "node:http";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { parseAction } from "../../src/protocol/index.js";
import { A2APurpleClient, PurpleError } from "../../src/purple/index.js";
import { assessmentParams, rawPurpleServer, rawRpc, resultsOf, sampleData, startGreen } from "../support/helpers.js";

/**
 * How the green reads a purple's reply, tested with raw JSON-RPC replies from a scripted purple:
 * the rule of docs/protocol.md ("What the green reads of a reply").
 */

const servers: Server[] = [];
afterAll(() => {
  for (const server of servers) server.close();
});

/** A scripted purple: a valid agent card, and `script(body, call)` gives the JSON-RPC `result` of each call. */
async function scriptedPurple(script: (body: any, call: number) => unknown): Promise<{ url: string; requests: any[] }> {
  const requests: any[] = [];
  const { url, server } = await rawPurpleServer((body, res) => {
    requests.push(body);
    res.json({ jsonrpc: "2.0", id: body.id, result: script(body, requests.length) });
  });
  servers.push(server);
  return { url, requests };
}

const text = (value: string) => ({ kind: "text", text: value });
const data = (value: Record<string, unknown>) => ({ kind: "data", data: value });
const message = (...parts: unknown[]) => ({ kind: "message", role: "agent", messageId: `m-${Math.random()}`, parts });
const artifact = (artifactId: string, ...parts: unknown[]) => ({ artifactId, parts });

/** A Task as a Python a2a-sdk purple returns it: status (with or without a message) and artifacts. */
function task(state: string, options: { id?: string; status?: unknown[]; artifacts?: unknown[]; metadata?: Record<string, unknown> } = {}) {
  return {
    kind: "task",
    id: options.id ?? "t1",
    contextId: "c1",
    status: { state, ...(options.status ? { message: message(...options.status) } : {}) },
    ...(options.artifacts ? { artifacts: options.artifacts } : {}),
    ...(options.metadata ? { metadata: options.metadata } : {}),
  };
}

const FIRST = { text: "the task", data: { type: "crm_task" } };

async function oneTurn(result: unknown) {
  const purple = await scriptedPurple(() => result);
  return new A2APurpleClient(purple.url).send(FIRST, {}, 5_000);
}

describe("reading a Task reply", () => {
  it("counts a text repeated in status.message and in an artifact once", async () => {
    // The example of docs/protocol.md, section 4, as it comes over the wire.
    const wire = JSON.parse(`{"jsonrpc": "2.0", "id": 1, "result": {"kind": "task", "id": "t1", "contextId": "c1",
  "status": {"state": "completed", "message": {"kind": "message", "role": "agent", "messageId": "m2", "parts": [{"kind": "text", "text": "None"}]}},
  "artifacts": [{"artifactId": "a1", "parts": [{"kind": "text", "text": "None"}]}]}}`);
    const turn = await oneTurn(wire.result);
    expect(turn.reply).toEqual({ texts: ["None"], data: [] });
    expect(parseAction(turn.reply)).toEqual({ kind: "answer", answer: "None", source: "text" });
    expect(turn.openTaskId).toBeUndefined();
  });

  it("counts it once whatever the whitespace, and when the status repeats several artifact texts joined", async () => {
    const spaced = await oneTurn(task("completed", { status: [text("  <respond>MI</respond>\n")], artifacts: [artifact("a1", text("<respond>MI</respond>"))] }));
    expect(spaced.reply.texts).toEqual(["<respond>MI</respond>"]);
    const joined = await oneTurn(
      task("completed", {
        status: [text("Counting.\n<execute>SELECT COUNT() FROM Case</execute>")],
        artifacts: [artifact("a1", text("Counting."), text("<execute>SELECT COUNT() FROM Case</execute>"))],
      }),
    );
    expect(joined.reply.texts).toEqual(["Counting.", "<execute>SELECT COUNT() FROM Case</execute>"]);
  });

  it("keeps different texts: the artifacts first, then the status message", async () => {
    const turn = await oneTurn(
      task("completed", { status: [text("Looking up the closed cases.")], artifacts: [artifact("a1", text("<execute>SELECT Id FROM Case WHERE Status = 'Closed'</execute>"))] }),
    );
    expect(turn.reply.texts).toEqual(["<execute>SELECT Id FROM Case WHERE Status = 'Closed'</execute>", "Looking up the closed cases."]);
    expect(parseAction(turn.reply)).toMatchObject({ kind: "tool", tool: "soql_query", args: { query: "SELECT Id FROM Case WHERE Status = 'Closed'" } });
    // Nothing is dropped: chatter beside a plain-text answer is part of the answer (use respond or <respond>).
    const plain = await oneTurn(task("completed", { status: [text("Done.")], artifacts: [artifact("a1", text("MI"))] }));
    expect(parseAction(plain.reply)).toMatchObject({ kind: "answer", answer: "MI\nDone." });
  });

  it("takes a DataPart action from an artifact whatever the status message says", async () => {
    const call = { name: "soql_query", arguments: { query: "SELECT Id FROM Account LIMIT 1" } };
    const turn = await oneTurn(task("completed", { status: [text("Let me check the accounts first, then I'll answer.")], artifacts: [artifact("a1", data(call))] }));
    expect(turn.reply).toEqual({ texts: ["Let me check the accounts first, then I'll answer."], data: [call] });
    expect(parseAction(turn.reply)).toMatchObject({ kind: "tool", tool: "soql_query", source: "data_part" });
    const twice = await oneTurn(
      task("completed", { status: [data({ arguments: { query: "SELECT Id FROM Account LIMIT 1" }, name: "soql_query" })], artifacts: [artifact("a1", data(call))] }),
    );
    expect(twice.reply.data).toEqual([call]);
  });

  it("reads the status message of a Task with no artifacts, and the artifacts of a Task with no status message", async () => {
    expect((await oneTurn(task("completed", { status: [text("<respond>42</respond>")] }))).reply.texts).toEqual(["<respond>42</respond>"]);
    expect((await oneTurn(task("completed", { artifacts: [artifact("a1", text("first")), artifact("a2", text("second"))] }))).reply.texts).toEqual(["first", "second"]);
  });

  it("reads a Message's parts as they are", async () => {
    const turn = await oneTurn(message(text("None"), text("None")));
    expect(turn.reply.texts).toEqual(["None", "None"]);
  });

  it("continues an input-required task and reads only the artifacts new in each turn", async () => {
    const a1 = artifact("a1", text("<execute>SELECT Id FROM Case LIMIT 1</execute>"), data({ type: "usage", input_tokens: 10, output_tokens: 2 }));
    const a2 = artifact("a2", text("<execute>SELECT Id FROM Account LIMIT 1</execute>"));
    const a3 = artifact("a3", data({ name: "respond", arguments: { content: "MI" } }));
    const purple = await scriptedPurple((_body, call) => {
      if (call === 1) return task("input-required", { status: [text("<execute>SELECT Id FROM Case LIMIT 1</execute>")], artifacts: [a1] });
      if (call === 2) return task("input-required", { status: [text("Now the accounts.")], artifacts: [a1, a2] });
      return task("completed", { artifacts: [a1, a2, a3] });
    });
    const client = new A2APurpleClient(purple.url);
    const first = await client.send(FIRST, {}, 5_000);
    expect(first.reply.texts).toEqual(["<execute>SELECT Id FROM Case LIMIT 1</execute>"]);
    expect(first.usage).toEqual({ inputTokens: 10, outputTokens: 2 });
    expect(first).toMatchObject({ contextId: "c1", openTaskId: "t1" });

    const second = await client.send({ text: "observation", data: {} }, { contextId: first.contextId!, taskId: first.openTaskId! }, 5_000);
    expect(purple.requests[1].params.message).toMatchObject({ contextId: "c1", taskId: "t1" });
    expect(second.reply).toEqual({ texts: ["<execute>SELECT Id FROM Account LIMIT 1</execute>", "Now the accounts."], data: [] });
    expect(parseAction(second.reply)).toMatchObject({ kind: "tool", tool: "soql_query", args: { query: "SELECT Id FROM Account LIMIT 1" } });
    expect(second.usage).toBeUndefined();

    const third = await client.send({ text: "observation", data: {} }, { contextId: second.contextId!, taskId: second.openTaskId! }, 5_000);
    expect(third.reply).toEqual({ texts: [], data: [{ name: "respond", arguments: { content: "MI" } }] });
    expect(parseAction(third.reply)).toEqual({ kind: "answer", answer: "MI", source: "data_part" });
    expect(third.openTaskId).toBeUndefined();
  });

  it("reads an artifact again when its content changed under the same id", async () => {
    const purple = await scriptedPurple((_body, call) =>
      task("input-required", { artifacts: [artifact("answer", text(call === 1 ? "<execute>SELECT Id FROM Case</execute>" : "<respond>None</respond>"))] }),
    );
    const client = new A2APurpleClient(purple.url);
    const first = await client.send(FIRST, {}, 5_000);
    const second = await client.send(FIRST, { contextId: "c1", taskId: first.openTaskId! }, 5_000);
    expect(second.reply.texts).toEqual(["<respond>None</respond>"]);
  });

  it("ends the episode on a failed task, saying once what the purple said", async () => {
    const error = await oneTurn(task("failed", { status: [text("model overloaded")], artifacts: [artifact("a1", text("model overloaded"))] })).catch((cause: unknown) => cause);
    expect(error).toBeInstanceOf(PurpleError);
    expect(error).toMatchObject({ kind: "task_failed", message: "the purple agent's task ended in state 'failed': model overloaded" });
  });
});

describe("through the green agent", () => {
  let sample: Awaited<ReturnType<typeof sampleData>>;
  let green: Awaited<ReturnType<typeof startGreen>>;
  beforeAll(async () => {
    sample = await sampleData();
    green = await startGreen(sample);
  });
  afterAll(async () => {
    await green.close();
    await sample.org.close();
  });

  async function assess(agent: string) {
    const { body } = await rawRpc(green.url, "message/send", assessmentParams({ participants: { agent }, config: { task_ids: [29] } }));
    expect(body.result.status.state).toBe("completed");
    return resultsOf(body.result).results[0];
  }

  it("records 'None', not 'None\\nNone', for a completed Task repeating its answer", async () => {
    const purple = await scriptedPurple(() => task("completed", { status: [text("None")], artifacts: [artifact("a1", text("None"))] }));
    const entry = await assess(purple.url);
    expect(entry.termination).toBe("answered");
    expect(entry.agent_answer).toBe("None");
  });

  it("scores a reply holding a model's special-token text (<|endoftext|>) as text, and the assessment completes", async () => {
    const purple = await scriptedPurple(() => message(text("None <|endoftext|><|im_end|>")));
    const entry = await assess(purple.url);
    expect(entry.termination).toBe("answered");
    expect(entry.agent_answer).toContain("<|endoftext|>");
  });

  it("runs an episode over one input-required task, reading each turn's new artifacts, and answers with respond's content", async () => {
    const caseQuery = artifact("q1", text("<execute>SELECT Id FROM Case LIMIT 1</execute>"));
    const accountQuery = artifact("q2", text("<execute>SELECT Id FROM Account LIMIT 1</execute>"));
    const purple = await scriptedPurple((_body, call) =>
      call === 1
        ? task("input-required", { id: "open", status: [text("<execute>SELECT Id FROM Case LIMIT 1</execute>")], artifacts: [caseQuery] })
        : call === 2
          ? task("input-required", { id: "open", artifacts: [caseQuery, accountQuery] })
          : task("completed", { id: "open", artifacts: [caseQuery, accountQuery, artifact("r", data({ name: "respond", arguments: { content: "None" } }))] }),
    );
    const entry = await assess(purple.url);
    expect(purple.requests[0].params.message).not.toHaveProperty("taskId");
    expect(purple.requests[1].params.message).toMatchObject({ contextId: "c1", taskId: "open" });
    expect(purple.requests[2].params.message).toMatchObject({ contextId: "c1", taskId: "open" });
    expect(entry.trajectory.steps.map((step: any) => step.action)).toEqual([
      expect.stringMatching(/FROM Case/),
      expect.stringMatching(/FROM Account/),
      expect.stringMatching(/None/),
    ]);
    expect(entry.termination).toBe("answered");
    expect(entry.agent_answer).toBe("None");
    expect(entry.metrics.turns).toBe(3);
  });
});

describe("what the green sends", () => {
  it("sends a long message as one plain body of its declared length, every character intact", async () => {
    const seen: { headers: Record<string, unknown>; body: string }[] = [];
    const server = createServer((req, res) => {
      const chunks: Buffer[] = [];
      req.on("data", (chunk: Buffer) => chunks.push(chunk));
      req.on("end", () => {
        const body = Buffer.concat(chunks).toString("utf8");
        seen.push({ headers: req.headers, body });
        const { id } = JSON.parse(body);
        res.writeHead(200, { "content-type": "application/json" });
        res.end(JSON.stringify({ jsonrpc: "2.0", id, result: { kind: "message", role: "agent", messageId: "m", parts: [{ kind: "text", text: "done" }] } }));
      });
    });
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    servers.push(server);
    const address = server.address() as { port: number };
    // Two-, three- and four-byte characters; the emoji halves are shifted by one, so that pieces of
    // an even length end inside a surrogate pair in one of them whatever precedes the text.
    const text = `${"Résumé データ ".repeat(5_000)}${"😀".repeat(100_000)}x${"😀".repeat(100_000)}`;
    // This server answers JSON-RPC only (no card), so the version is given.
    const turn = await new A2APurpleClient(`http://127.0.0.1:${address.port}/`, { protocolVersion: "0.3" }).send({ text, data: { type: "tool_result", turn: 1 } }, {}, 10_000);
    expect(turn.reply.texts).toEqual(["done"]);
    const [request] = seen;
    expect(request!.headers["transfer-encoding"]).toBeUndefined();
    expect(Number(request!.headers["content-length"])).toBe(Buffer.byteLength(request!.body));
    expect(JSON.parse(request!.body).params.message.parts[0].text).toBe(text);
  });
});
