import { createHash } from "node:crypto";
import { afterAll, describe, expect, it } from "vitest";
import { planChanges, planEntropy } from "../../src/entropy/index.js";
import { deriveImage } from "../../src/org/derive.js";
import { deriveThreads } from "../../src/org/index.js";
import { loadTaskFile } from "../../src/tasks/load.js";
import { IdRemap } from "../../src/util/index.js";
import { openSqliteOrg, rowsOf, SAMPLE_ORG, SAMPLE_TASKS } from "../support/helpers.js";

const org = await openSqliteOrg(SAMPLE_ORG, { workers: 1 });
afterAll(() => org.close());

describe("org copies in warm threads", () => {
  it("reuses one thread for copies made one after another, and each copy is the same as a fresh thread's", async () => {
    const before = deriveThreads().started;
    const remap = IdRemap.forRun(7, "a test secret");
    const first = await org.derive([], "first", { remap });
    const second = await org.derive([], "second", { remap });
    const third = await org.derive([], "third", { remap: IdRemap.forRun(8, "a test secret") });
    expect(deriveThreads().started - before).toBe(1);
    expect(deriveThreads().idle).toBe(1);
    const ids = async (copy: typeof first) => (await copy.rows("Account")).map((row) => row.Id);
    expect(await ids(second)).toEqual(await ids(first));
    expect(await ids(third)).not.toEqual(await ids(first));
    for (const copy of [first, second, third]) await copy.close();
  });

  it("gives each request's copy byte for byte, when the thread keeps the changed org from one copy to the next", async () => {
    const tasks = loadTaskFile(SAMPLE_TASKS).tasks;
    const rows = await rowsOf(org);
    // Level none: every seed's changes are the same, so the thread keeps the changed org; then
    // another org's changes (high), which it may not keep, and the first ones again.
    const changesAt = (seed: number, level: "none" | "high") =>
      planChanges(planEntropy({ seed, drift_level: level, rot_level: level, schema: org.schema, tasks, library: tasks, rows }));
    expect(changesAt(101, "none")).toEqual(changesAt(100, "none"));
    const image = (org as unknown as { image: Buffer }).image;
    const digest = (bytes: Uint8Array) => createHash("sha256").update(bytes).digest("hex");
    for (const [seed, level] of [
      [100, "none"],
      [101, "none"],
      [102, "high"],
      [103, "none"],
    ] as const) {
      const changes = changesAt(seed, level);
      const remap = IdRemap.forRun(seed, "a test secret");
      const copy = await org.derive(changes, `seed ${seed}`, { remap });
      try {
        const expected = deriveImage(image, org.schema, changes, remap);
        expect(digest((copy as unknown as { image: Buffer }).image)).toBe(digest(expected.image));
        expect(new Set(await copy.recordKeys())).toEqual(new Set(expected.keys));
        expect(await copy.today()).toBe(expected.today);
      } finally {
        await copy.close();
      }
    }
  });
});
