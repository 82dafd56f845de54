import { execFile } from "node:child_process";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { vi } from "vitest";
import { buildProgram } from "../../src/cli/index.js";
import { describeError } from "../../src/purple/index.js";

const ROOT = fileURLToPath(new URL("../..", import.meta.url));
/** tsx's command line on the Node.js that runs the tests (no npx in between: one process less per call). */
const TSX = fileURLToPath(import.meta.resolve("tsx/cli"));

/**
 * `entropic-crmarena ARGS` as a process, from the project's folder: what a user runs. Each call
 * costs a Node.js start and tsx loading the sources (a second or two of CPU), so a test file
 * starts the command line this way where the process is the subject (its exit code, its output
 * as a user sees it) and runs its other commands in process (`cliInProcess`).
 */
export function cliProcess(args: string[], env: NodeJS.ProcessEnv = {}): Promise<{ stdout: string; stderr: string }> {
  return promisify(execFile)(process.execPath, [TSX, "src/cli.ts", ...args], { cwd: ROOT, env: { ...process.env, LOG_LEVEL: "warn", ...env } });
}

/**
 * `entropic-crmarena ARGS` in the test's process, as src/cli.ts runs it (the program; an error
 * written as `entropic-crmarena: <error>` with exit code 1), its output captured.
 */
export async function cliInProcess(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
  const out: string[] = [];
  const err: string[] = [];
  const capture = (into: string[]) => (chunk: unknown) => {
    into.push(typeof chunk === "string" ? chunk : Buffer.from(chunk as Uint8Array).toString("utf8"));
    return true;
  };
  const stdout = vi.spyOn(process.stdout, "write").mockImplementation(capture(out) as never);
  const stderr = vi.spyOn(process.stderr, "write").mockImplementation(capture(err) as never);
  const exitCode = process.exitCode;
  process.exitCode = undefined;
  let code = 0;
  try {
    await (await buildProgram(args)).parseAsync(args, { from: "user" });
    code = Number(process.exitCode ?? 0);
  } catch (error) {
    err.push(`entropic-crmarena: ${describeError(error)}\n`);
    code = 1;
  } finally {
    stdout.mockRestore();
    stderr.mockRestore();
    process.exitCode = exitCode;
  }
  return { stdout: out.join(""), stderr: err.join(""), code };
}
