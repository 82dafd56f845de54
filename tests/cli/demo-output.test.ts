import { describe, expect, it } from "vitest";
import { demoResultsFile } from "../../src/cli/index.js";

describe("where a demo writes its results", () => {
  it("keeps the sample's file names and gives every other dataset and mode its own", () => {
    expect(demoResultsFile(undefined, false)).toBe("demo-results.json");
    expect(demoResultsFile("sample", false)).toBe("demo-results.json");
    expect(demoResultsFile(undefined, true)).toBe("demo-interactive-results.json");
    expect(demoResultsFile("twins", false)).toBe("demo-twins-results.json");
    expect(demoResultsFile("twins", true)).toBe("demo-twins-interactive-results.json");
  });
});
