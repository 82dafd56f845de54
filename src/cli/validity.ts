import { existsSync } from "node:fs";
import { readFile, writeFile } from "node:fs/promises";
import { resolve } from "node:path";
import type { Command } from "commander";
import { type AssessmentData, LEVELS, type Level } from "../assessment/index.js";
import { calibrationFor, loadCalibration, loadTwins, REAL_TASKS_FILE, SAMPLE_ORG_DIR, SAMPLE_TASKS_FILE } from "../data/index.js";
import { SAMPLE, TWINS } from "../datasets/index.js";
import { openBackend } from "../org/index.js";
import { loadTaskFile } from "../tasks/index.js";
import { createLogger } from "../util/index.js";
import {
  type CheckResult,
  checkRanking,
  checkRealDistribution,
  gamingRoster,
  type LevelPair,
  type RealReport,
  roster,
  runRealSuite,
  runSuite,
  runTwinKeySpread,
  runTwinsSuite,
  SUCCESS_SOURCE,
  spliceTwinKeys,
  TWIN_SEEDS,
  type TwinsReport,
  twinKeysBlock,
  twinKeysSection,
  validityMarkdown,
} from "../validity/index.js";
import { int } from "./options.js";

const list = (value: string) =>
  value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

/** Where the real task file may be: `data fetch`'s cache, then the shared data folder next to the repository. */
const REAL_TASK_CANDIDATES = [REAL_TASKS_FILE, "../shared/data/crmarenapro/b2b_tasks.json"];

/** Finds the real task file: the one given, else the first candidate that exists. */
const realTaskFile = (path: string | undefined) => path ?? REAL_TASK_CANDIDATES.find((candidate) => existsSync(resolve(candidate)));

/**
 * The twin part: the twin set of the real task file at each seed (built, or read from the cache),
 * run by the twin roster at three level pairs; minutes at full size, so behind --twins.
 */
async function twinsPart(path: string | undefined, seeds: readonly number[], purples: readonly string[] | undefined): Promise<TwinsReport> {
  const found = realTaskFile(path);
  if (!found) return { missing: `no real task file to build the twins from (looked for ${REAL_TASK_CANDIDATES.join(", ")}; pass --real-tasks)` };
  const started = Date.now();
  const real = loadTaskFile(resolve(found)).tasks;
  const logger = createLogger("warn");
  const report = await runTwinsSuite(real, found, (seed, key) => loadTwins(resolve(found), seed, logger, { workers: 2 }, "--twins", { key }), calibrationFor(TWINS.name), {
    seeds,
    ...(purples ? { purples } : {}),
    onProgress: (label) => process.stderr.write(`${label}\n`),
  });
  process.stderr.write(`[twins] ${"missing" in report ? `skipped: ${report.missing}` : `done in ${((Date.now() - started) / 1000).toFixed(1)} s`}\n`);
  return report;
}

/** The between-key spread alone (minutes: three purples on `keys` full twin sets), written into `out`'s section for it, the rest of the file kept. */
async function twinKeysPart(path: string | undefined, keys: number, out: string, purples: readonly string[] | undefined): Promise<void> {
  const found = realTaskFile(path);
  if (!found) throw new Error(`--twin-keys: no real task file to build the twins from (looked for ${REAL_TASK_CANDIDATES.join(", ")}; pass --real-tasks)`);
  const logger = createLogger("warn");
  const report = await runTwinKeySpread((seed, key) => loadTwins(resolve(found), seed, logger, { workers: 2 }, "--twin-keys", { key }), calibrationFor(TWINS.name), {
    keys,
    ...(purples ? { purples } : {}),
    onProgress: (label) => process.stderr.write(`${label}\n`),
  });
  const section = twinKeysSection(report);
  await writeFile(out, spliceTwinKeys(existsSync(out) ? await readFile(out, "utf8") : "", section));
  process.stdout.write(`Wrote the between-key spread into ${out} (${Math.round(report.seconds)} s):\n${section}`);
}

/** The real-distribution part: every org-free purple on the real task file, or why it was not run. */
async function realPart(path: string | undefined): Promise<RealReport> {
  const found = realTaskFile(path);
  if (!found) return { missing: `no real task file (looked for ${REAL_TASK_CANDIDATES.join(", ")}; \`entropic-crmarena data fetch\` fetches it, or pass --real-tasks)` };
  const started = Date.now();
  const tasks = loadTaskFile(resolve(found)).tasks;
  const gamers = gamingRoster();
  const measurements = await runRealSuite(tasks, { roster: gamers });
  process.stderr.write(`[real] ${gamers.length} org-free purples on ${tasks.length} tasks in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return { measurements, checks: checkRealDistribution(measurements), roster: gamers, source: `\`${found}\``, successSource: SUCCESS_SOURCE };
}

export function registerValidity(program: Command): void {
  program
    .command("validity")
    .description(
      "run the org-free gaming purples on the real task file (when found), and the reference, degenerate, gaming and variant purples on the sample at each drift × rot level and seed; write the tables, fail if a rule breaks",
    )
    .option("--levels <levels>", "levels crossed for drift and rot", "none,medium,high")
    .option("--seeds <seeds>", "assessment seeds", "1,2,3")
    .option("--purples <names>", "only these sample purples (default: all)")
    .option("--real-tasks <file>", `the real CRMArena-Pro task file (default: the first of ${REAL_TASK_CANDIDATES.join(", ")} that exists)`)
    .option("--twins", "also run the twin set of the real task file (2,140 twins per seed, on a full-size org): the references, the degenerates and the analyst")
    .option("--twin-seeds <seeds>", "the twin sets' seeds", TWIN_SEEDS.join(","))
    .option("--twin-purples <names>", "only these twin purples (default: all)")
    .option(
      "--twin-keys <n>",
      "instead of the rest: the between-key spread (the analyst, the naive solver and a flaky analyst on the twin sets of n secrets at seed 1), written into --out's section for it",
      int("--twin-keys"),
    )
    .option("--out <file>", "where to write the tables", "docs/validity.md")
    .action(
      async (options: {
        levels: string;
        seeds: string;
        purples?: string;
        realTasks?: string;
        out: string;
        twins?: boolean;
        twinSeeds: string;
        twinPurples?: string;
        twinKeys?: number;
      }) => {
        if (options.twinKeys !== undefined) return twinKeysPart(options.realTasks, options.twinKeys, options.out, options.twinPurples ? list(options.twinPurples) : undefined);
        const levelNames = list(options.levels);
        const unknown = levelNames.filter((level) => !(LEVELS as readonly string[]).includes(level));
        if (unknown.length > 0) throw new Error(`--levels: unknown ${unknown.join(", ")}; the levels are ${LEVELS.join(", ")}`);
        const levels: LevelPair[] = levelNames.flatMap((drift) => levelNames.map((rot) => ({ drift: drift as Level, rot: rot as Level })));
        const seeds = list(options.seeds).map(Number);
        const real = await realPart(options.realTasks);
        if ("missing" in real) process.stderr.write(`[real] skipped: ${real.missing}\n`);
        const twins: TwinsReport = options.twins
          ? await twinsPart(options.realTasks, list(options.twinSeeds).map(Number), options.twinPurples ? list(options.twinPurples) : undefined)
          : { missing: "not asked for (`npm run validity -- --twins`)" };
        const tasks = loadTaskFile(SAMPLE_TASKS_FILE);
        const org = await openBackend(SAMPLE_ORG_DIR, { workers: 2 });
        const data: AssessmentData = {
          tasks,
          org,
          dataset: SAMPLE.name,
          sources: { tasks: { path: SAMPLE_TASKS_FILE, kind: SAMPLE.name }, org: { path: SAMPLE_ORG_DIR, kind: SAMPLE.name } },
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
          const sample = { measurements, checks, roster: purples, options: { levels, seeds }, dataLabel: `${tasks.tasks.length} tasks, the bundled sample org` };
          // The between-key spread is its own run's (--twin-keys): a full run keeps it.
          const kept = existsSync(options.out) ? twinKeysBlock(await readFile(options.out, "utf8")) : undefined;
          const markdown = validityMarkdown(sample, real, twins);
          await writeFile(options.out, kept ? spliceTwinKeys(markdown, kept) : markdown);
          const every: CheckResult[] = [...("missing" in real ? [] : real.checks), ...("missing" in twins ? [] : twins.checks), ...checks];
          const failed = every.filter((check) => !check.ok);
          process.stdout.write(
            `Wrote ${options.out}: ${every.length - failed.length} of ${every.length} checks hold${"missing" in real ? " (the real task distribution was not measured)" : ""}${"missing" in twins ? " (the twins were not measured)" : ""}.\n`,
          );
          for (const check of failed) process.stdout.write(`FAILED (${check.where}) ${check.rule}: ${check.detail}\n`);
          if (failed.length > 0) process.exitCode = 1;
        } finally {
          await org.close();
        }
      },
    );
}
