import { execFileSync } from "node:child_process";
import { mkdirSync, mkdtempSync, readFileSync, rmSync, symlinkSync, writeFileSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { afterAll, afterEach, beforeEach, describe, expect, it } from "vitest";
import { resolveIdSecret } from "../../src/data/index.js";

const dir = mkdtempSync(join(tmpdir(), "id-secret-"));
afterAll(() => rmSync(dir, { recursive: true, force: true }));
const saved = { file: process.env.ENTROPIC_ID_SECRET_FILE, secret: process.env.ENTROPIC_ID_SECRET };
beforeEach(() => {
  delete process.env.ENTROPIC_ID_SECRET;
});
afterEach(() => {
  for (const [name, value] of [
    ["ENTROPIC_ID_SECRET_FILE", saved.file],
    ["ENTROPIC_ID_SECRET", saved.secret],
  ] as const)
    if (value === undefined) delete process.env[name];
    else process.env[name] = value;
});
const at = (name: string) => {
  const path = join(dir, name);
  process.env.ENTROPIC_ID_SECRET_FILE = path;
  return path;
};

describe("the installation's Id remap secret", () => {
  it("is made once and read back", () => {
    const path = at("made");
    const secret = resolveIdSecret();
    expect(secret).toMatch(/^[0-9a-f]{64}$/);
    expect(readFileSync(path, "utf8").trim()).toBe(secret);
    expect(resolveIdSecret()).toBe(secret);
  });

  it("refuses what is not a file at its path with the path and the fix, never hangs or recurses", () => {
    const dangling = at("dangling");
    symlinkSync(join(dir, "nowhere"), dangling);
    expect(() => resolveIdSecret()).toThrow(new RegExp(`${dangling} is a symbolic link to nothing .*delete it`));
    const folder = at("folder");
    mkdirSync(folder);
    expect(() => resolveIdSecret()).toThrow(new RegExp(`${folder} is a directory, not a file: delete it`));
    const fifo = at("fifo");
    execFileSync("mkfifo", [fifo]);
    expect(() => resolveIdSecret()).toThrow(new RegExp(`${fifo} is a named pipe \\(FIFO\\), not a file`));
    const short = at("short");
    writeFileSync(short, "abc\n");
    expect(() => resolveIdSecret()).toThrow(/holds no usable Id remap secret/);
  });

  it("takes ENTROPIC_ID_SECRET before any file", () => {
    at("folder-again");
    process.env.ENTROPIC_ID_SECRET = "the operator's own secret";
    expect(resolveIdSecret()).toBe("the operator's own secret");
  });
});
