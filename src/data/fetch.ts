import { createHash } from "node:crypto";
import { createReadStream, createWriteStream, existsSync } from "node:fs";
import { mkdir, rename, rm, stat } from "node:fs/promises";
import { join } from "node:path";
import { Readable } from "node:stream";
import { pipeline } from "node:stream/promises";
import { loadTaskFile } from "../tasks/index.js";
import { CACHE_DIR } from "./paths.js";

/** Pinned upstream sources; each URL can be overridden from the environment (tests, mirrors). */
export const SOURCES = {
  tasks: {
    file: "tasks_b2b.json",
    url: "https://huggingface.co/datasets/Salesforce/CRMArenaPro/resolve/8c055f5b45f15f7d996ee99277c4d0ea5049c6a8/tasks_b2b.json",
    urlEnv: "ENTROPIC_TASKS_URL",
  },
  org: {
    file: "crmarenapro_b2b_data.db",
    url: "https://raw.githubusercontent.com/SalesforceAIResearch/CRMArena/2288dd6d5a74f41105c153138983a517f29ebb65/local_data/crmarenapro_b2b_data.db",
    urlEnv: "ENTROPIC_ORG_URL",
    /** Git blob SHA-1 of the database at the pinned commit. */
    gitBlobSha1: "6e1978093efd0a7a7c97b65c124d12d098bb917f",
    sha1Env: "ENTROPIC_ORG_SHA1",
  },
} as const;

export class FetchError extends Error {
  override readonly name = "FetchError";
}

export interface FetchOptions {
  readonly force?: boolean;
  readonly cacheDir?: string;
  readonly env?: NodeJS.ProcessEnv;
  /** Where progress goes; stderr by default. */
  readonly progress?: (text: string) => void;
}

/** `git hash-object` of a file: SHA-1 over "blob <size>\0" and the bytes. */
export async function gitBlobSha1(path: string): Promise<string> {
  const { size } = await stat(path);
  const hash = createHash("sha1").update(`blob ${size}\0`);
  await pipeline(createReadStream(path), hash);
  return hash.digest("hex");
}

/**
 * Downloads `url` to `target`, resuming a previous partial download (`target.part`) with an
 * HTTP Range request when the server allows it.
 */
export async function download(url: string, target: string, progress: (text: string) => void): Promise<void> {
  const partial = `${target}.part`;
  const have = existsSync(partial) ? (await stat(partial)).size : 0;
  let response: Response;
  try {
    response = await fetch(url, { headers: have > 0 ? { Range: `bytes=${have}-` } : {} });
  } catch (error) {
    const cause = (error as Error).cause as { code?: string; message?: string } | undefined;
    throw new FetchError(
      `cannot reach ${new URL(url).host} (${cause?.code ?? cause?.message ?? (error as Error).message}). Are you offline? Without the real data, assessments use the bundled sample.`,
    );
  }
  if (response.status === 416 && have > 0) return rename(partial, target);
  if (!response.ok || !response.body) throw new FetchError(`download of ${url} failed: HTTP ${response.status} ${response.statusText}`);
  const resumed = response.status === 206;
  const start = resumed ? have : 0;
  const length = Number(response.headers.get("content-length") ?? "NaN");
  const total = Number.isFinite(length) ? start + length : undefined;
  let received = start;
  let lastShown = 0;
  const counter = new TransformStream<Uint8Array, Uint8Array>({
    transform(chunk, controller) {
      received += chunk.byteLength;
      if (Date.now() - lastShown > 200) {
        lastShown = Date.now();
        progress(bar(received, total, resumed));
      }
      controller.enqueue(chunk);
    },
  });
  try {
    await pipeline(Readable.fromWeb(response.body.pipeThrough(counter) as never), createWriteStream(partial, { flags: resumed ? "a" : "w" }));
  } catch (error) {
    throw new FetchError(`download of ${url} was interrupted after ${received} bytes (${(error as Error).message}); run the command again to resume`);
  }
  progress(`${bar(received, total, resumed)}\n`);
  if (total !== undefined && received < total) throw new FetchError(`download of ${url} stopped at ${received} of ${total} bytes; run the command again to resume`);
  await rename(partial, target);
}

function bar(received: number, total: number | undefined, resumed: boolean): string {
  const mb = (bytes: number) => (bytes / 1_048_576).toFixed(1);
  if (total === undefined) return `\r  ${mb(received)} MB${resumed ? " (resumed)" : ""}`;
  const width = 30;
  const filled = Math.min(width, Math.round((received / total) * width));
  return `\r  [${"#".repeat(filled)}${".".repeat(width - filled)}] ${mb(received)}/${mb(total)} MB${resumed ? " (resumed)" : ""}`;
}

/**
 * Fetches the real CRMArena-Pro B2B tasks and org database into the cache folder, verifies them
 * (the database against its pinned git blob SHA-1, the tasks by loading them), and leaves
 * nothing half-written under the final names.
 */
export async function fetchData(options: FetchOptions = {}): Promise<{ tasksPath: string; orgPath: string }> {
  const env = options.env ?? process.env;
  const dir = options.cacheDir ?? env.ENTROPIC_CACHE_DIR ?? CACHE_DIR;
  const progress = options.progress ?? ((text: string) => process.stderr.write(text));
  await mkdir(dir, { recursive: true });
  const tasksPath = join(dir, SOURCES.tasks.file);
  const orgPath = join(dir, SOURCES.org.file);

  if (options.force || !existsSync(tasksPath)) {
    progress(`Downloading CRMArena-Pro B2B tasks (licence CC BY-NC 4.0) to ${tasksPath}\n`);
    await download(env[SOURCES.tasks.urlEnv] ?? SOURCES.tasks.url, tasksPath, progress);
    try {
      const tasks = loadTaskFile(tasksPath);
      progress(`  ${tasks.tasks.length} tasks in ${tasks.categories.length} categories\n`);
    } catch (error) {
      await rm(tasksPath, { force: true });
      throw new FetchError(`the downloaded task file is not usable and was removed: ${(error as Error).message}`);
    }
  }
  if (options.force || !existsSync(orgPath)) {
    progress(`Downloading the CRMArena-Pro B2B org database (licence CC BY-NC 4.0) to ${orgPath}\n`);
    await download(env[SOURCES.org.urlEnv] ?? SOURCES.org.url, orgPath, progress);
    const expected = env[SOURCES.org.sha1Env] ?? SOURCES.org.gitBlobSha1;
    const actual = await gitBlobSha1(orgPath);
    if (actual !== expected) {
      await rm(orgPath, { force: true });
      throw new FetchError(`checksum mismatch for ${SOURCES.org.file}: expected git blob SHA-1 ${expected}, got ${actual}; the file was removed`);
    }
    progress(`  verified git blob SHA-1 ${actual}\n`);
  }
  return { tasksPath, orgPath };
}
