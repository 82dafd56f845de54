import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, rmSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchData } from "../../src/data/fetch.js";
import { CRMARENA_PRO_B2B, CRMARENA_PRO_B2B_INTERACTIVE, datasetNamed } from "../../src/datasets/index.js";
import { SAMPLE_TASKS } from "../support/helpers.js";

/**
 * The interactive split cannot be downloaded on these machines: `data fetch --dataset
 * crmarena-pro-b2b-interactive` is run against a loopback server, with a task file of the b2b
 * shape (the sample's) and one that lacks a field the user simulator reads.
 */
const orgBytes = Buffer.from("an org database stand-in");
const sha1 = createHash("sha1").update(`blob ${orgBytes.length}\0`).update(orgBytes).digest("hex");
const good = readFileSync(SAMPLE_TASKS);
const bad = Buffer.from(JSON.stringify((JSON.parse(good.toString()) as Record<string, unknown>[]).map(({ persona: _dropped, ...rest }) => rest)));
let server: Server;
let base = "";
const work = mkdtempSync(join(tmpdir(), "entropic-interactive-split-"));

beforeAll(async () => {
  server = createServer((req, res) => {
    const body = req.url === "/org.db" ? orgBytes : req.url === "/bad.json" ? bad : good;
    res.writeHead(200, { "content-length": body.length }).end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  base = `http://127.0.0.1:${(server.address() as { port: number }).port}`;
});
afterAll(() => {
  server.close();
  rmSync(work, { recursive: true, force: true });
});

const env = (tasks: string) => ({ ENTROPIC_INTERACTIVE_TASKS_URL: `${base}/${tasks}`, ENTROPIC_ORG_URL: `${base}/org.db`, ENTROPIC_ORG_SHA1: sha1 });
const quiet = () => undefined;

describe("the interactive split", () => {
  it("is a dataset of its own, on the benchmark's org, pinned at the benchmark's revision", () => {
    expect(datasetNamed("crmarena-pro-b2b-interactive")).toEqual(CRMARENA_PRO_B2B_INTERACTIVE);
    expect(CRMARENA_PRO_B2B_INTERACTIVE.orgPath).toBe(CRMARENA_PRO_B2B.orgPath);
    expect(CRMARENA_PRO_B2B_INTERACTIVE.fetch.tasks.url).toMatch(/\/resolve\/[0-9a-f]{40}\/tasks_b2b_interactive\.json$/);
    expect(CRMARENA_PRO_B2B_INTERACTIVE.fetch.tasks.url.replace("_interactive", "")).toBe(CRMARENA_PRO_B2B.fetch.tasks.url);
  });

  it("is fetched and its records' shape checked", async () => {
    const cacheDir = join(work, "good");
    const { tasksPath, orgPath } = await fetchData({ cacheDir, env: env("tasks.json"), progress: quiet }, CRMARENA_PRO_B2B_INTERACTIVE);
    expect(tasksPath).toBe(join(cacheDir, "tasks_b2b_interactive.json"));
    expect(readFileSync(orgPath)).toEqual(orgBytes);
  });

  it("a split without the fields the user reads is refused, named, and removed", async () => {
    const cacheDir = join(work, "bad");
    await expect(fetchData({ cacheDir, env: env("bad.json"), progress: quiet }, CRMARENA_PRO_B2B_INTERACTIVE)).rejects.toThrow(/persona/);
    expect(existsSync(join(cacheDir, "tasks_b2b_interactive.json"))).toBe(false);
  });
});
