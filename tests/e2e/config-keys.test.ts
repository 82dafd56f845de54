import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, describe, expect, it } from "vitest";
import { CONFIG_KEYS, nearestConfigKey, unknownKeysMessage } from "../../src/assessment/index.js";
import { servePurple, solverStrategy } from "../../src/baselines/index.js";
import { runLocalAssessment } from "../../src/cli/assess.js";
import { HeuristicJudge } from "../../src/scoring/index.js";
import { assessmentParams, rawStream, sampleData, startGreen } from "../support/helpers.js";

const data = await sampleData();
afterAll(async () => {
  await data.org.close();
});

describe("unknown config keys", () => {
  it("are named with the key they most likely meant", () => {
    expect(nearestConfigKey("drift_levle")).toBe("drift_level");
    expect(nearestConfigKey("rot-level")).toBe("rot_level");
    expect(nearestConfigKey("taskLimit")).toBe("task_limit");
    expect(nearestConfigKey("colour")).toBeUndefined();
    expect(unknownKeysMessage(["drift_levle", "colour"])).toBe("unknown config keys: drift_levle (did you mean drift_level?), colour");
  });

  it("make `assess` refuse before any work unless --allow-unknown-config, and a bad --agent says what to write", async () => {
    const judge = new HeuristicJudge();
    const file = join(mkdtempSync(join(tmpdir(), "entropic-config-")), "config.json");
    writeFileSync(file, JSON.stringify({ task_limit: 2, drift_levle: "high" }));
    await expect(runLocalAssessment("http://127.0.0.1:9/", { config: file }, judge)).rejects.toThrow(
      "unknown config key: drift_levle (did you mean drift_level?); fix the config, or pass --allow-unknown-config",
    );
    // Allowed, it goes on to the purple (here nobody listens on port 9).
    await expect(runLocalAssessment("http://127.0.0.1:9/", { config: file, allowUnknownConfig: true }, judge)).rejects.not.toThrow(/unknown config/);
    await expect(runLocalAssessment("127.0.0.1:41019", {}, judge)).rejects.toThrow(
      '--agent: "127.0.0.1:41019" is not an http(s) URL of an A2A agent (did you mean http://127.0.0.1:41019/?)',
    );
  });

  it("are refused over A2A as on the command line, unless config.allow_unknown_config, which reports them before the run starts", async () => {
    const purple = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
    const green = await startGreen(data);
    try {
      const refused = await rawStream(green.url, assessmentParams({ participants: { agent: purple.url }, config: { task_limt: 1 } }));
      const last = refused.at(-1)?.result;
      expect(last?.status?.state).toBe("rejected");
      expect(last?.status?.message?.parts?.[0]?.text).toContain(
        "unknown config key: task_limt (did you mean task_limit?); fix the config, or set config.allow_unknown_config to true",
      );
      expect(refused.some((event) => /started task/.test(event.result?.status?.message?.parts?.[0]?.text ?? ""))).toBe(false);

      const events = await rawStream(
        green.url,
        assessmentParams({ participants: { agent: purple.url }, config: { task_limit: 1, drift_levle: "high", allow_unknown_config: true } }),
      );
      const texts = events.map((event) => event.result?.status?.message?.parts?.[0]?.text ?? "");
      const starting = texts.findIndex((text) => text.startsWith("Starting assessment"));
      expect(starting).toBeGreaterThanOrEqual(0);
      expect(texts[starting]).toContain("WARNING: unknown config key: drift_levle (did you mean drift_level?); they are ignored.");
      expect(texts.findIndex((text) => /started task/.test(text))).toBeGreaterThan(starting);
    } finally {
      purple.server.close();
      await green.close();
    }
  }, 60_000);
});

describe("docs/reference.md's config table", () => {
  it("names every config key of the schema, and no key the schema lacks", () => {
    const doc = readFileSync(new URL("../../docs/reference.md", import.meta.url), "utf8");
    const section = doc.slice(doc.indexOf("## Config reference"), doc.indexOf("## Results reference"));
    // A row may name several keys in its first cell ("`drift_level`, `rot_level`").
    const documented = [...section.matchAll(/^\| ((?:`[a-z_0-9]+`(?:, )?)+) \|/gm)].flatMap((match) => [...match[1]!.matchAll(/`([a-z_0-9]+)`/g)].map((key) => key[1]!));
    expect(new Set(documented).size).toBe(documented.length);
    expect([...documented].sort()).toEqual([...CONFIG_KEYS].sort());
  });
});
