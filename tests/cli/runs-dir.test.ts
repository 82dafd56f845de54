import { spawnSync } from "node:child_process";
import { mkdtempSync, rmSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { fileURLToPath } from "node:url";
import { afterAll, describe, expect, it } from "vitest";
import { checkRunsDir } from "../../src/cli/runs-dir.js";

const dir = mkdtempSync(join(tmpdir(), "runs-dir-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));

/** Whether this machine lets a user mount a tmpfs in a namespace of its own (`unshare -rm`). */
const mountAllowed = spawnSync("unshare", ["-rm", "sh", "-c", 'mount -t tmpfs -o ro,size=64k tmpfs "$0"', dir]).status === 0;

describe("the runs folder, checked at start-up", () => {
  it("is made when missing, and a writable one is taken as it is", () => {
    const fresh = join(dir, "a", "b");
    expect(checkRunsDir(fresh)).toBe(fresh);
    expect(checkRunsDir(fresh)).toBe(fresh);
  });

  it("refuses a file, or a path under a file, naming the path and the fix", () => {
    const file = join(dir, "a-file");
    writeFileSync(file, "");
    expect(() => checkRunsDir(file)).toThrow(`the runs folder ${file} cannot hold journals: it is not a folder; make it a writable folder, or pass --runs-dir`);
    expect(() => checkRunsDir(join(file, "under"))).toThrow(/cannot hold journals: .*ENOTDIR.*pass --runs-dir/);
  });

  it.runIf(mountAllowed)("refuses a read-only mount in one line, before serving", () => {
    const point = mkdtempSync(join(tmpdir(), "runs-ro-"));
    const cli = fileURLToPath(new URL("../../src/cli/runs-dir.ts", import.meta.url));
    const script = `import(${JSON.stringify(cli)}).then(({ checkRunsDir }) => checkRunsDir(process.argv[1])).catch((error) => { console.error(error.message); process.exit(3); })`;
    const run = spawnSync("unshare", ["-rm", "sh", "-c", 'mount -t tmpfs -o ro,size=64k tmpfs "$0" && exec node --import tsx -e "$1" "$0"', point, script], { encoding: "utf8" });
    expect(run.status).toBe(3);
    expect(run.stderr.trim()).toBe(
      `the runs folder ${point} cannot hold journals: it is on a read-only file system; make it a writable folder, or pass --runs-dir (ENTROPIC_RUNS_DIR) another one`,
    );
  });
});
