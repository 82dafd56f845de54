import { describe, expect, it } from "vitest";
import { buildProgram } from "../../src/cli/index.js";

describe("the command line's program", () => {
  it("registers each command when its arguments name it, loading that command's group alone", async () => {
    const every = (await buildProgram()).commands.map((command) => command.name());
    expect(every.length).toBeGreaterThan(10);
    for (const name of every) {
      const named = (await buildProgram([name, "--help"])).commands.map((command) => command.name());
      expect(named, `'${name}' is listed under another group's module`).toContain(name);
      expect(named.length, `'${name}' loaded more than its group`).toBeLessThan(every.length);
    }
    expect((await buildProgram(["serve"])).commands.map((command) => command.name())).toEqual(["serve"]);
  });

  it("registers every command when its arguments name none (help, the version, a mistyped command)", async () => {
    const every = (await buildProgram()).commands.map((command) => command.name());
    for (const args of [[], ["--help"], ["--version"], ["serv"]]) expect((await buildProgram(args)).commands.map((command) => command.name())).toEqual(every);
  });
});
