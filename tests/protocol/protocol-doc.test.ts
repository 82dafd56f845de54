import { type ChildProcess, spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { assess, parseConfig, runSpecFor } from "../../src/assessment/index.js";
import type { Level } from "../../src/entropy/index.js";
import { describeObjects } from "../../src/protocol/index.js";
import { A2APurpleClient } from "../../src/purple/index.js";
import { OrgView } from "../../src/world/index.js";
import { calibration, freePort, sampleData } from "../support/helpers.js";

/**
 * docs/protocol.md section 8 shows `describe_schema`'s real output. This test computes it as
 * `org describe` does and checks the doc holds exactly that; `UPDATE_DOCS=1 npx vitest run
 * tests/protocol/protocol-doc.test.ts` writes it in, so the doc never goes stale.
 */
const DOC = fileURLToPath(new URL("../../docs/protocol.md", import.meta.url));
const data = await sampleData();
afterAll(async () => {
  await data.org.close();
});

/** The code block that follows a line of the doc containing `marker`. */
function blockAfter(doc: string, marker: string): { start: number; end: number; text: string } {
  const at = doc.indexOf(marker);
  if (at < 0) throw new Error(`docs/protocol.md no longer says ${JSON.stringify(marker)}`);
  const start = doc.indexOf("```\n", at) + 4;
  const end = doc.indexOf("\n```", start);
  return { start, end, text: doc.slice(start, end) };
}

async function describeCase(drift: Level, rot: Level, seed: number): Promise<string> {
  const view = await OrgView.plan(data.org, { drift_level: drift, rot_level: rot, seed }, [], []);
  try {
    return describeObjects(view.schema.objects.filter((object) => object.name === "Case"));
  } finally {
    await view.close();
  }
}

describe("docs/protocol.md section 8", () => {
  it("shows describe_schema's real output, with and without drift", async () => {
    const blocks = [
      { marker: "`npx tsx src/cli.ts org describe Case` prints", text: await describeCase("none", "none", 42) },
      { marker: "(`npx tsx src/cli.ts org describe Case --drift-level high --rot-level high --seed 7`):", text: await describeCase("high", "high", 7) },
    ];
    let doc = readFileSync(DOC, "utf8");
    if (process.env.UPDATE_DOCS === "1") {
      for (const block of blocks) {
        const { start, end } = blockAfter(doc, block.marker);
        doc = `${doc.slice(0, start)}${block.text}${doc.slice(end)}`;
      }
      writeFileSync(DOC, doc);
    }
    for (const block of blocks) expect(blockAfter(doc, block.marker).text, `${block.marker} (UPDATE_DOCS=1 rewrites it)`).toBe(block.text);
  });
});

describe("docs/protocol.md's purple without an SDK", () => {
  let child: ChildProcess | undefined;
  afterAll(() => {
    child?.kill();
  });

  it("runs as written and completes its episodes against the green", async () => {
    const doc = readFileSync(DOC, "utf8");
    const heading = doc.indexOf("### A purple in 40 lines, without an SDK");
    expect(heading).toBeGreaterThan(0);
    const start = doc.indexOf("```js\n", heading) + "```js\n".length;
    const code = doc.slice(start, doc.indexOf("\n```", start));
    expect(code.split("\n").length).toBeLessThanOrEqual(45);
    const file = join(mkdtempSync(join(tmpdir(), "entropic-purple-")), "purple.mjs");
    writeFileSync(file, code);
    const port = await freePort();
    child = spawn(process.execPath, [file], { env: { ...process.env, PORT: String(port) }, stdio: "ignore" });
    const url = `http://127.0.0.1:${port}/`;
    for (let i = 0; i < 100; i++) {
      const up = await fetch(`${url}.well-known/agent-card.json`)
        .then((response) => response.ok)
        .catch(() => false);
      if (up) break;
      await new Promise((resolve) => setTimeout(resolve, 100));
    }
    const { config } = parseConfig({ task_limit: 8, seed: 2, concurrency: 4 });
    const { results } = await assess(data, new A2APurpleClient(url), { spec: runSpecFor({ participantUrl: url, config, tasksSource: data.sources.tasks.path }), calibration });
    expect(results.terminations).toEqual({ answered: 8 });
    for (const entry of results.results) {
      const privacy = entry.dataset_reference.reward_metric === "privacy_rejection";
      expect(entry.trajectory.steps.length, entry.task_category).toBe(privacy ? 1 : 3);
      if (privacy) expect(entry.success, entry.task_category).toBe(true);
    }
  }, 60_000);
});
