import { mkdir } from "node:fs/promises";
import { join } from "node:path";
import type { Command } from "commander";
import { twinKeyFor } from "../data/index.js";
import { TWINS } from "../datasets/index.js";
import { writeOrgCsv, writeTasksJson } from "../sample/index.js";
import { loadTaskFile } from "../tasks/index.js";
import { buildTwins } from "../twins/index.js";
import { int } from "./options.js";

export function registerTwins(program: Command): void {
  const twins = program.command(TWINS.name).description("the twin set: each real task's wording on a freshly generated full-size org");
  twins
    .command("build")
    .description("build the twins of a task file for a seed and write them (tasks.json and an org folder of CSV files)")
    .requiredOption("--tasks <file>", "the real task file the twins are made from")
    .requiredOption("--out <dir>", "folder to write tasks.json and org/ into")
    .option("--seed <n>", "the seed (keyed by the operator's secret, as a run's twins are: ENTROPIC_ID_SECRET, else the installation's)", int("--seed"), 42)
    .option("--trials <k>", "twins per task (tasks.trial-2.json, … beside tasks.json)", int("--trials"), 1)
    .option("--categories <names>", "comma-separated categories (default: all)")
    .action(async (options: { tasks: string; out: string; seed: number; trials: number; categories?: string }) => {
      const started = Date.now();
      const source = loadTaskFile(options.tasks).tasks;
      const key = twinKeyFor(options.seed);
      const set = buildTwins(source, key, { trials: options.trials, ...(options.categories ? { categories: options.categories.split(",").map((name) => name.trim()) } : {}) });
      await mkdir(options.out, { recursive: true });
      await writeTasksJson(set.tasks, join(options.out, "tasks.json"));
      for (let trial = 2; trial <= set.trials.length; trial++) await writeTasksJson(set.trials[trial - 1]!, join(options.out, `tasks.trial-${trial}.json`));
      await writeOrgCsv(set.world.toOrg(), join(options.out, "org"));
      const missing = set.missing.length > 0 ? `; no twin for ${set.missing.length} (first: idx ${set.missing[0]!.idx}, ${set.missing[0]!.category})` : "";
      process.stdout.write(
        `${set.tasks.length} twins of ${source.length} tasks (seed ${options.seed}, twin key ${key.digest}, ${set.trials.length} per task) in ${Date.now() - started} ms -> ${options.out}${missing}\n`,
      );
    });
}
