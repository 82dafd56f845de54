import { writeFile } from "node:fs/promises";
import type { Command } from "commander";
import { type AssessmentData, LEVELS, type Level } from "../assessment/index.js";
import { loadCalibration, SAMPLE_ORG_DIR, SAMPLE_TASKS_FILE } from "../data/index.js";
import { openOrg } from "../org/index.js";
import { loadTaskFile } from "../tasks/index.js";
import { checkRanking, type LevelPair, roster, runSuite, validityMarkdown } from "../validity/index.js";

const list = (value: string) =>
  value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

export function registerValidity(program: Command): void {
  program
    .command("validity")
    .description("run the reference and degenerate purples on the sample at each drift × rot level and seed, write the table, fail if the ranking is wrong")
    .option("--levels <levels>", "levels crossed for drift and rot", "none,medium,high")
    .option("--seeds <seeds>", "assessment seeds", "1,2,3")
    .option("--purples <names>", "only these purples (default: all)")
    .option("--out <file>", "where to write the table", "docs/validity.md")
    .action(async (options: { levels: string; seeds: string; purples?: string; out: string }) => {
      const levelNames = list(options.levels);
      const unknown = levelNames.filter((level) => !(LEVELS as readonly string[]).includes(level));
      if (unknown.length > 0) throw new Error(`--levels: unknown ${unknown.join(", ")}; the levels are ${LEVELS.join(", ")}`);
      const levels: LevelPair[] = levelNames.flatMap((drift) => levelNames.map((rot) => ({ drift: drift as Level, rot: rot as Level })));
      const seeds = list(options.seeds).map(Number);
      const tasks = loadTaskFile(SAMPLE_TASKS_FILE);
      const org = openOrg(SAMPLE_ORG_DIR, { workers: 2 });
      const data: AssessmentData = {
        tasks,
        org,
        dataset: "sample",
        sources: { tasks: { path: SAMPLE_TASKS_FILE, kind: "sample" }, org: { path: SAMPLE_ORG_DIR, kind: "sample" } },
      };
      const all = roster(tasks);
      const wanted = options.purples ? list(options.purples) : all.map((entry) => entry.name);
      const purples = all.filter((entry) => wanted.includes(entry.name));
      try {
        const measurements = await runSuite(data, loadCalibration(), purples, {
          levels,
          seeds,
          onProgress: (done, total, label) => process.stderr.write(`[${done}/${total}] ${label}\n`),
        });
        const checks = checkRanking(measurements);
        await writeFile(options.out, validityMarkdown(measurements, checks, purples, { levels, seeds }, `${tasks.tasks.length} tasks, the bundled sample org`));
        const failed = checks.filter((check) => !check.ok);
        process.stdout.write(`Wrote ${options.out}: ${checks.length - failed.length} of ${checks.length} checks hold.\n`);
        for (const check of failed) process.stdout.write(`FAILED (drift ${check.level.drift}, rot ${check.level.rot}) ${check.rule}: ${check.detail}\n`);
        if (failed.length > 0) process.exitCode = 1;
      } finally {
        await org.close();
      }
    });
}
