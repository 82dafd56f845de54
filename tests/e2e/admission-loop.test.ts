import { createHash } from "node:crypto";
import { mkdtempSync, rmSync } from "node:fs";
import type { Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import type { AssessmentData } from "../../src/assessment/index.js";
import { planChanges, planEntropy } from "../../src/entropy/index.js";
import { deriveImage } from "../../src/org/derive.js";
import { openBackend } from "../../src/org/index.js";
import { generateOrg, generateTasks, writeOrgCsv, writeTasksJson } from "../../src/sample/index.js";
import { loadTaskFile } from "../../src/tasks/load.js";
import { canonicalId, IdRemap } from "../../src/util/index.js";
import { assessmentParams, openSqliteOrg, rawPurpleServer, rawRpc, rowsOf, SAMPLE_ORG, SAMPLE_TASKS, startGreen } from "../support/helpers.js";
import { SLOW_TESTS } from "../support/tier.js";

/*
 * Admitting a request must not stall the green's event loop: the other assessments' episodes,
 * heartbeats and cancels wait for it. The full-size case of issue 21: the real org's size (about
 * 29,000 rows), all 2,140 tasks, drift and rot high.
 */

const TASKS = 2_140;

/**
 * Counts the turns of the event loop in which a 5 ms timer ran, from start to stop(). Admission
 * done in one piece lets the timer run once or twice; admission in slices (src/util/loop-slices.ts,
 * 15 ms each) lets it run between slices, about once a slice: a full-size request at high/high is
 * seconds of work, so hundreds of slices. A slower machine only makes more. How long the longest
 * gap lasts (under 100 ms is the target) is measured by npm run bench (its "admission" part).
 */
function loopTurns(): { stop: () => number } {
  let turns = 0;
  const timer = setInterval(() => turns++, 5);
  return {
    stop: () => {
      clearInterval(timer);
      return turns;
    },
  };
}

/** At least this many timer turns while a full-size request is admitted (in one piece: 1 or 2). */
const MIN_TURNS = 20;

const dir = mkdtempSync(join(tmpdir(), "entropic-admission-loop-"));
let data: AssessmentData;
let green: Awaited<ReturnType<typeof startGreen>>;
let purple: { url: string; server: Server };
/** Episodes the purple has been asked about (the first one means the request is admitted and running). */
let turns = 0;
const held: (() => void)[] = [];

beforeAll(async () => {
  if (!SLOW_TESTS) return;
  // Scale 1.06 gives the real org's row count; the tasks repeat the generated ones (two per
  // category, each with a ground truth from the org) to the size of the real task set.
  const org = generateOrg(21, 1.06);
  const rows = Object.values(org.tables).reduce((sum, table) => sum + table.length, 0);
  expect(rows).toBeGreaterThan(28_500);
  expect(rows).toBeLessThan(30_000);
  const base = generateTasks(org, 21, 2);
  await writeOrgCsv(org, join(dir, "org"));
  await writeTasksJson(
    Array.from({ length: TASKS }, (_, idx) => ({ ...base[idx % base.length]!, idx })),
    join(dir, "tasks.json"),
  );
  const tasksPath = join(dir, "tasks.json");
  data = {
    tasks: loadTaskFile(tasksPath),
    org: await openBackend(join(dir, "org"), { workers: 2 }),
    dataset: "custom",
    sources: { tasks: { path: tasksPath, kind: "custom" }, org: { path: join(dir, "org"), kind: "custom" } },
  };
  green = await startGreen(data);
  // Holds every turn: the episodes stay in flight until the test cancels the assessment.
  purple = await rawPurpleServer((body, res) => {
    turns++;
    held.push(() =>
      res.json({
        jsonrpc: "2.0",
        id: body.id,
        result: { kind: "message", role: "agent", messageId: `m${turns}`, parts: [{ kind: "text", text: '{"name": "respond", "arguments": {"answer": "None"}}' }] },
      }),
    );
  });
}, 60_000);

afterAll(async () => {
  for (const answer of held.splice(0)) answer();
  await green?.close();
  purple?.server.close();
  await data?.org.close();
  rmSync(dir, { recursive: true, force: true });
});

/** Waits for `done`, looking every 10 ms, at most `looks` times. */
async function until(done: () => boolean, looks: number, what: string): Promise<void> {
  for (let look = 0; !done(); look++) {
    if (look >= looks) throw new Error(`gave up waiting for ${what}`);
    await new Promise((resolve) => setTimeout(resolve, 10));
  }
}

/** Sends `count` requests for every task at drift and rot high at once; resolves with their task ids once each has sent its first turn. */
/** A task as its creator names it to the green: its id and its token (docs/protocol.md, "Limits"). */
type TaskRef = { id: string; metadata: { task_token: string } };

async function admit(count: number): Promise<{ loopTurns: number; taskIds: TaskRef[] }> {
  const before = turns;
  const loop = loopTurns();
  const replies = await Promise.all(
    Array.from({ length: count }, (_, seed) =>
      rawRpc(green.url, "message/send", {
        ...assessmentParams({ participants: { agent: purple.url }, config: { drift_level: "high", rot_level: "high", seed, concurrency: 1 } }),
        configuration: { blocking: false },
      }),
    ),
  );
  const taskIds = replies.map((reply): TaskRef => ({ id: reply.body.result.id, metadata: { task_token: reply.body.result.metadata.task_token } }));
  // At most 30,000 looks: the test's own timeout is the bound (8 full-size admissions on two
  // loaded cores take minutes).
  await until(() => turns - before >= count, 30_000, "every assessment's first turn");
  return { loopTurns: loop.stop(), taskIds };
}

async function cancel(taskIds: readonly TaskRef[]): Promise<void> {
  for (const task of taskIds) expect((await rawRpc(green.url, "tasks/cancel", task)).body.result.status.state).toBe("canceled");
  for (const answer of held.splice(0)) answer();
}

describe.skipIf(!SLOW_TESTS)("admission off the event loop (slow tier)", () => {
  it(`admits a ${TASKS}-task request at drift and rot high on a full-size org in slices, the event loop turning between them`, async () => {
    expect(data.tasks.tasks).toHaveLength(TASKS);
    const admitted = await admit(1);
    await cancel(admitted.taskIds);
    expect(admitted.loopTurns).toBeGreaterThanOrEqual(MIN_TURNS);
  }, 120_000);

  it("admits a burst of 8 such requests, the event loop turning between their slices", async () => {
    const admitted = await admit(8);
    expect(new Set(admitted.taskIds).size).toBe(8);
    await cancel(admitted.taskIds);
    expect(admitted.loopTurns).toBeGreaterThanOrEqual(8 * MIN_TURNS);
  }, 300_000);
});

describe("the copy made in a worker thread", () => {
  it("is byte for byte the copy the same SQL makes in this thread (changes, remap and Id order at drift and rot high)", async () => {
    const org = await openSqliteOrg(SAMPLE_ORG, { workers: 1 });
    try {
      const tasks = loadTaskFile(SAMPLE_TASKS).tasks;
      const plan = planEntropy({ seed: 5, drift_level: "high", rot_level: "high", schema: org.schema, tasks, library: tasks, rows: await rowsOf(org) });
      const changes = planChanges(plan);
      expect(changes.length).toBeGreaterThan(0);
      const remap = IdRemap.forRun(5);
      const base = org as unknown as { image: Buffer };
      const inThread = deriveImage(base.image, org.schema, changes, remap);
      const copy = await org.derive(changes, "copy", { remap });
      try {
        const digest = (image: Uint8Array) => createHash("sha256").update(image).digest("hex");
        expect(digest((copy as unknown as { image: Buffer }).image)).toBe(digest(inThread.image));
        expect(new Set(await copy.recordKeys())).toEqual(new Set(inThread.keys));
        // The keys the thread worked out are the record Ids' own (read from the copy's image).
        expect(new Set(inThread.keys)).toEqual(new Set([...(await copy.recordIds())].map((id) => canonicalId(id) ?? id)));
        expect(await copy.today()).toBe(inThread.today);
        // And the copy is the one the plan asked for: a remapped Id answers, the dataset's does not.
        const rowsOfQuery = async (store: typeof org, sql: string) => {
          const outcome = await store.query(sql);
          if (!outcome.ok) throw new Error(outcome.message);
          return outcome.rows;
        };
        const [first] = (await rowsOfQuery(org, "SELECT Id FROM Account ORDER BY Id LIMIT 1")) as { Id: string }[];
        expect(await rowsOfQuery(copy, `SELECT COUNT(*) AS n FROM Account WHERE Id = '${remap.id(first!.Id)}'`)).toEqual([{ n: 1 }]);
        expect(await rowsOfQuery(copy, `SELECT COUNT(*) AS n FROM Account WHERE Id = '${first!.Id}'`)).toEqual([{ n: 0 }]);
      } finally {
        await copy.close();
      }
    } finally {
      await org.close();
    }
  }, 60_000);

  it("reports a change the org cannot take as an error naming it", async () => {
    const org = await openSqliteOrg(SAMPLE_ORG, { workers: 1 });
    try {
      await expect(org.derive([{ op: "rename_field", object: "Account", from: "NoSuchField", to: "Other" }], "copy")).rejects.toThrow(/NoSuchField/);
    } finally {
      await org.close();
    }
  }, 60_000);
});
