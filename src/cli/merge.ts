import { readFile, writeFile } from "node:fs/promises";
import type { Command } from "commander";
import { mergeShards, summaryText } from "../report/index.js";

/** The result objects in a file: a results object, or a leaderboard file whose `results` list holds several. */
async function resultObjects(path: string): Promise<Record<string, unknown>[]> {
  let document: unknown;
  try {
    document = JSON.parse(await readFile(path, "utf8"));
  } catch (error) {
    throw new Error(`cannot read ${path}: ${(error as Error).message}`);
  }
  if (typeof document !== "object" || document === null || Array.isArray(document)) throw new Error(`${path} does not hold a results object`);
  const record = document as Record<string, unknown>;
  if ("run" in record) return [record];
  if (Array.isArray(record.results) && record.results.every((item) => typeof item === "object" && item !== null && "run" in item))
    return record.results as Record<string, unknown>[];
  throw new Error(`${path} holds neither a results object with 'run' nor a leaderboard file of them`);
}

export function registerMerge(program: Command): void {
  program
    .command("merge")
    .description("merge the results of a run's shards into one results object, with exact aggregates")
    .argument("<shards...>", "results files (or leaderboard files holding several shard objects)")
    .option("--out <file>", "write the merged results here (default: stdout)")
    .action(async (paths: string[], options: { out?: string }) => {
      const merged = mergeShards((await Promise.all(paths.map(resultObjects))).flat());
      const text = `${JSON.stringify(merged, null, 2)}\n`;
      if (options.out) {
        await writeFile(options.out, text);
        process.stderr.write(`${summaryText(merged)}\nMerged results written to ${options.out}\n`);
      } else process.stdout.write(text);
    });
}
