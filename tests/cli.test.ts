import { execFile } from "node:child_process";
import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { promisify } from "node:util";
import { describe, expect, it } from "vitest";

const run = promisify(execFile);
/** tsx's command line on the Node.js that runs the tests (no npx in between: one process less per call). */
const TSX = fileURLToPath(import.meta.resolve("tsx/cli"));
const cli = (args: string[]) => run(process.execPath, [TSX, "src/cli.ts", ...args], { cwd: new URL("..", import.meta.url).pathname, env: { ...process.env, LOG_LEVEL: "warn" } });
/** A guard against a hung command, not a time the commands must meet (each takes seconds). */
const HANG = 300_000;

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
      const { stdout } = await cli(["org", "query", "SELECT COUNT(*) AS n FROM Issue__c", "--sql", "--json"]);
      expect(JSON.parse(stdout)).toMatchObject({ ok: true, records: [{ n: 15 }] });
      expect(JSON.parse((await cli(["org", "query", "SELECT COUNT() FROM Issue__c", "--json"])).stdout)).toMatchObject({ ok: true, records: [], totalSize: 15 });
      expect(JSON.parse((await cli(["org", "query", "FIND {Login} IN NAME FIELDS RETURNING Issue__c(Name)"])).stdout)).toEqual([{ Name: "Login Problems" }]);
      const described = JSON.parse((await cli(["org", "describe", "--json"])).stdout);
      expect(described.objects).toHaveLength(27);
      await expect(cli(["org", "query", "DELETE FROM Account", "--sql"])).rejects.toMatchObject({
        stderr: expect.stringMatching(/READ_ONLY: only SELECT or WITH queries are allowed/),
      });
      await expect(cli(["org", "query", "SELECT Statuz FROM Case"])).rejects.toMatchObject({
        stderr: expect.stringMatching(/INVALID_FIELD: No such column 'Statuz' on entity 'Case'/),
      });
    },
    HANG,
  );

  it(
    "org synth writes an org and tasks that the loader accepts",
    async () => {
      const out = mkdtempSync(join(tmpdir(), "synth-"));
      const { stdout } = await cli(["org", "synth", "--seed", "3", "--scale", "0.1", "--out", out]);
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
