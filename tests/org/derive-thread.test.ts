import { afterAll, describe, expect, it } from "vitest";
import { deriveThreads } from "../../src/org/index.js";
import { IdRemap } from "../../src/util/index.js";
import { openSqliteOrg, SAMPLE_ORG } from "../support/helpers.js";

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
});
