import { spawn } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { describe, expect, it } from "vitest";
import { freePort } from "../support/helpers.js";

/**
 * Every command in README.md and docs/ runs as written: each ```bash block of a document runs in
 * one bash (`set -euo pipefail`), the blocks of a document in order (later ones use what earlier
 * ones wrote), with two changes that keep the test from touching the developer's files and ports:
 * `output/` is a fresh folder, and the ports 9009 and 9019 are free ones (new for each block). A block that needs what a
 * test machine must not do (a Docker engine, the internet, a model provider's key, the test suite
 * itself) is skipped whole, and the test says which and why.
 */
const ROOT = fileURLToPath(new URL("../..", import.meta.url));
const DOCUMENTS = [
  "README.md",
  "docs/guide.md",
  "docs/reference.md",
  "CHANGELOG.md",
  "docs/entropy.md",
  "docs/protocol.md",
  "docs/report.md",
  "docs/llm-purple.md",
  "docs/scoring.md",
  "docs/architecture.md",
  "docs/extending.md",
  "docs/design.md",
  "docs/performance.md",
  "docs/validity.md",
];

/** Lines that make their block unrunnable here, and why. */
const UNRUNNABLE: [RegExp, string][] = [
  [/^npm ci\b/, "installs everything from scratch: what CI does before the tests"],
  [/^npm test\b|^npx vitest\b|^npm run typecheck\b/, "the test suite runs this test"],
  [/^npm run (bench|validity)\b|\bcalibrate\b/, "minutes of work, run by hand (validity's rules are checked by tests/e2e/validity.test.ts)"],
  [/^docker\b/, "needs a Docker engine"],
  [/\bdata fetch\b/, "downloads from the internet"],
  [/PURPLE_LLM_API_KEY|OPENAI_API_KEY|--strategy llm/, "needs a model provider (tests/e2e/llm-purple.test.ts plays one on loopback)"],
  [/^npm start\b/, "serves until stopped"],
];

interface Block {
  readonly document: string;
  readonly line: number;
  readonly commands: string[];
}

function blocks(document: string): Block[] {
  const lines = readFileSync(join(ROOT, document), "utf8").split("\n");
  const found: Block[] = [];
  let current: Block | undefined;
  lines.forEach((line, i) => {
    if (line.trim() === "```bash") current = { document, line: i + 1, commands: [] };
    else if (current && line.trim() === "```") {
      found.push(current);
      current = undefined;
    } else if (current) {
      const previous = current.commands[current.commands.length - 1];
      if (previous?.endsWith("\\")) current.commands[current.commands.length - 1] = `${previous.slice(0, -1)} ${line.trim()}`;
      else if (line.trim()) current.commands.push(line.trim());
    }
  });
  return found;
}

/** Runs a block in bash; background jobs are stopped at its end. */
function runBlock(script: string, env: NodeJS.ProcessEnv): Promise<{ code: number | null; output: string }> {
  return new Promise((resolve) => {
    const child = spawn("bash", ["-c", `set -euo pipefail\ntrap 'kill $(jobs -p) 2>/dev/null || true' EXIT\n${script}`], { cwd: ROOT, env, detached: true });
    let output = "";
    child.stdout.on("data", (chunk: Buffer) => (output = `${output}${chunk.toString()}`.slice(-20_000)));
    child.stderr.on("data", (chunk: Buffer) => (output = `${output}${chunk.toString()}`.slice(-20_000)));
    const timer = setTimeout(() => process.kill(-child.pid!, "SIGKILL"), 150_000);
    child.on("exit", (code) => {
      clearTimeout(timer);
      // Whatever the block left running in its group goes too.
      try {
        process.kill(-child.pid!, "SIGKILL");
      } catch {
        // already gone
      }
      resolve({ code, output });
    });
  });
}

describe("the documented commands run as written", () => {
  for (const document of DOCUMENTS) {
    it(document, async () => {
      const output = mkdtempSync(join(tmpdir(), "docs-output-"));
      const env = { ...process.env, ENTROPIC_OUTPUT_DIR: output, LOG_LEVEL: "warn" };
      const skipped: string[] = [];
      let ran = 0;
      for (const block of blocks(document)) {
        const reason = block.commands.map((command) => UNRUNNABLE.find(([pattern]) => pattern.test(command))?.[1]).find(Boolean);
        if (reason) {
          skipped.push(`${document}:${block.line} (${reason})`);
          continue;
        }
        // Fresh ports for every block: servers a block started may still be letting go of theirs.
        const [green, purple] = [await freePort(), await freePort()];
        const script = block.commands.map((command) => command.replaceAll("output/", `${output}/`).replaceAll("9009", String(green)).replaceAll("9019", String(purple))).join("\n");
        const { code, output: printed } = await runBlock(script, env);
        expect(code, `${document}:${block.line} failed:\n${script}\n--- output ---\n${printed}`).toBe(0);
        ran++;
      }
      if (skipped.length > 0) console.info(`not run here: ${skipped.join("; ")}`);
      expect(ran + skipped.length).toBe(blocks(document).length);
    }, 300_000);
  }
});
