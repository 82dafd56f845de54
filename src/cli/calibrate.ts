import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import type { Command } from "commander";
import { type AssessmentData, assess, parseConfig, runSpecFor } from "../assessment/index.js";
import { servePurple, solverStrategy } from "../baselines/index.js";
import { CALIBRATION_FILE, loadCalibration, SAMPLE_ORG_DIR } from "../data/index.js";
import { SAMPLE } from "../datasets/index.js";
import type { EpisodeRecord, TrajectoryStep } from "../log/index.js";
import { openBackend } from "../org/index.js";
import { A2APurpleClient } from "../purple/index.js";
import { generateOrg, generateTasks } from "../sample/index.js";
import { type Calibration, episodePassed, HeuristicJudge, measureCalibration } from "../scoring/index.js";
import { parseTasks } from "../tasks/index.js";
import { describeSchema } from "../tools/index.js";
import { int } from "./options.js";

/** The levels and seeds the solver is measured at: the calibration must hold for every world a run can be in. */
const LEVELS = [
  ["none", "none"],
  ["high", "high"],
] as const;
const SEEDS = [1, 2, 3];

/**
 * Measures what a careful agent needs per category: the reference solver on generated tasks of
 * the sample org (`perCategory` each), at drift and rot none and high, three seeds.
 */
export async function calibrate(perCategory: number, plans: Readonly<Record<string, readonly string[]>>): Promise<Calibration> {
  const tasks = parseTasks(
    JSON.parse(JSON.stringify(generateTasks(generateOrg(42, 0.1), 42, perCategory))),
    `generated calibration tasks (sample org, seed 42, ${perCategory} per category)`,
  );
  const org = await openBackend(SAMPLE_ORG_DIR, { workers: 2 });
  const data: AssessmentData = {
    tasks,
    org,
    dataset: SAMPLE.name,
    sources: { tasks: { path: tasks.source, kind: SAMPLE.name }, org: { path: SAMPLE_ORG_DIR, kind: SAMPLE.name } },
  };
  const { server, url } = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
  // Efficiency scores are not used here, so the episodes are scored against an empty calibration.
  const provisional: Calibration = { version: 2, source: "none (calibrating)", measured: { tasks_per_category: 0, seeds: [], levels: [] }, look_around_tokens: 0, categories: {} };
  try {
    const records: EpisodeRecord[] = [];
    const describeTurns: TrajectoryStep[] = [];
    for (const [drift, rot] of LEVELS) {
      for (const seed of SEEDS) {
        const { config } = parseConfig({ drift_level: drift, rot_level: rot, seed, concurrency: 8 });
        const { log } = await assess(data, new A2APurpleClient(url), {
          spec: runSpecFor({ participantUrl: url, config, tasksSource: data.sources.tasks.path }),
          calibration: provisional,
          judge: new HeuristicJudge(),
        });
        const failed = log.episodes.filter((record) => !episodePassed(record));
        if (failed.length > 0)
          throw new Error(
            `the solver failed ${failed.length} calibration tasks at drift ${drift}, rot ${rot}, seed ${seed} (e.g. task ${failed[0]!.task.idx} ${failed[0]!.task.category}); fix it before calibrating`,
          );
        records.push(...log.episodes);
      }
    }
    // The look around every category is allowed: one describe_schema of the whole org, measured
    // in the same worlds (the solver's own describes may name only the objects it needs).
    const lookAround = await servePurple(
      "look-around",
      async (_task, tools) => {
        await tools.describe();
        return "None";
      },
      "127.0.0.1",
      0,
    );
    try {
      const one = { ...data, tasks: parseTasks(JSON.parse(JSON.stringify(tasks.tasks.slice(0, 1))), `${tasks.source} (first task)`) };
      for (const [drift, rot] of LEVELS) {
        const { config } = parseConfig({ drift_level: drift, rot_level: rot, seed: SEEDS[0] });
        const { log } = await assess(one, new A2APurpleClient(lookAround.url), {
          spec: runSpecFor({ participantUrl: lookAround.url, config, tasksSource: one.sources.tasks.path }),
          calibration: provisional,
          judge: new HeuristicJudge(),
        });
        describeTurns.push(...log.episodes.flatMap((record) => record.trajectory.steps.filter((step) => step.action.kind === "tool" && step.action.tool === describeSchema.name)));
      }
    } finally {
      lookAround.server.close();
    }
    return measureCalibration(
      records,
      org.schema,
      { tasks_per_category: perCategory, seeds: SEEDS, levels: LEVELS.map(([drift, rot]) => `drift ${drift}, rot ${rot}`) },
      "turns and queries from each category's careful plan for the real tasks' wording; tokens and fields read measured from the reference solver purple on generated tasks (entropic-crmarena calibrate)",
      plans,
      Math.max(0, ...describeTurns.map((step) => step.sent.tokens + step.received.tokens)),
    );
  } finally {
    server.close();
    await org.close();
  }
}

export function registerCalibrate(program: Command): void {
  program
    .command("calibrate")
    .description("measure each category's optimum: turns and queries from its careful plan (kept in the calibration file), tokens and fields read from the reference solver purple")
    .option("--per-category <n>", "generated tasks per category", int("--per-category"), 10)
    .option("--out <file>", "where to write the calibration", CALIBRATION_FILE)
    .action(async (options: { perCategory: number; out: string }) => {
      // The plans are written by people, in the calibration file itself: calibrating keeps them and measures the rest.
      const current = existsSync(options.out) ? loadCalibration(options.out) : loadCalibration();
      const plans = Object.fromEntries(Object.entries(current.categories).map(([category, entry]) => [category, entry.plan]));
      const calibration = await calibrate(options.perCategory, plans);
      await writeFile(options.out, `${JSON.stringify(calibration, null, 2)}\n`);
      process.stdout.write(`Wrote the calibration of ${Object.keys(calibration.categories).length} categories to ${options.out}\n`);
    });
}
