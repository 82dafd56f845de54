import { describe, expect, it } from "vitest";
import { validityOut } from "../../src/cli/validity.js";

const whole = { twins: true, adversary: true, levels: "none,medium,high", seeds: "1,2,3" } as const;

describe("where npm run validity writes", () => {
  it("rewrites the tracked docs/validity.md only for a whole run", () => {
    expect(validityOut(whole)).toBe("docs/validity.md");
    expect(validityOut({ adversaryOnly: true, levels: "none", seeds: "1" })).toBe("docs/validity.md");
  });

  it("sends a partial run to the output folder, so no section of the tracked file is lost", () => {
    for (const partial of [
      { ...whole, twins: false },
      { ...whole, adversary: false },
      { ...whole, purples: "solver" },
      { ...whole, levels: "none" },
      { ...whole, seeds: "1" },
      { adversaryOnly: true, adversaryFamilies: "sandbag", levels: "none", seeds: "1" },
    ]) {
      expect(validityOut(partial)).toMatch(/validity\.md$/);
      expect(validityOut(partial)).not.toBe("docs/validity.md");
    }
  });

  it("writes where --out says", () => {
    expect(validityOut({ ...whole, twins: false, out: "docs/validity.md" })).toBe("docs/validity.md");
  });
});
