import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { servePurple, solverStrategy } from "../../src/baselines/index.js";

import type { OrgBackend } from "../../src/org/index.js";
import { defaultWeights, dimensionNames } from "../../src/scoring/index.js";
import { assessmentParams, rawRpc, rawStream, resultsOf, sampleData, startGreen, statusText } from "../support/helpers.js";

let data: Awaited<ReturnType<typeof sampleData>>;
let green: Awaited<ReturnType<typeof startGreen>>;
let solver: Awaited<ReturnType<typeof servePurple>>;
let pathPurple: Awaited<ReturnType<typeof servePurple>>;

beforeAll(async () => {
  data = await sampleData();
  green = await startGreen(data);
  solver = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
  pathPurple = await servePurple("solver", solverStrategy, "127.0.0.1", 0, "/agent");
});

afterAll(async () => {
  await green.close();
  solver.server.close();
  pathPurple.server.close();
  await data.org.close();
});

/** Every key the leaderboard's DuckDB queries read, with its type. */
function expectLeaderboardLayout(results: any, participant: string, taskCount: number) {
  expect(Object.keys(results).slice(0, 11)).toEqual([
    "participants",
    "results",
    "entropic",
    "summary",
    "dimension_averages",
    "by_category",
    "extension_metrics",
    "timestamp",
    "version",
    "original",
    "timing",
  ]);
  expect(results.participants).toEqual({ agent: participant });
  expect(results.version).toBe("2.0.0");
  expect(results.timestamp).toMatch(/^\d{4}-\d{2}-\d{2}T\d{2}:\d{2}:\d{2}\.\d{6}$/);
  for (const key of ["pass_rate", "avg_score", "total_tasks", "total_passed"]) expect(typeof results.summary[key]).toBe("number");
  expect(results.summary.total_tasks).toBe(taskCount);
  for (const dimension of dimensionNames()) expect(results.dimension_averages[dimension] === null || typeof results.dimension_averages[dimension] === "number").toBe(true);
  expect(typeof results.dimension_averages.FUNCTIONAL).toBe("number");
  expect(results.entropic.summary).toEqual(results.summary);
  expect(typeof results.original.scores.accuracy_percent).toBe("number");
  for (const key of ["passed", "failed", "total_tasks"]) expect(typeof results.original.summary[key]).toBe("number");
  expect(Object.keys(results.extension_metrics)).toEqual(["drift_level", "rot_level", "org_type", "skip_original"]);
  expect(Object.keys(results.timing)).toEqual(["total_seconds", "purple_agent_seconds", "green_agent_seconds", "avg_seconds_per_task", "purple_agent_percent"]);
  expect(results.results).toHaveLength(taskCount);
  for (const entry of results.results) {
    expect(typeof entry.task_idx).toBe("string");
    expect(Object.keys(entry).slice(0, 17)).toEqual([
      "task_idx",
      "task_category",
      "task_query",
      "dataset_reference",
      "entropic",
      "crm_reward",
      "total_score",
      "dimension_scores",
      "agent_answer",
      "expected_answer",
      "success",
      "metrics",
      "timing",
      "original",
      "termination",
      "entropy_events",
      "judge",
    ]);
    expect(Object.keys(entry.metrics).slice(0, 4)).toEqual(["turns", "tokens_estimate", "tool_calls", "queries"]);
    expect(entry.dataset_reference).toMatchObject({ source: "Salesforce/CRMArenaPro", split: "b2b" });
  }
}

describe("agent card", () => {
  const interfaces = () => [
    { url: green.url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "1.0" },
    { url: green.url, protocolBinding: "JSONRPC", tenant: "", protocolVersion: "0.3" },
  ];

  it("is served at the A2A path and the legacy path, in 0.3's shape to a request without A2A-Version, listing both interfaces", async () => {
    for (const path of [".well-known/agent-card.json", ".well-known/agent.json"]) {
      const card = await (await fetch(new URL(path, green.url))).json();
      expect(card).toMatchObject({ name: "Entropic CRMArena", url: green.url, preferredTransport: "JSONRPC", protocolVersion: "0.3", capabilities: { streaming: true } });
      expect(card.supportedInterfaces).toEqual(interfaces());
      expect(card.skills.length).toBeGreaterThan(0);
    }
  });

  it("is served in 1.0's shape to a request with A2A-Version: 1.0", async () => {
    const response = await fetch(new URL(".well-known/agent-card.json", green.url), { headers: { "A2A-Version": "1.0" } });
    expect(response.headers.get("vary")).toMatch(/A2A-Version/);
    const card = await response.json();
    expect(card).toMatchObject({ name: "Entropic CRMArena", capabilities: { streaming: true } });
    expect(card.supportedInterfaces).toEqual(interfaces());
    expect(card).not.toHaveProperty("url");
    expect(card).not.toHaveProperty("protocolVersion");
  });
});

describe("assessment over raw JSON-RPC", () => {
  it("message/send runs the assessment and returns the results artifact", async () => {
    const request = { participants: { agent: solver.url }, config: { task_ids: [0, 18, 32], max_steps: 10, custom_flag: true, allow_unknown_config: true } };
    const { body } = await rawRpc(green.url, "message/send", assessmentParams(request));
    const task = body.result;
    expect(task.kind).toBe("task");
    expect(task.status.state).toBe("completed");
    const artifact = task.artifacts.find((candidate: any) => candidate.name === "CRMArena Assessment Results");
    expect(artifact.parts.map((part: any) => part.kind)).toEqual(["text", "data"]);
    expect(() => JSON.parse(artifact.parts[0].text)).toThrow();
    const results = resultsOf(task);
    expectLeaderboardLayout(results, solver.url, 3);
    expect(results.summary.total_passed).toBe(3);
    expect(results.ignored_config_keys).toEqual(["custom_flag"]);
    expect(results.dataset).toBe("sample");
    expect(results.seed).toBe(42);
    expect(results.results.map((entry: any) => entry.task_idx)).toEqual(["0", "18", "32"]);
  });

  it("message/stream emits one Task, progress updates, one artifact, then completed", async () => {
    const request = { participants: { agent: solver.url }, config: { task_ids: [2, 4] } };
    const events = (await rawStream(green.url, assessmentParams(request))).map((line) => line.result);
    expect(events[0].kind).toBe("task");
    expect(events.filter((event) => event.kind === "task")).toHaveLength(1);
    const taskId = events[0].id;
    expect(events.every((event) => (event.kind === "task" ? event.id : event.taskId) === taskId)).toBe(true);
    // A working update holds one line per text part: the lines of a burst go together (server/progress.ts).
    const texts = events
      .filter((event) => event.kind === "status-update")
      .flatMap((event) => (event.status.message?.parts ?? []).map((part: { text?: string }) => part.text ?? ""));
    expect(texts[0]).toMatch(/^Starting assessment with 2 tasks/);
    expect(texts.some((text) => /^\[1\/2\] started task \d+ \(\w+\)/.test(text))).toBe(true);
    expect(texts.some((text) => /^\[\d\/2\] ✓ \d+ \w+ score=\d+\.\d \d+\.\ds$/.test(text))).toBe(true);
    const artifacts = events.filter((event) => event.kind === "artifact-update");
    expect(artifacts).toHaveLength(1);
    expect(artifacts[0].artifact.name).toBe("CRMArena Assessment Results");
    const last = events[events.length - 1];
    expect(last).toMatchObject({ kind: "status-update", final: true, status: { state: "completed" } });
    expect(events.indexOf(artifacts[0])).toBeLessThan(events.length - 1);
    expectLeaderboardLayout(artifacts[0].artifact.parts[1].data, solver.url, 2);
  });

  it("accepts the request as a data part and a participant URL with a path", async () => {
    const request = { participants: { agent: pathPurple.url }, config: { task_ids: "20" } };
    expect(pathPurple.url).toMatch(/\/agent$/);
    const { body } = await rawRpc(green.url, "message/send", assessmentParams(request, false));
    expect(body.result.status.state).toBe("completed");
    expect(resultsOf(body.result).summary.total_passed).toBe(1);
  });

  it("keeps concurrent assessments on one server isolated", async () => {
    const a = rawRpc(green.url, "message/send", assessmentParams({ participants: { agent: solver.url }, config: { task_ids: [6, 7] } }));
    const b = rawRpc(green.url, "message/send", assessmentParams({ participants: { agent: pathPurple.url }, config: { task_ids: [12, 13, 14], seed: 7 } }));
    const [first, second] = await Promise.all([a, b]);
    const resultsA = resultsOf(first.body.result);
    const resultsB = resultsOf(second.body.result);
    expect(resultsA.results.map((entry: any) => entry.task_idx)).toEqual(["6", "7"]);
    expect(resultsB.results.map((entry: any) => entry.task_idx)).toEqual(["12", "13", "14"]);
    expect(resultsA.participants.agent).toBe(solver.url);
    expect(resultsB.participants.agent).toBe(pathPurple.url);
    expect(resultsB.seed).toBe(7);
    expect(first.body.result.id).not.toBe(second.body.result.id);
  });

  it("reads bodies far beyond express's 100 kB default (up to its own limit, 1 MB)", async () => {
    const { status, body } = await rawRpc(green.url, "message/send", assessmentParams({ participants: { agent: "ftp://x/" }, padding: "x".repeat(900_000) }));
    expect(status).toBe(200);
    expect(statusText(body.result)).toMatch(/http:\/\/ or https:\/\/ URL/);
  });

  it("answers a body that is not JSON with a JSON-RPC parse error", async () => {
    const response = await fetch(green.url, { method: "POST", headers: { "content-type": "application/json" }, body: "{not json" });
    expect(response.status).toBe(400);
    expect((await response.json()).error.code).toBe(-32700);
  });
});

describe("an internal failure", () => {
  it("ends the task as failed, under its own task id, with the reason", async () => {
    // An org whose copy cannot be made: building the assessment's world fails.
    const base = data.org;
    const brokenOrg: OrgBackend = {
      source: base.source,
      schema: base.schema,
      capabilities: base.capabilities,
      recordIds: () => base.recordIds(),
      rows: (object) => base.rows(object),
      today: () => base.today(),
      soql: (query, context) => base.soql(query, context),
      sosl: (search, context) => base.sosl(search, context),
      sql: (query) => base.sql(query),
      close: async () => undefined,
      derive: async () => {
        throw new Error("file is not a database");
      },
    };
    const broken = await startGreen({ ...data, org: brokenOrg });
    try {
      const events = (await rawStream(broken.url, assessmentParams({ participants: { agent: solver.url }, config: { task_ids: [18] } }))).map((line) => line.result);
      const last = events[events.length - 1];
      expect(last).toMatchObject({ kind: "status-update", final: true, taskId: events[0].id, status: { state: "failed" } });
      expect(last.status.message.parts[0].text).toMatch(/^Assessment failed: .*(not a database|file is not a database|malformed)/i);
      expect(events.filter((event) => event.kind === "artifact-update")).toHaveLength(0);
    } finally {
      await broken.close();
    }
  });
});

describe("malformed requests are rejected before any work", () => {
  const unreachable = "http://127.0.0.1:9/";
  const cases: [string, unknown, RegExp][] = [
    ["text that is not JSON", "run the benchmark please", /request text is not valid JSON/],
    ["a JSON list", [1, 2], /must be a JSON object/],
    ["no participants", { config: { task_limit: 1 } }, /participants is missing/],
    ["no agent role", { participants: { purple: "http://x/" } }, /participants\.agent is missing.*got roles: purple/],
    ["agent that is not a string", { participants: { agent: 42 } }, /participants\.agent must be a URL string/],
    ["agent that is not a URL", { participants: { agent: "not a url" } }, /participants\.agent is not a valid URL/],
    ["agent with an ftp URL", { participants: { agent: "ftp://example.org/" } }, /http:\/\/ or https:\/\/ URL/],
    ["unreachable agent card", { participants: { agent: unreachable } }, /participants\.agent: cannot read the agent card/],
    ["max_steps below 1", { config: { max_steps: 0 } }, /config\.max_steps: max_steps must be at least 1 \(got 0\)/],
    ["unknown drift level", { config: { drift_level: "extreme" } }, /drift_level must be one of none\|low\|medium\|high \(got "extreme"\)/],
    ["rot level of the wrong type", { config: { rot_level: 3 } }, /rot_level must be one of none\|low\|medium\|high/],
    ["unknown task id", { config: { task_ids: [99999] } }, /config\.task_ids: unknown task index 99999; this task set has indices 0-43/],
    ["unknown category", { config: { task_categories: ["foo"] } }, /config\.task_categories: unknown 'foo'; the categories are lead_qualification/],
    ["timeout of the wrong type", { config: { timeout: "fast" } }, /timeout must be a number of seconds \(got "fast"\)/],
    ["shard outside the shards", { config: { shard_index: 3, num_shards: 2 } }, /shard_index must be below num_shards/],
    ["org type without data", { config: { org_type: "b2c" } }, /config\.org_type: no dataset of org type 'b2c' is hosted by this green agent \(the org types are b2b\)/],
    ["config that is not an object", { config: 5 }, /config must be a JSON object/],
    ["concurrency too high", { config: { concurrency: 1000 } }, /concurrency must be at most 256/],
    ["concurrency zero", { config: { concurrency: 0 } }, /config\.concurrency: concurrency must be at least 1/],
    ["participants as a list", { participants: ["http://x/"] }, /participants must be an object mapping the role "agent"/],
    ["participants null", { participants: null }, /participants must be an object mapping the role "agent"/],
    ["an empty agent URL", { participants: { agent: "" } }, /participants\.agent is not a valid URL/],
    ["a mailto agent", { participants: { agent: "mailto:a@b.c" } }, /participants\.agent must be an http:\/\/ or https:\/\/ URL/],
    ["a file agent", { participants: { agent: "file:///etc/passwd" } }, /participants\.agent must be an http:\/\/ or https:\/\/ URL/],
    ["max_steps above 100", { config: { max_steps: 101 } }, /config\.max_steps: max_steps must be at most 100/],
    ["max_steps a fraction", { config: { max_steps: 2.5 } }, /config\.max_steps: max_steps must be a whole number/],
    ["timeout zero", { config: { timeout: 0 } }, /config\.timeout: timeout must be more than 0 seconds/],
    ["timeout above an hour", { config: { timeout: 4000 } }, /config\.timeout: timeout must be at most 3600 seconds/],
    ["a negative seed", { config: { seed: -1 } }, /config\.seed: seed must be at least 0/],
    ["a seed that is text", { config: { seed: "42" } }, /config\.seed: seed must be a whole number \(got "42"\)/],
    ["task_limit zero", { config: { task_limit: 0 } }, /config\.task_limit: task_limit must be at least 1/],
    ["task_limit beyond the task set", { config: { task_limit: 1e12 } }, /config\.task_limit: 1000000000000 is more than the 44 tasks/],
    ["num_instances beyond the task set", { config: { num_instances: 45 } }, /config\.num_instances: 45 is more than the 44 tasks/],
    ["num_instances zero", { config: { num_instances: 0 } }, /config\.num_instances: num_instances must be at least 1/],
    ["task_ids empty", { config: { task_ids: [] } }, /config\.task_ids: task_ids must not be empty/],
    ["task_ids negative", { config: { task_ids: [-1] } }, /config\.task_ids: task_ids must hold whole numbers >= 0/],
    ["task_ids not numbers", { config: { task_ids: ["a1"] } }, /config\.task_ids: task_ids must hold whole numbers >= 0 \(got "a1"\)/],
    ["task_ids an object", { config: { task_ids: { a: 1 } } }, /config\.task_ids: task_ids must be a list of task indices/],
    ["task_categories a number", { config: { task_categories: 5 } }, /config\.task_categories: task_categories must be a list of category names/],
    ["num_shards zero", { config: { num_shards: 0 } }, /config\.num_shards: num_shards must be at least 1/],
    ["shard_index negative", { config: { shard_index: -1 } }, /config\.shard_index: shard_index must be at least 0/],
    ["skip_original as text", { config: { skip_original: "yes" } }, /config\.skip_original: skip_original must be true or false \(got "yes"\)/],
    ["allow_data_mismatch as a number", { config: { allow_data_mismatch: 1 } }, /config\.allow_data_mismatch: allow_data_mismatch must be true or false/],
    [
      "weights that do not sum to 1",
      { config: { weights: { FUNCTIONAL: 1, DRIFT_ADAPTATION: 1, TOKEN_EFFICIENCY: 0, QUERY_EFFICIENCY: 0, ERROR_RECOVERY: 0, TRAJECTORY_EFFICIENCY: 0, HALLUCINATION_RATE: 0 } } },
      /config\.weights: they must sum to 1 \(got 2\)/,
    ],
    ["weights missing dimensions", { config: { weights: { FUNCTIONAL: 1 } } }, /config\.weights: missing DRIFT_ADAPTATION, TOKEN_EFFICIENCY/],
    [
      "weights with an unknown dimension",
      // Valid weights but for the extra key, so that only the unknown dimension is at fault.
      { config: { weights: { ...defaultWeights(), SPEED: 0 } } },
      /config\.weights: unknown SPEED/,
    ],
    [
      "a negative weight",
      {
        config: {
          weights: { FUNCTIONAL: 1.2, DRIFT_ADAPTATION: -0.2, TOKEN_EFFICIENCY: 0, QUERY_EFFICIENCY: 0, ERROR_RECOVERY: 0, TRAJECTORY_EFFICIENCY: 0, HALLUCINATION_RATE: 0 },
        },
      },
      /config\.weights: DRIFT_ADAPTATION must be a number >= 0 \(got -0\.2\)/,
    ],
    ["weights as a list", { config: { weights: [0.3] } }, /config\.weights: weights must be an object of the dimensions' weights/],
    [
      "an unknown perturbation kind",
      { config: { perturbations: ["drift.everything"] } },
      /config\.perturbations: perturbations: unknown drift\.everything; the kinds are rot\.recycle_bin/,
    ],
    ["perturbations empty", { config: { perturbations: [] } }, /config\.perturbations: perturbations must name at least one kind/],
    ["a run_id with a slash", { config: { run_id: "../etc" } }, /config\.run_id: run_id must be 1-80 letters, digits/],
  ];
  for (const [name, document, expected] of cases) {
    it(`rejects ${name}`, async () => {
      // Config cases get a valid participant, so that only the config is at fault.
      const configCase = name !== "no participants" && typeof document === "object" && document !== null && !Array.isArray(document) && !("participants" in document);
      const full = configCase ? { participants: { agent: solver.url }, ...document } : document;
      const { body } = await rawRpc(green.url, "message/send", assessmentParams(full));
      expect(body.result.status.state).toBe("rejected");
      expect(statusText(body.result)).toMatch(expected);
      expect(body.result.artifacts ?? []).toHaveLength(0);
      expect(statusText(body.result)).not.toMatch(/is not a function|Cannot read properties|undefined/);
    });
  }
});

describe("malformed A2A calls get a JSON-RPC error naming the field, never internal error text", () => {
  const message = (overrides: Record<string, unknown>) => ({ message: { kind: "message", role: "user", messageId: "m-1", parts: [{ kind: "text", text: "{}" }], ...overrides } });
  const cases: [string, string, unknown, RegExp][] = [
    ["parts that is not a list", "message/send", message({ parts: "hello" }), /params\.message\.parts must be a list of parts/],
    ["parts an object", "message/stream", message({ parts: { kind: "text", text: "x" } }), /params\.message\.parts must be a list of parts/],
    ["no parts", "message/send", message({ parts: [] }), /params\.message\.parts must hold at least one part/],
    [
      "a part of unknown kind",
      "message/send",
      message({ parts: [{ kind: "image", url: "x" }] }),
      /params\.message\.parts\.0\.kind each part must be an object with kind text, data or file \(got "image"\)/,
    ],
    ["a part that is a string", "message/send", message({ parts: ["hello"] }), /params\.message\.parts\.0 each part must be an object/],
    ["a text part without text", "message/send", message({ parts: [{ kind: "text" }] }), /params\.message\.parts\.0\.text a text part needs a string 'text'/],
    ["a data part with text data", "message/send", message({ parts: [{ kind: "data", data: "x" }] }), /params\.message\.parts\.0\.data a data part needs an object 'data'/],
    ["no message", "message/send", {}, /params\.message must be an A2A message object/],
    ["a message that is a string", "message/send", { message: "hello" }, /params\.message must be an A2A message object/],
    ["no role", "message/send", message({ role: undefined }), /params\.message\.role must be "user" or "agent"/],
    ["a system role", "message/send", message({ role: "system" }), /params\.message\.role must be "user" or "agent"/],
    ["no messageId", "message/send", message({ messageId: undefined }), /params\.message\.messageId must be a string/],
    ["a numeric messageId", "message/stream", message({ messageId: 7 }), /params\.message\.messageId must be a string/],
    ["a numeric contextId", "message/send", message({ contextId: 7 }), /params\.message\.contextId must be a string/],
    ["configuration as text", "message/send", { ...message({}), configuration: "blocking" }, /params\.configuration must be an object/],
    ["tasks/get without an id", "tasks/get", {}, /params\.id must be a task id string/],
    ["tasks/cancel with a numeric id", "tasks/cancel", { id: 5 }, /params\.id must be a task id string/],
    ["tasks/get with an empty id", "tasks/get", { id: "" }, /params\.id must not be empty/],
  ];
  for (const [name, method, params, expected] of cases) {
    it(`answers ${name}`, async () => {
      const { body } = await rawRpc(green.url, method, params);
      expect(body.error?.code, JSON.stringify(body)).toBe(-32602);
      expect(body.error.message).toMatch(expected);
      expect(body.error.message).not.toMatch(/is not a function|Cannot read properties|TypeError/);
    });
  }
});

describe("the purple's agent card", () => {
  it("is checked: JSON without a name and version is no card, and the request is rejected naming participants.agent", async () => {
    const { createServer } = await import("node:http");
    const fake = createServer((_req, res) => res.writeHead(200, { "content-type": "application/json" }).end("{}"));
    await new Promise<void>((resolve) => fake.listen(0, "127.0.0.1", resolve));
    try {
      const agent = `http://127.0.0.1:${(fake.address() as { port: number }).port}/`;
      const { body } = await rawRpc(green.url, "message/send", assessmentParams({ participants: { agent } }));
      expect(body.result.status.state).toBe("rejected");
      expect(statusText(body.result)).toMatch(/participants\.agent: the agent card at .* is not an A2A agent card: 'name' must be a non-empty string/);
    } finally {
      fake.close();
    }
  });
});

describe("tasks and org that do not belong together", () => {
  it("rejects the real task file on the sample org over A2A, saying what is missing and how to get it, unless allowed", async () => {
    const { REAL_TASKS } = await import("../support/helpers.js");
    const mismatched = await sampleData(REAL_TASKS);
    const server = await startGreen(mismatched);
    try {
      const refused = await rawRpc(server.url, "message/send", assessmentParams({ participants: { agent: solver.url }, config: { task_limit: 5 } }));
      expect(refused.body.result.status.state).toBe("rejected");
      expect(statusText(refused.body.result)).toMatch(
        /the tasks and the org do not belong together: \d+ of the \d+ records the selected tasks name are not in the org .*entropic-crmarena data fetch.*allow_data_mismatch: true/,
      );
      const allowed = await rawRpc(server.url, "message/send", assessmentParams({ participants: { agent: solver.url }, config: { task_limit: 2, allow_data_mismatch: true } }));
      expect(allowed.body.result.status.state).toBe("completed");
      expect(resultsOf(allowed.body.result).data_sources).toMatchObject({ tasks: { kind: "custom" }, org: { kind: "sample" }, check: { allowed_mismatch: true } });
    } finally {
      await server.close();
      await mismatched.org.close();
    }
  });
});
