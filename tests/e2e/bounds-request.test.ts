import { afterAll, beforeAll, describe, expect, it, vi } from "vitest";
import { CONFIG_LIMITS, ConfigError, checkEpisodeCount, episodeCount, parseConfig, unknownKeysMessage } from "../../src/assessment/index.js";
import { REQUEST_LIMITS } from "../../src/server/index.js";
import { RequestRejection, requestDocument, validateRequest } from "../../src/server/request.js";
import { parseBoundedJson, scanJson } from "../../src/util/index.js";
import { assessmentParams, rawRpc, sampleData, startGreen } from "../support/helpers.js";

let data: Awaited<ReturnType<typeof sampleData>>;
let green: Awaited<ReturnType<typeof startGreen>>;

beforeAll(async () => {
  data = await sampleData();
  green = await startGreen(data);
});

afterAll(async () => {
  await green.close();
  await data.org.close();
});

const nested = (depth: number) => `${"[".repeat(depth)}${"]".repeat(depth)}`;
const manyKeys = (count: number, prefix = "k") => Object.fromEntries(Array.from({ length: count }, (_, i) => [`${prefix}${i}`, 1]));

describe("the JSON scan measures a text before it is parsed", () => {
  it("counts depth and items, strings and escapes aside, and stops at the first bound passed", () => {
    expect(scanJson('{"a": [1, 2, {"b": "[[[\\"{"}], "c": []}', { maxDepth: 10, maxItems: 100 })).toEqual({ ok: true, depth: 3, items: 6 });
    expect(scanJson(Buffer.from('["é", "ü", ["]"]]'), { maxDepth: 10, maxItems: 100 })).toEqual({ ok: true, depth: 2, items: 4 });
    expect(scanJson(nested(33), { maxDepth: 32, maxItems: 100 })).toEqual({ ok: false, reason: "it nests deeper than 32 levels of arrays and objects" });
    expect(scanJson(JSON.stringify(manyKeys(101)), { maxDepth: 32, maxItems: 100 })).toEqual({
      ok: false,
      reason: "it holds more than 100 array elements and object members",
    });
  });

  it("refuses a 200,000-deep text without parsing it", () => {
    const parse = vi.spyOn(JSON, "parse");
    try {
      expect(() => parseBoundedJson(nested(200_000), { maxDepth: 32, maxItems: 100 }, "the text")).toThrow("the text is refused: it nests deeper than 32 levels");
      expect(parse).not.toHaveBeenCalled();
    } finally {
      parse.mockRestore();
    }
  });
});

describe("config limits", () => {
  it("refuses more config keys than the limit before looking any of them up", () => {
    expect(() => parseConfig(manyKeys(CONFIG_LIMITS.entries + 1))).toThrow(`config holds ${CONFIG_LIMITS.entries + 1} keys; at most ${CONFIG_LIMITS.entries} are accepted`);
  });

  it("names at most a few unknown keys with suggestions, and counts the rest", () => {
    const message = unknownKeysMessage(Object.keys(manyKeys(1_000, "drift_levle")));
    // Five named, each with its suggestion; the other 995 counted, none looked up.
    expect(message.match(/\(did you mean drift_level\?\)/g) ?? []).toHaveLength(CONFIG_LIMITS.unknownKeysNamed);
    expect(message).toMatch(/^unknown config keys: drift_levle0 \(did you mean drift_level\?\), .*drift_levle4 \(did you mean drift_level\?\) and 995 more$/);
    expect(unknownKeysMessage(["x".repeat(300_000)])).toBe(`unknown config key: ${"x".repeat(40)}… (300000 characters)`);
  });

  it("caps every list and refuses duplicate task_ids", () => {
    const ids = Array.from({ length: CONFIG_LIMITS.taskIds + 1 }, (_, i) => i);
    expect(() => parseConfig({ task_ids: ids })).toThrow(`task_ids holds ${CONFIG_LIMITS.taskIds + 1} entries; at most ${CONFIG_LIMITS.taskIds} are accepted`);
    expect(() => parseConfig({ task_ids: ids.join(",") })).toThrow(`at most ${CONFIG_LIMITS.taskIds} are accepted`);
    expect(() => parseConfig({ task_ids: [0, 18, 0] })).toThrow("task_ids holds 0 more than once");
    expect(() => parseConfig({ task_ids: "5,5" })).toThrow("task_ids holds 5 more than once");
    expect(() => parseConfig({ task_categories: Array.from({ length: 65 }, (_, i) => `c${i}`) })).toThrow("task_categories holds 65 entries; at most 64 are accepted");
    expect(() => parseConfig({ perturbations: Array.from({ length: 65 }, (_, i) => `p${i}`) })).toThrow("perturbations holds 65 entries; at most 64 are accepted");
    expect(parseConfig({ task_ids: [0, 18] }).config.task_ids).toEqual([0, 18]);
  });

  it("refuses more episodes per request than the limit, with the number and the limit", () => {
    expect(episodeCount({ trials: 100, paired: true }, 2_140)).toBe(428_000);
    expect(() => checkEpisodeCount({ trials: 100, paired: true, max_steps: 1 }, 2_140)).toThrow(ConfigError);
    expect(() => checkEpisodeCount({ trials: 100, paired: true, max_steps: 1 }, 2_140)).toThrow(
      `the config asks for 428000 episodes (2140 tasks × 100 trials × 2 conditions (paired)); at most ${CONFIG_LIMITS.episodes} are run per request`,
    );
    expect(() => checkEpisodeCount({ trials: 2, paired: true, max_steps: 5 }, 2_140)).not.toThrow();
  });

  it("refuses more turns per request than the limit (episodes × max_steps, × 11 in interactive mode), with the number and the limit", () => {
    // The leaderboard's run (every task, max_steps 10) and two trials of it fit; three do not.
    expect(() => checkEpisodeCount({ max_steps: 10 }, 2_140)).not.toThrow();
    expect(() => checkEpisodeCount({ trials: 2, max_steps: 10 }, 2_140)).not.toThrow();
    expect(() => checkEpisodeCount({ trials: 3, max_steps: 10 }, 2_140)).toThrow(
      `the config allows 64200 turns (6420 episodes (2140 tasks × 3 trials) × 10 turns each (max_steps)); at most ${CONFIG_LIMITS.turns} are allowed per request`,
    );
    expect(() => checkEpisodeCount({ max_steps: 10, mode: "interactive" }, 2_140)).toThrow(/× 110 turns each \(max_steps × 11 in interactive mode\)/);
    expect(() => checkEpisodeCount({ max_steps: 2, mode: "interactive" }, 2_140)).not.toThrow();
  });
});

describe("request limits", () => {
  const loaded = async () => data;

  it("refuses too many participant roles and unknown config keys before loading any data", async () => {
    const dataFor = vi.fn(loaded);
    const roles = Object.fromEntries(Array.from({ length: REQUEST_LIMITS.participants + 1 }, (_, i) => [`role${i}`, "http://127.0.0.1:1/"]));
    await expect(validateRequest({ participants: { agent: "http://127.0.0.1:1/", ...roles } }, dataFor)).rejects.toThrow(
      `participants holds ${REQUEST_LIMITS.participants + 2} roles; at most ${REQUEST_LIMITS.participants} are accepted`,
    );
    await expect(validateRequest({ participants: { agent: "http://127.0.0.1:1/" }, config: { task_limt: 3 } }, dataFor)).rejects.toThrow(
      "unknown config key: task_limt (did you mean task_limit?); fix the config, or set config.allow_unknown_config to true",
    );
    expect(dataFor).not.toHaveBeenCalled();
    const allowed = await validateRequest({ participants: { agent: "http://127.0.0.1:1/" }, config: { task_limit: 2, task_limt: 3, allow_unknown_config: true } }, dataFor);
    expect(allowed.ignoredConfigKeys).toEqual(["task_limt"]);
    expect(allowed.chosen.selection.tasks).toHaveLength(2);
  });

  it("refuses a request document in a text part nested past the limit, before parsing it", () => {
    const message = { parts: [{ content: { $case: "text", value: `{"participants": ${nested(10_000)}}` } }] } as never;
    expect(() => requestDocument(message)).toThrow(RequestRejection);
    expect(() => requestDocument(message)).toThrow(`the request text is refused: it nests deeper than ${REQUEST_LIMITS.jsonDepth} levels`);
  });

  it("over HTTP: a body past the size, depth or item limit, too many parts or metadata entries are refused, naming the limit", async () => {
    const post = async (body: string) => {
      const response = await fetch(green.url, { method: "POST", headers: { "content-type": "application/json" }, body });
      return { status: response.status, body: (await response.json()) as any };
    };
    const large = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { padding: "x".repeat(REQUEST_LIMITS.bodyBytes + 1) } }));
    expect(large.status).toBe(413);
    expect(large.body.error.message).toBe(`Invalid Request: the body is larger than ${REQUEST_LIMITS.bodyBytes} bytes (docs/protocol.md, "Limits")`);

    const deep = await post(`{"jsonrpc":"2.0","id":1,"method":"message/send","params":${nested(50_000)}}`);
    expect(deep.status).toBe(400);
    expect(deep.body.error).toMatchObject({
      code: -32600,
      message: `Invalid Request: the body is refused: it nests deeper than ${REQUEST_LIMITS.jsonDepth} levels of arrays and objects (docs/protocol.md, "Limits")`,
    });

    const metadataKeys = manyKeys(REQUEST_LIMITS.jsonItems + 1);
    const many = await post(JSON.stringify({ jsonrpc: "2.0", id: 1, method: "message/send", params: { ...assessmentParams({}), metadata: metadataKeys } }));
    expect(many.body.error.message).toMatch(`it holds more than ${REQUEST_LIMITS.jsonItems} array elements and object members`);

    const document = JSON.stringify({ participants: { agent: "http://127.0.0.1:1/" } });
    const parts = Array.from({ length: REQUEST_LIMITS.parts + 1 }, () => ({ kind: "text", text: document }));
    const tooManyParts = await rawRpc(green.url, "message/send", { message: { kind: "message", role: "user", messageId: "m", parts } });
    expect(tooManyParts.body.error).toMatchObject({
      code: -32602,
      message: `Invalid params: params.message.parts holds ${parts.length} parts; at most ${REQUEST_LIMITS.parts} are accepted`,
    });

    const metadata = manyKeys(REQUEST_LIMITS.metadataEntries + 1);
    for (const [where, params] of [
      ["params.metadata", { ...assessmentParams({}), metadata }],
      ["params.message.metadata", { ...assessmentParams({}), message: { ...assessmentParams({}).message, metadata } }],
    ] as const) {
      const refused = await rawRpc(green.url, "message/send", params);
      expect(refused.body.error).toMatchObject({
        code: -32602,
        message: `Invalid params: ${where} holds ${REQUEST_LIMITS.metadataEntries + 1} entries; at most ${REQUEST_LIMITS.metadataEntries} are accepted`,
      });
    }
  });

  it("over A2A: a config of thousands of keys, duplicate task_ids and many roles are rejected before any work", async () => {
    const send = async (config: Record<string, unknown>, participants: Record<string, unknown> = { agent: "http://127.0.0.1:1/" }) => {
      const { body } = await rawRpc(green.url, "message/send", assessmentParams({ participants, config }));
      expect(body.result.status.state).toBe("rejected");
      return body.result.status.message.parts[0].text as string;
    };
    expect(await send(manyKeys(5_000))).toContain(`config holds 5000 keys; at most ${CONFIG_LIMITS.entries} are accepted`);
    expect(await send({ task_ids: [0, 0, 1] })).toContain("task_ids holds 0 more than once");
    expect(await send({ task_categories: Array.from({ length: 1_000 }, () => "x") })).toContain("task_categories holds 1000 entries; at most 64");
    expect(await send({}, manyKeys(50, "role"))).toContain(`participants holds 50 roles; at most ${REQUEST_LIMITS.participants} are accepted`);
  });
});
