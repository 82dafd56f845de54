import { mkdtempSync, readFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { describe, expect, it } from "vitest";
import { cliProcess as cli, cliInProcess } from "../support/cli-runner.js";

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
      const query = async (args: string[]) => {
        const { stdout, code } = await cliInProcess(["org", "query", ...args]);
        expect(code).toBe(0);
        return stdout;
      };
      expect(JSON.parse(await query(["SELECT COUNT(*) AS n FROM Issue__c", "--sql", "--json"]))).toMatchObject({ ok: true, records: [{ n: 15 }] });
      expect(JSON.parse(await query(["SELECT COUNT() FROM Issue__c", "--json"]))).toMatchObject({ ok: true, records: [], totalSize: 15 });
      expect(JSON.parse(await query(["FIND {Login} IN NAME FIELDS RETURNING Issue__c(Name)"]))).toEqual([{ Name: "Login Problems" }]);
      const described = await cliInProcess(["org", "describe", "--json"]);
      expect(JSON.parse(described.stdout).objects).toHaveLength(27);
      expect(await cliInProcess(["org", "query", "DELETE FROM Account", "--sql"])).toMatchObject({
        code: 1,
        stderr: expect.stringMatching(/READ_ONLY: only SELECT or WITH queries are allowed/),
      });
      expect(await cliInProcess(["org", "query", "SELECT Statuz FROM Case"])).toMatchObject({
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
      const { stdout, code } = await cliInProcess(["org", "synth", "--seed", "3", "--scale", "0.1", "--out", out]);
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
