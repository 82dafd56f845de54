import { createHash } from "node:crypto";
import { existsSync, mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type IncomingMessage, type Server, type ServerResponse } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, beforeAll, beforeEach, describe, expect, it } from "vitest";
import { fetchData, gitBlobSha1, type RetryPolicy } from "../../src/data/fetch.js";
import { SAMPLE_TASKS } from "../support/helpers.js";

const orgBytes = Buffer.from(Array.from({ length: 300_000 }, (_, i) => (i * 31) % 251));
const tasksBytes = readFileSync(SAMPLE_TASKS);
const expectedSha1 = createHash("sha1").update(`blob ${orgBytes.length}\0`).update(orgBytes).digest("hex");

/**
 * How the loopback server treats the org database, per test:
 * - `cuts`: the next responses each send `cutAfter` bytes of what was asked, then close the
 *   connection: with a FIN (`close: "fin"`, a server ending early; every byte sent arrives), with a
 *   reset (`"reset"`; bytes still in flight may be lost), or alternately (`"both"`);
 * - `ranges`: whether it honours Range (otherwise every answer is the whole file, 200);
 * - `unavailable`: the next requests get 503; `thenUnavailable`: the last cut makes the server unavailable;
 * - `redirect`: answer /org.db with a redirect to /storage/org.db (Hugging Face does so).
 */
interface Behaviour {
  cuts: number;
  cutAfter: number;
  close: "fin" | "reset" | "both";
  ranges: boolean;
  unavailable: number;
  thenUnavailable: boolean;
  redirect: boolean;
}
let behaviour: Behaviour;
const requests: { url: string; range: string | undefined; ifRange: string | undefined }[] = [];
let server: Server;
let base = "";
const ETAG = '"org-v1"';

function serveOrg(req: IncomingMessage, res: ServerResponse): void {
  if (behaviour.unavailable > 0) {
    behaviour.unavailable--;
    res.writeHead(503, { "content-length": 0 }).end();
    return;
  }
  const asked = /^bytes=(\d+)-$/.exec(req.headers.range ?? "");
  const start = asked && behaviour.ranges && (!req.headers["if-range"] || req.headers["if-range"] === ETAG) ? Number(asked[1]) : 0;
  if (start >= orgBytes.length && start > 0) {
    res.writeHead(416, { "content-range": `bytes */${orgBytes.length}` }).end();
    return;
  }
  const body = orgBytes.subarray(start);
  res.writeHead(start > 0 ? 206 : 200, {
    etag: ETAG,
    "accept-ranges": behaviour.ranges ? "bytes" : "none",
    "content-length": body.length,
    ...(start > 0 ? { "content-range": `bytes ${start}-${orgBytes.length - 1}/${orgBytes.length}` } : {}),
  });
  if (behaviour.cuts > 0) {
    const fin = behaviour.close === "fin" || (behaviour.close === "both" && behaviour.cuts % 2 === 0);
    behaviour.cuts--;
    if (behaviour.cuts === 0 && behaviour.thenUnavailable) behaviour.unavailable = Number.POSITIVE_INFINITY;
    res.write(body.subarray(0, behaviour.cutAfter), () => {
      if (fin) res.socket?.end();
      else res.socket?.resetAndDestroy();
    });
    return;
  }
  res.end(body);
}

beforeAll(async () => {
  server = createServer((req, res) => {
    requests.push({ url: req.url ?? "", range: req.headers.range, ifRange: req.headers["if-range"] as string | undefined });
    if (req.url === "/tasks.json") res.writeHead(200, { "content-length": tasksBytes.length }).end(tasksBytes);
    else if (req.url === "/org.db" && behaviour.redirect) res.writeHead(302, { location: "/storage/org.db" }).end();
    else if (req.url === "/org.db" || req.url === "/storage/org.db") serveOrg(req, res);
    else res.writeHead(404).end();
  });
  await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
  const address = server.address();
  base = `http://127.0.0.1:${typeof address === "object" && address ? address.port : 0}`;
});

afterAll(() => server.close());

beforeEach(() => {
  behaviour = { cuts: 0, cutAfter: 50_000, close: "fin", ranges: true, unavailable: 0, thenUnavailable: false, redirect: false };
  requests.length = 0;
});

const env = (overrides: Record<string, string> = {}) => ({
  ENTROPIC_TASKS_URL: `${base}/tasks.json`,
  ENTROPIC_ORG_URL: `${base}/org.db`,
  ENTROPIC_ORG_SHA1: expectedSha1,
  ...overrides,
});
/** Short waits, so that retries take milliseconds here. */
const retry: Partial<RetryPolicy> = { attempts: 3, delayMs: 5, maxDelayMs: 20 };
const quiet = () => undefined;
const orgRequests = () => requests.filter((request) => request.url !== "/tasks.json");

describe("data fetch", () => {
  it("downloads and verifies both files", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "fetch-"));
    const { tasksPath, orgPath } = await fetchData({ cacheDir, env: env(), progress: quiet, retry });
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
    await expect(fetchData({ cacheDir, env: env({ ENTROPIC_ORG_SHA1: "0".repeat(40) }), progress: quiet, retry })).rejects.toThrow(
      new RegExp(`checksum mismatch for crmarenapro_b2b_data.db: expected git blob SHA-1 0{40}, got ${expectedSha1}; the file was removed`),
    );
    expect(existsSync(join(cacheDir, "crmarenapro_b2b_data.db"))).toBe(false);
  });

  it("survives the connection closing mid-body several times: resumes each time with a Range request and ends with the right checksum", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "fetch-"));
    behaviour.cuts = 4;
    const printed: string[] = [];
    const { orgPath } = await fetchData({ cacheDir, env: env(), progress: (text) => printed.push(text), retry });
    expect(await gitBlobSha1(orgPath)).toBe(expectedSha1);
    expect(readFileSync(orgPath)).toEqual(orgBytes);
    // Each attempt asked for what was still missing, with the validator of the first answer.
    expect(orgRequests().map((request) => request.range)).toEqual([undefined, "bytes=50000-", "bytes=100000-", "bytes=150000-", "bytes=200000-"]);
    expect(
      orgRequests()
        .slice(1)
        .map((request) => request.ifRange),
    ).toEqual([ETAG, ETAG, ETAG, ETAG]);
    expect(printed.join("")).toMatch(/the connection broke after 0\.0 MB \(ECONNRESET\); retrying in 5 ms, from 0\.0 MB/);
    expect(existsSync(`${orgPath}.part`)).toBe(false);
  });

  it("survives resets and FINs mixed, each resumed from what had arrived", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "fetch-"));
    behaviour.cuts = 6;
    behaviour.cutAfter = 40_000;
    behaviour.close = "both";
    const printed: string[] = [];
    const { orgPath } = await fetchData({ cacheDir, env: env(), progress: (text) => printed.push(text), retry: { ...retry, attempts: 7 } });
    expect(await gitBlobSha1(orgPath)).toBe(expectedSha1);
    // A reset may lose what was in flight, so the offsets are not fixed; they never go back.
    const offsets = orgRequests().map((request) => Number(/^bytes=(\d+)-$/.exec(request.range ?? "bytes=0-")![1]));
    expect(offsets).toHaveLength(7);
    expect(offsets).toEqual([...offsets].sort((a, b) => a - b));
    expect(printed.join("")).toMatch(/the connection broke after \d+\.\d MB \(ECONNRESET\)/);
  });

  it("starts again from zero with a server that ignores Range, and still gets the whole file", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "fetch-"));
    behaviour.ranges = false;
    behaviour.cuts = 1;
    const { orgPath } = await fetchData({ cacheDir, env: env(), progress: quiet, retry });
    expect(readFileSync(orgPath)).toEqual(orgBytes);
    expect(orgRequests().map((request) => request.range)).toEqual([undefined, "bytes=50000-"]);
  });

  it("follows a redirect and keeps the Range on it", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "fetch-"));
    behaviour.redirect = true;
    behaviour.cuts = 1;
    const { orgPath } = await fetchData({ cacheDir, env: env(), progress: quiet, retry });
    expect(await gitBlobSha1(orgPath)).toBe(expectedSha1);
    expect(orgRequests().map((request) => `${request.url} ${request.range ?? ""}`.trim())).toEqual([
      "/org.db",
      "/storage/org.db",
      "/org.db bytes=50000-",
      "/storage/org.db bytes=50000-",
    ]);
  });

  it("waits out a server that answers 503 for a while", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "fetch-"));
    behaviour.unavailable = 2;
    const { orgPath } = await fetchData({ cacheDir, env: env(), progress: quiet, retry });
    expect(await gitBlobSha1(orgPath)).toBe(expectedSha1);
    expect(orgRequests()).toHaveLength(3);
  });

  it("gives up after the attempts in a row without progress, keeps the partial file, and the next run resumes it", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "fetch-"));
    // The first answer is cut; every later one is a 503 until the server recovers.
    behaviour.cuts = 1;
    behaviour.cutAfter = 100_000;
    behaviour.thenUnavailable = true;
    const partial = join(cacheDir, "crmarenapro_b2b_data.db.part");
    const first = fetchData({ cacheDir, env: env(), progress: quiet, retry });
    await expect(first).rejects.toThrow(
      /failed 3 times in a row without progress \(last: HTTP 503 Service Unavailable\); the 100000 bytes received are kept in .*crmarenapro_b2b_data\.db\.part: run the command again to resume/,
    );
    expect(readFileSync(partial)).toEqual(orgBytes.subarray(0, 100_000));
    behaviour.unavailable = 0;
    requests.length = 0;
    const { orgPath } = await fetchData({ cacheDir, env: env(), progress: quiet, retry });
    expect(orgRequests().map((request) => request.range)).toEqual(["bytes=100000-"]);
    expect(readFileSync(orgPath)).toEqual(orgBytes);
  });

  it("takes a partial file that is already whole (416) as done", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "fetch-"));
    writeFileSync(join(cacheDir, "tasks_b2b.json"), tasksBytes);
    writeFileSync(join(cacheDir, "crmarenapro_b2b_data.db.part"), orgBytes);
    const { orgPath } = await fetchData({ cacheDir, env: env(), progress: quiet, retry });
    expect(orgRequests().map((request) => request.range)).toEqual([`bytes=${orgBytes.length}-`]);
    expect(await gitBlobSha1(orgPath)).toBe(expectedSha1);
  });

  it("says plainly when the source cannot be reached, without retrying", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "fetch-"));
    const closed = createServer();
    await new Promise<void>((resolve) => closed.listen(0, "127.0.0.1", resolve));
    const port = (closed.address() as { port: number }).port;
    await new Promise((resolve) => closed.close(resolve));
    const printed: string[] = [];
    await expect(fetchData({ cacheDir, env: env({ ENTROPIC_TASKS_URL: `http://127.0.0.1:${port}/tasks.json` }), progress: (text) => printed.push(text), retry })).rejects.toThrow(
      new RegExp(`cannot reach 127\\.0\\.0\\.1:${port} \\(ECONNREFUSED\\)\\. Are you offline\\?`),
    );
    expect(printed.join("")).not.toMatch(/retrying/);
  });

  it("rejects a task file that does not validate", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "fetch-"));
    await expect(fetchData({ cacheDir, env: env({ ENTROPIC_TASKS_URL: `${base}/org.db` }), progress: quiet, retry })).rejects.toThrow(
      /the downloaded task file is not usable and was removed/,
    );
  });

  it("fails at once on a 404, naming the URL", async () => {
    const cacheDir = mkdtempSync(join(tmpdir(), "fetch-"));
    await expect(fetchData({ cacheDir, env: env({ ENTROPIC_TASKS_URL: `${base}/missing.json` }), progress: quiet, retry })).rejects.toThrow(
      new RegExp(`download of ${base}/missing\\.json failed: HTTP 404 Not Found`),
    );
    expect(requests.filter((request) => request.url === "/missing.json")).toHaveLength(1);
  });
});
