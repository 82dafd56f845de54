import { createHash } from "node:crypto";
import { closeSync, createReadStream, existsSync, openSync, writeSync } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import { type ClientRequest, request as httpRequest, type IncomingMessage, type OutgoingHttpHeaders } from "node:http";
import { request as httpsRequest } from "node:https";
import { join } from "node:path";
import { pipeline } from "node:stream/promises";
import { setTimeout as sleep } from "node:timers/promises";
import { CRMARENA_PRO_B2B, type DatasetSpec } from "../datasets/index.js";
import { loadTaskFile } from "../tasks/index.js";
import { EntropicError, type ErrorDetails, environment } from "../util/index.js";
import { CACHE_DIR } from "./paths.js";

/** The benchmark's pinned upstream sources (its dataset spec's); each URL can be overridden from the environment (tests, mirrors). */
export const SOURCES = CRMARENA_PRO_B2B.fetch;

export class FetchError extends EntropicError {
  override readonly name = "FetchError";
  constructor(message: string, details?: ErrorDetails) {
    super("data", message, details);
  }
}

/** How a download rides out a connection that breaks, a server that is briefly unavailable or one that stalls. */
export interface RetryPolicy {
  /** Attempts in a row that may end without a byte more before the download gives up (an attempt that brought bytes starts the count again). */
  readonly attempts: number;
  /** The wait before a retry; it doubles after each attempt that brought nothing, up to maxDelayMs. */
  readonly delayMs: number;
  readonly maxDelayMs: number;
  /** A connection that delivers nothing for this long is dropped and retried. */
  readonly idleTimeoutMs: number;
}

export const DEFAULT_RETRY: RetryPolicy = { attempts: 6, delayMs: 1_000, maxDelayMs: 30_000, idleTimeoutMs: 60_000 };

export interface FetchOptions {
  readonly force?: boolean;
  readonly cacheDir?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Where progress goes; stderr by default. */
  readonly progress?: (text: string) => void;
  readonly retry?: Partial<RetryPolicy>;
}

/** `git hash-object` of a file: SHA-1 over "blob <size>\0" and the bytes. */
export async function gitBlobSha1(path: string): Promise<string> {
  const { size } = await stat(path);
  const hash = createHash("sha1").update(`blob ${size}\0`);
  await pipeline(createReadStream(path), hash);
  return hash.digest("hex");
}

/** A failure worth another attempt: the connection broke, stalled, or the server said "later". */
class Interrupted extends Error {
  /** The validator the response carried, kept for the next attempt's If-Range. */
  validator?: string | undefined;
}

/** Errors before any response that mean the host cannot be reached at all: retrying would only make an offline machine wait. */
const UNREACHABLE = new Set(["ECONNREFUSED", "ENOTFOUND", "EAI_AGAIN", "ENETUNREACH", "EHOSTUNREACH"]);
const REDIRECTS = new Set([301, 302, 303, 307, 308]);
const MAX_REDIRECTS = 10;

const sizeOf = async (path: string) => (existsSync(path) ? (await stat(path)).size : 0);
const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);

/**
 * Downloads `url` to `target` through `target.part`, which it resumes with an HTTP Range request
 * when the server allows it: left by an earlier run, or within this one when the connection
 * closes mid-body, stalls or the server answers 408/429/5xx (then it retries with a doubling
 * wait). The body is read with node:http rather than fetch: the undici inside Node.js crashes the
 * process with an uncatchable `assert(!this.paused)` (client-h1.js, undici issue 5360) when the
 * server closes the connection while the body is paused for back-pressure, as a slow file write
 * makes it (seen with Node.js 20 one run in four; on 22.23 and 24.21 every time a body is left
 * unread for a moment before the server's FIN).
 */
export async function download(url: string, target: string, progress: (text: string) => void, retry: RetryPolicy = DEFAULT_RETRY): Promise<void> {
  const partial = `${target}.part`;
  let best = await sizeOf(partial);
  let stalled = 0;
  let delay = retry.delayMs;
  let validator: string | undefined;
  for (;;) {
    try {
      validator = await attempt(url, partial, validator, progress, retry.idleTimeoutMs);
      await rename(partial, target);
      return;
    } catch (error) {
      if (!(error instanceof Interrupted)) throw error;
      validator = error.validator ?? validator;
      const have = await sizeOf(partial);
      if (have > best) {
        // Progress: the count and the wait start again, so a long download on a flaky line gets there.
        best = have;
        stalled = 0;
        delay = retry.delayMs;
      } else stalled++;
      if (stalled >= retry.attempts) {
        throw new FetchError(
          `download of ${url} failed ${stalled} times in a row without progress (last: ${error.message}); ${have > 0 ? `the ${have} bytes received are kept in ${partial}: ` : ""}run the command again to resume`,
        );
      }
      progress(`\n  ${error.message}; retrying in ${delay < 1000 ? `${delay} ms` : `${Math.round(delay / 1000)} s`}, from ${mb(have)} MB\n`);
      await sleep(delay);
      delay = Math.min(delay * 2, retry.maxDelayMs);
    }
  }
}

/** One GET, following redirects: resolves when the whole body is in `partial`; returns the validator (ETag or Last-Modified) to resume with. */
async function attempt(url: string, partial: string, validator: string | undefined, progress: (text: string) => void, idleTimeoutMs: number): Promise<string | undefined> {
  const have = await sizeOf(partial);
  const headers: OutgoingHttpHeaders = { "accept-encoding": "identity" };
  if (have > 0) {
    headers.range = `bytes=${have}-`;
    // Resumed bytes must be of the same file: a server whose copy changed answers 200 (the whole file) instead of 206.
    if (validator) headers["if-range"] = validator;
  }
  const { response, timedOut } = await get(url, headers, idleTimeoutMs);
  const status = response.statusCode ?? 0;
  const seen = strongValidator(response) ?? validator;
  if (status === 416 && have > 0) {
    response.resume();
    const size = Number(/^bytes \*\/(\d+)$/.exec(response.headers["content-range"] ?? "")?.[1] ?? Number.NaN);
    if (size === have) return seen; // the partial download is already whole
    await rm(partial, { force: true });
    throw new Interrupted(`the server has ${Number.isFinite(size) ? `${size} bytes` : "another size"}, not the ${have} bytes kept: starting again`);
  }
  if (status === 408 || status === 429 || status >= 500) {
    response.resume();
    throw new Interrupted(`HTTP ${status} ${response.statusMessage ?? ""}`.trim());
  }
  if (status !== 200 && status !== 206) {
    response.resume();
    throw new FetchError(`download of ${url} failed: HTTP ${status} ${response.statusMessage ?? ""}`.trim());
  }
  let start = 0;
  let total: number | undefined;
  const length = Number(response.headers["content-length"] ?? Number.NaN);
  if (status === 206) {
    const range = /^bytes (\d+)-(\d+)\/(\d+|\*)$/.exec(response.headers["content-range"] ?? "");
    if (!range || Number(range[1]) !== have) {
      response.destroy();
      await rm(partial, { force: true });
      throw new Interrupted(`the server sent another range (${response.headers["content-range"] ?? "none"}) than the bytes=${have}- asked for: starting again`);
    }
    start = have;
    total = range[3] === "*" ? undefined : Number(range[3]);
  } else if (Number.isFinite(length)) total = length;
  // 200 to a Range request: the server does not do ranges (or its copy changed), so the file starts again.
  let received = start;
  let lastShown = 0;
  const resumed = start > 0;
  const fd = openSync(partial, resumed ? "a" : "w");
  try {
    // Every chunk is written as it arrives, synchronously: what the connection delivered before it
    // broke is on disk, so the next attempt resumes exactly there, and the body is never paused
    // (a paused body whose connection then closes is what crashes undici, see above).
    await new Promise<void>((resolve, reject) => {
      let settled = false;
      const settle = (error?: Error) => {
        if (settled) return;
        settled = true;
        if (error) reject(error);
        else resolve();
      };
      response.on("data", (chunk: Buffer) => {
        try {
          for (let written = 0; written < chunk.byteLength; ) written += writeSync(fd, chunk, written);
        } catch (error) {
          response.destroy();
          settle(new FetchError(`cannot write ${partial}: ${(error as Error).message}`));
          return;
        }
        received += chunk.byteLength;
        if (Date.now() - lastShown > 200) {
          lastShown = Date.now();
          progress(bar(received, total, resumed));
        }
      });
      response.on("end", () => settle());
      const broke = (error?: NodeJS.ErrnoException) =>
        settle(
          new Interrupted(
            timedOut()
              ? `no data from ${new URL(url).host} for ${Math.round(idleTimeoutMs / 1000)} s`
              : `the connection broke after ${mb(received)} MB (${error?.code ?? error?.message ?? "closed"})`,
          ),
        );
      response.on("error", broke);
      response.on("close", () => broke());
    });
  } catch (error) {
    if (error instanceof Interrupted) error.validator = seen;
    throw error;
  } finally {
    closeSync(fd);
  }
  progress(`${bar(received, total, resumed)}\n`);
  if (total !== undefined && received < total) {
    const error = new Interrupted(`the server closed the connection after ${received} of ${total} bytes`);
    error.validator = seen;
    throw error;
  }
  return seen;
}

/** A validator If-Range may carry: a strong ETag (weak ones are not allowed there), else Last-Modified. */
function strongValidator(response: IncomingMessage): string | undefined {
  const etag = response.headers.etag;
  if (etag && !etag.startsWith("W/")) return etag;
  return response.headers["last-modified"];
}

/** GET with redirects followed (Hugging Face answers with one to its storage); errors before a response are classified here. */
async function get(url: string, headers: OutgoingHttpHeaders, idleTimeoutMs: number): Promise<{ response: IncomingMessage; timedOut: () => boolean }> {
  let current = new URL(url);
  let idle = false;
  for (let hops = 0; ; hops++) {
    const response = await new Promise<IncomingMessage>((resolve, reject) => {
      const send = current.protocol === "https:" ? httpsRequest : current.protocol === "http:" ? httpRequest : undefined;
      if (!send) {
        reject(new FetchError(`cannot download ${current.href}: only http and https URLs are supported`));
        return;
      }
      // A connection of its own for every attempt: one that just broke is never reused.
      const request: ClientRequest = send(current, { method: "GET", headers, agent: false }, resolve);
      request.setTimeout(idleTimeoutMs, () => {
        idle = true;
        request.destroy(new Interrupted(`no data from ${current.host} for ${Math.round(idleTimeoutMs / 1000)} s`));
      });
      request.on("error", (error: NodeJS.ErrnoException) => {
        if (error instanceof Interrupted || error instanceof FetchError) reject(error);
        else if (error.code && UNREACHABLE.has(error.code))
          reject(new FetchError(`cannot reach ${current.host} (${error.code}). Are you offline? Without the real data, assessments use the bundled sample.`));
        else reject(new Interrupted(`the connection to ${current.host} broke before a response (${error.code ?? error.message})`));
      });
      request.end();
    });
    const location = response.headers.location;
    if (!REDIRECTS.has(response.statusCode ?? 0) || !location) return { response, timedOut: () => idle };
    response.resume();
    if (hops >= MAX_REDIRECTS) throw new FetchError(`download of ${url} failed: more than ${MAX_REDIRECTS} redirects`);
    current = new URL(location, current);
  }
}

function bar(received: number, total: number | undefined, resumed: boolean): string {
  if (total === undefined) return `\r  ${mb(received)} MB${resumed ? " (resumed)" : ""}`;
  const width = 30;
  const filled = Math.min(width, Math.round((received / total) * width));
  return `\r  [${"#".repeat(filled)}${".".repeat(width - filled)}] ${mb(received)}/${mb(total)} MB${resumed ? " (resumed)" : ""}`;
}

/**
 * Fetches a dataset's tasks and org database (the real CRMArena-Pro B2B ones by default) into the
 * cache folder, verifies them (the database against its pinned git blob SHA-1, the tasks by
 * loading them), and leaves nothing half-written under the final names.
 */
export async function fetchData(options: FetchOptions = {}, dataset: DatasetSpec = CRMARENA_PRO_B2B): Promise<{ tasksPath: string; orgPath: string }> {
  const sources = dataset.fetch;
  if (!sources) throw new FetchError(`dataset ${dataset.name} is not downloaded: ${dataset.whenMissing}`);
  const env = options.env ?? environment();
  const dir = options.cacheDir ?? env.ENTROPIC_CACHE_DIR ?? CACHE_DIR;
  const progress = options.progress ?? ((text: string) => process.stderr.write(text));
  const retry: RetryPolicy = { ...DEFAULT_RETRY, ...options.retry };
  await mkdir(dir, { recursive: true });
  const tasksPath = join(dir, sources.tasks.file);
  const orgPath = join(dir, sources.org.file);

  if (options.force || !existsSync(tasksPath)) {
    progress(`Downloading ${sources.title} tasks (licence ${sources.licence}) to ${tasksPath}\n`);
    await download(env[sources.tasks.urlEnv] ?? sources.tasks.url, tasksPath, progress, retry);
    try {
      const tasks = loadTaskFile(tasksPath);
      progress(`  ${tasks.tasks.length} tasks in ${tasks.categories.length} categories\n`);
    } catch (error) {
      await rm(tasksPath, { force: true });
      throw new FetchError(`the downloaded task file is not usable and was removed: ${(error as Error).message}`);
    }
  }
  if (options.force || !existsSync(orgPath)) {
    progress(`Downloading the ${sources.title} org database (licence ${sources.licence}) to ${orgPath}\n`);
    await download(env[sources.org.urlEnv] ?? sources.org.url, orgPath, progress, retry);
    const expected = env[sources.org.sha1Env] ?? sources.org.gitBlobSha1;
    const actual = await gitBlobSha1(orgPath);
    if (actual !== expected) {
      await rm(orgPath, { force: true });
      throw new FetchError(`checksum mismatch for ${sources.org.file}: expected git blob SHA-1 ${expected}, got ${actual}; the file was removed`);
    }
    progress(`  verified git blob SHA-1 ${actual}\n`);
  }
  return { tasksPath, orgPath };
}
