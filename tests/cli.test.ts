import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it, vi } from "vitest";
import { buildProgram } from "../src/cli/index.js";
import { describeError } from "../src/purple/index.js";

const run = promisify(execFile);
/** tsx's command line on the Node.js that runs the tests (no npx in between: one process less per call). */
const TSX = fileURLToPath(import.meta.resolve("tsx/cli"));
const cli = (args: string[]) => run(process.execPath, [TSX, "src/cli.ts", ...args], { cwd: new URL("..", import.meta.url).pathname, env: { ...process.env, LOG_LEVEL: "warn" } });
/** A guard against a hung command, not a time the commands must meet (each takes seconds). */
const HANG = 300_000;

/**
 * A command run in the test's process, as src/cli.ts runs it (the program, and its error written
 * as `entropic-crmarena: <error>` with exit code 1), its output captured: the commands whose
 * subject is what they print. Starting the command line as a process (tsx compiling it) is a few
 * seconds of CPU each time, which the tests of `demo` and of a refused flag below still spend.
 */
async function inProcess(args: string[]): Promise<{ stdout: string; stderr: string; code: number }> {
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
    await buildProgram().parseAsync(args, { from: "user" });
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

describe("the command line", () => {
  it(
    "demo runs offline and the solver passes every sample task",
    async () => {
      const { stdout } = await cli(["demo"]);
      expect(stdout).toMatch(/44\/44 tasks passed \(100\.0%\)/);
    },
    HANG,
  );

  it(
    "org query and org describe answer from the sample org",
    async () => {
      const query = async (args: string[]) => {
        const { stdout, code } = await inProcess(["org", "query", ...args]);
        expect(code).toBe(0);
        return stdout;
      };
      expect(JSON.parse(await query(["SELECT COUNT(*) AS n FROM Issue__c", "--sql", "--json"]))).toMatchObject({ ok: true, records: [{ n: 15 }] });
      expect(JSON.parse(await query(["SELECT COUNT() FROM Issue__c", "--json"]))).toMatchObject({ ok: true, records: [], totalSize: 15 });
      expect(JSON.parse(await query(["FIND {Login} IN NAME FIELDS RETURNING Issue__c(Name)"]))).toEqual([{ Name: "Login Problems" }]);
      const described = await inProcess(["org", "describe", "--json"]);
      expect(JSON.parse(described.stdout).objects).toHaveLength(27);
      expect(await inProcess(["org", "query", "DELETE FROM Account", "--sql"])).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/READ_ONLY: only SELECT or WITH queries are allowed/),
      });
      expect(await inProcess(["org", "query", "SELECT Statuz FROM Case"])).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/INVALID_FIELD: No such column 'Statuz' on entity 'Case'/),
      });
    },
    HANG,
  );

  it(
    "org synth writes an org and tasks that the loader accepts",
    async () => {
      const out = mkdtempSync(join(tmpdir(), "synth-"));
      const { stdout, code } = await inProcess(["org", "synth", "--seed", "3", "--scale", "0.1", "--out", out]);
      expect(code).toBe(0);
      expect(stdout).toMatch(/Wrote 27 objects \(\d+ rows\)/);
      expect(JSON.parse(readFileSync(join(out, "tasks.json"), "utf8"))).toHaveLength(44);
    },
    HANG,
  );

  it(
    "assess rejects a bad flag value with a clear message",
    async () => {
      await expect(cli(["assess", "--agent", "http://127.0.0.1:1/", "--drift-level", "extreme"])).rejects.toMatchObject({
        stderr: expect.stringMatching(/config\.drift_level: drift_level must be one of none\|low\|medium\|high \(got "extreme"\)/),
      });
    },
    HANG,
  );
});
