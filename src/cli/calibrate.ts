import { existsSync } from "node:fs";
import { writeFile } from "node:fs/promises";
import type { Command } from "commander";
import { type AssessmentConfig, type AssessmentData, chooseTasks, parseConfig, runSession, runSpecFor } from "../assessment/index.js";
import { analystStrategy, servePurple, solverStrategy } from "../baselines/index.js";
import { buildDataset, builderFor, CALIBRATION_FILE, loadCalibration, loadDataset, namedTasksFile, SAMPLE_ORG_DIR } from "../data/index.js";
import { datasetCalled, SAMPLE, TWINS } from "../datasets/index.js";
import type { EpisodeRecord } from "../log/index.js";
import { type OrgSchema, openBackend } from "../org/index.js";
import { generateOrg, generateTasks } from "../sample/index.js";
import { type Calibration, episodePassed, HeuristicJudge, measureCalibration } from "../scoring/index.js";
import { parseTasks } from "../tasks/index.js";
import { describeSchema } from "../tools/index.js";
import { createLogger, groupBy, Random } from "../util/index.js";
import { purplesFromEnv } from "./deps-from-env.js";
import { int } from "./options.js";

/** The levels and seeds the reference is measured at: the calibration must hold for every world a run can be in. */
const LEVELS = [
  ["none", "none"],
  ["high", "high"],
] as const;
const SEEDS = [1, 2, 3];
/** The seeds of the analyst's measurement: for a built dataset each is another world (the twins: another full-size org, other entities and answers). */
const REFERENCE_SEEDS = [1, 2];

// Efficiency scores are not used while calibrating, so the episodes are scored against an empty calibration.
const PROVISIONAL: Calibration = { version: 2, source: "none (calibrating)", measured: { tasks_per_category: 0, seeds: [], levels: [] }, look_around_tokens: 0, categories: {} };

/** One run of a reference purple on the calibration's own data, scored against the provisional calibration. */
async function runReference(data: AssessmentData, url: string, config: AssessmentConfig) {
  const spec = runSpecFor({ participantUrl: url, config, tasksSource: data.sources.tasks.path });
  return runSession(
    { spec, data, chosen: await chooseTasks(data, config) },
    {
      createJudge: () => new HeuristicJudge(),
      calibration: () => PROVISIONAL,
      // The operator's ENTROPIC_ID_SECRET when set (not the installation's file secret), as before the session.
      idSecret: process.env.ENTROPIC_ID_SECRET || undefined,
      createPurple: purplesFromEnv(),
    },
  );
}

/** The reference's episodes on `data` at every level pair for one seed; an unsolved one is handed to `onUnsolved` with its level pair. */
async function referenceEpisodes(data: AssessmentData, url: string, seed: number, onUnsolved: (record: EpisodeRecord, level: string) => void): Promise<EpisodeRecord[]> {
  const records: EpisodeRecord[] = [];
  for (const [drift, rot] of LEVELS) {
    const { config } = parseConfig({ drift_level: drift, rot_level: rot, seed, concurrency: 8 });
    const { log } = await runReference(data, url, config);
    for (const record of log.episodes) {
      if (episodePassed(record)) records.push(record);
      else onUnsolved(record, `drift ${drift}, rot ${rot}`);
    }
  }
  return records;
}

/**
 * The look around every category is allowed: the tokens of one describe_schema of the whole org,
 * measured in the same worlds (a reference's own describes may name only the objects it needs).
 */
async function wholeDescribeTokens(data: AssessmentData, seed: number): Promise<number> {
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
    const one = { ...data, tasks: parseTasks(JSON.parse(JSON.stringify(data.tasks.tasks.slice(0, 1))), `${data.tasks.source} (first task)`) };
    let most = 0;
    for (const [drift, rot] of LEVELS) {
      const { config } = parseConfig({ drift_level: drift, rot_level: rot, seed });
      const { log } = await runReference(one, lookAround.url, config);
      for (const record of log.episodes)
        for (const step of record.trajectory.steps)
          if (step.action.kind === "tool" && step.action.tool === describeSchema.name) most = Math.max(most, step.sent.tokens + step.received.tokens);
    }
    return most;
  } finally {
    lookAround.server.close();
  }
}

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
  try {
    const records: EpisodeRecord[] = [];
    for (const seed of SEEDS) {
      // The sample's solver must solve every generated task: one it does not is a solver to fix.
      records.push(
        ...(await referenceEpisodes(data, url, seed, (record, level) => {
          throw new Error(`the solver failed calibration task ${record.task.idx} (${record.task.category}) at ${level}, seed ${seed}; fix it before calibrating`);
        })),
      );
    }
    return measureCalibration(
      records,
      org.schema,
      { tasks_per_category: perCategory, seeds: SEEDS, levels: LEVELS.map(([drift, rot]) => `drift ${drift}, rot ${rot}`) },
      "turns and queries from each category's careful plan for the real tasks' wording; tokens and fields read measured from the reference solver purple on generated tasks (entropic-crmarena calibrate)",
      plans,
      await wholeDescribeTokens(data, SEEDS[0]!),
    );
  } finally {
    server.close();
    await org.close();
  }
}

/**
 * The calibration of any registered dataset but the sample: the reference analyst (which reads the
 * real wording and never saw a generator) on `perCategory` tasks of each category (a seeded choice),
 * at drift and rot none and high, at two seeds. A dataset that builds its own data (the twins) is
 * built at each seed, unkeyed (a public measurement: anyone repeats it from the seeds), each a world
 * of its own; another is its files, at both seeds. Turns and queries stay the careful plans';
 * tokens and fields are what the analyst needed where it solved the task (an unsolved one teaches
 * nothing about what solving takes; how many were left out is returned).
 */
export async function calibrateOnDataset(
  dataset: string,
  tasksFile: string | undefined,
  perCategory: number,
  plans: Readonly<Record<string, readonly string[]>>,
): Promise<{ calibration: Calibration; unsolved: number; episodes: number }> {
  const spec = datasetCalled(dataset, "--dataset");
  const logger = createLogger("warn");
  const orgOptions = { workers: 2 };
  const dataAt = (seed: number): Promise<AssessmentData> =>
    builderFor(dataset)
      ? buildDataset(dataset, { seed, trials: 1, secret: undefined, tasksFile, logger, orgOptions, field: "--tasks" })
      : loadDataset(spec, logger, orgOptions, "--dataset");
  const { server, url } = await servePurple("analyst", analystStrategy, "127.0.0.1", 0);
  const records: EpisodeRecord[] = [];
  let unsolved = 0;
  let episodes = 0;
  let lookAround = 0;
  let schema: OrgSchema | undefined;
  try {
    for (const seed of REFERENCE_SEEDS) {
      const full = await dataAt(seed);
      try {
        const random = new Random(`calibrate-${dataset}:${seed}`);
        const chosen = [...groupBy(full.tasks.tasks, (task) => task.task).values()].flatMap((tasks) => random.sample(tasks, perCategory)).sort((a, b) => a.idx - b.idx);
        const data: AssessmentData = { ...full, tasks: parseTasks(JSON.parse(JSON.stringify(chosen)), `${full.tasks.source} (${perCategory} per category)`) };
        const solved = await referenceEpisodes(data, url, seed, () => unsolved++);
        episodes += data.tasks.tasks.length * LEVELS.length;
        records.push(...solved);
        lookAround = Math.max(lookAround, await wholeDescribeTokens(data, seed));
        schema ??= full.org.schema;
      } finally {
        await full.org.close();
      }
    }
  } finally {
    server.close();
  }
  const calibration = measureCalibration(
    records,
    schema!,
    { tasks_per_category: perCategory, seeds: REFERENCE_SEEDS, levels: LEVELS.map(([drift, rot]) => `drift ${drift}, rot ${rot}`) },
    `turns and queries from each category's careful plan for the real tasks' wording; tokens and fields read measured from the reference analyst purple on ${spec.description} (entropic-crmarena calibrate --dataset ${dataset})`,
    plans,
    lookAround,
    "plan",
  );
  return { calibration, unsolved, episodes };
}

export function registerCalibrate(program: Command): void {
  program
    .command("calibrate")
    .description(
      "measure each category's optimum: turns and queries from its careful plan (kept in the calibration file), tokens and fields read from a reference purple: the solver on the sample, or with --dataset the analyst on another registered dataset (twins, ...)",
    )
    .option(
      "--dataset <name>",
      `a registered dataset: ${SAMPLE.name} (the solver on generated sample tasks, data/calibration.json), or another (the analyst on its tasks; written to its spec's calibration file, e.g. ${TWINS.name}'s data/calibration-twins.json, else --out)`,
      SAMPLE.name,
    )
    .option(
      "--tasks <file>",
      "for a dataset that builds its own data (the twins): the task file it is built from (default: ENTROPIC_TASKS, else the builder's own: the fetched task file)",
    )
    .option("--per-category <n>", "tasks per category (generated, or chosen per seed)", int("--per-category"), 10)
    .option("--out <file>", "where to write the calibration (default: the dataset's calibration file)")
    .action(async (options: { dataset: string; tasks?: string; perCategory: number; out?: string }) => {
      const spec = datasetCalled(options.dataset, "--dataset");
      const onSample = spec.name === SAMPLE.name;
      const out = options.out ?? spec.calibrationPath ?? (onSample ? CALIBRATION_FILE : undefined);
      if (out === undefined)
        throw new Error(`--out: dataset '${spec.name}' names no calibration file of its own (its spec's calibrationPath), and the default one is the sample's: give --out`);
      // The plans are written by people, in the default calibration file: calibrating keeps them and measures the rest.
      const current = onSample && existsSync(out) ? loadCalibration(out) : loadCalibration();
      const plans = Object.fromEntries(Object.entries(current.categories).map(([category, entry]) => [category, entry.plan]));
      let calibration: Calibration;
      if (onSample) {
        calibration = await calibrate(options.perCategory, plans);
      } else {
        const measured = await calibrateOnDataset(spec.name, namedTasksFile(options), options.perCategory, plans);
        calibration = measured.calibration;
        process.stdout.write(
          `The analyst solved ${measured.episodes - measured.unsolved} of ${measured.episodes} episodes of ${spec.name}; the unsolved ones are left out of the measure.\n`,
        );
      }
      await writeFile(out, `${JSON.stringify(calibration, null, 2)}\n`);
      process.stdout.write(`Wrote the calibration of ${Object.keys(calibration.categories).length} categories to ${out}\n`);
    });
}
