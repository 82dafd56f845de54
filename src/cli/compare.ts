import type { Command } from "commander";
import { compareResults, compareText } from "../report/index.js";
import { loadResults } from "./results-input.js";

export function registerCompare(program: Command): void {
  program
    .command("compare")
    .description("compare two runs: per-category and per-dimension deltas (B − A) and the tasks that flipped between pass and fail")
    .argument("<a>", "the first results file (the baseline)")
    .argument("<b>", "the second results file")
    .option("--json", "print the comparison as JSON")
    .action(async (a: string, b: string, options: { json?: boolean }) => {
      const [before, after] = await Promise.all([loadResults(a, false), loadResults(b, false)]);
      const comparison = compareResults(before.results, after.results, { before: a, after: b });
      process.stdout.write(options.json ? `${JSON.stringify(comparison, null, 2)}\n` : compareText(comparison));
    });
}
