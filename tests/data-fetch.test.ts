import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
import { fetchData, gitBlobSha1 } from "../src/data/fetch.js";
import { SAMPLE_TASKS } from "./helpers.js";

const orgBytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 31) % 251));
const tasksBytes = readFileSync(SAMPLE_TASKS);
const expectedSha1 = createHash("sha1").update(`blob ${orgBytes.length}\0`).update(orgBytes).digest("hex");
let server: Server;
let base = "";
let mode: "normal" | "cut" = "normal";
const rangeRequests: string[] = [];

beforeAll(async () => {
  server = createServer((req, res) => {
    const body = req.url === "/tasks.json" ? tasksBytes : req.url === "/org.db" ? orgBytes : undefined;
    if (!body) {
      res.writeHead(404).end();
      return;
    }
    const range = /bytes=(\d+)-/.exec(req.headers.range ?? "");
    if (range) {
      rangeRequests.push(req.headers.range!);
      const start = Number(range[1]);
      res.writeHead(206, { "content-length": body.length - start, "content-range": `bytes ${start}-${body.length - 1}/${body.length}` });
      res.end(body.subarray(start));
      return;
    }
    res.writeHead(200, { "content-length": body.length });
    if (mode === "cut" && req.url === "/org.db") {
      // Send part of the file, then drop the connection.
      res.write(body.subarray(0, 100_000), () => setTimeout(() => res.socket?.destroy(), 20));
      return;
    }
    res.end(body);
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});

afterAll(() => server.close());

const env = (overrides: Record<string, string> = {}) => ({
  ENTROPIC_TASKS_URL: `${base}/tasks.json`,
  ENTROPIC_ORG_URL: `${base}/org.db`,
  ENTROPIC_ORG_SHA1: expectedSha1,
  ...overrides,
});
const quiet = () => undefined;

describe("data fetch", () => {
  it("downloads and verifies both files", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "fetch-"));
    const { tasksPath, orgPath } = await fetchData({ cacheDir, env: env(), progress: quiet });
    expect(readFileSync(tasksPath)).toEqual(tasksBytes);
    expect(await gitBlobSha1(orgPath)).toBe(expectedSha1);
    expect(existsSync(`${orgPath}.part`)).toBe(false);
  });

  it("computes git blob SHA-1 like git hash-object", async () => {
    const dir = mkdtempSync(join(tmpdir(), "sha-"));
    writeFileSync(join(dir, "hello"), "hello\n");
    expect(await gitBlobSha1(join(dir, "hello"))).toBe("ce013625030ba8dba906f756967f9e9ca394464a");
  });

  it("removes a download whose checksum does not match", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "fetch-"));
    await expect(fetchData({ cacheDir, env: env({ ENTROPIC_ORG_SHA1: "0".repeat(40) }), progress: quiet })).rejects.toThrow(
      new RegExp(`checksum mismatch for crmarenapro_b2b_data.db: expected git blob SHA-1 0{40}, got ${expectedSha1}; the file was removed`),
    );
    expect(existsSync(join(cacheDir, "crmarenapro_b2b_data.db"))).toBe(false);
  });

  it("resumes an interrupted download with a Range request", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "fetch-"));
    mode = "cut";
    await expect(fetchData({ cacheDir, env: env(), progress: quiet })).rejects.toThrow(/interrupted|stopped at/);
    const partial = join(cacheDir, "crmarenapro_b2b_data.db.part");
    expect(existsSync(partial)).toBe(true);
    const kept = readFileSync(partial).length;
    expect(kept).toBeGreaterThan(0);
    expect(kept).toBeLessThan(orgBytes.length);
    mode = "normal";
    const { orgPath } = await fetchData({ cacheDir, env: env(), progress: quiet });
    expect(rangeRequests).toContain(`bytes=${kept}-`);
    expect(readFileSync(orgPath)).toEqual(orgBytes);
  });

  it("says plainly when the source cannot be reached", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "fetch-"));
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    await expect(fetchData({ cacheDir, env: env({ ENTROPIC_TASKS_URL: `http://127.0.0.1:${port}/tasks.json` }), progress: quiet })).rejects.toThrow(
      new RegExp(`cannot reach 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)\\. Are you offline\\?`),
    );
  });

  it("rejects a task file that does not validate", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "fetch-"));
    await expect(fetchData({ cacheDir, env: env({ ENTROPIC_TASKS_URL: `${base}/org.db` }), progress: quiet })).rejects.toThrow(
      /the downloaded task file is not usable and was removed/,
    );
  });
});
