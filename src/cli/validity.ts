import { existsSync } from "node:fs";
import { mkdir, readFile, writeFile } from "node:fs/promises";
import { dirname, join, resolve } from "node:path";
import type { Command } from "commander";
import { type AssessmentData, LEVELS, type Level } from "../assessment/index.js";
import { calibrationFor, loadCalibration, loadTwins, REAL_TASKS_FILE, SAMPLE_ORG_DIR, SAMPLE_TASKS_FILE } from "../data/index.js";
import { SAMPLE, TWINS } from "../datasets/index.js";
import type { EntropyLevels } from "../entropy/index.js";
import { openBackend } from "../org/index.js";
import { loadTaskFile } from "../tasks/index.js";
import { TwinKey } from "../twins/index.js";
import { createLogger } from "../util/index.js";
import {
  ADVERSARY_FAMILIES,
  type AdversaryFamily,
  type AdversaryReport,
  adversarySection,
  CACHE_TRIALS,
  type CheckResult,
  checkRanking,
  checkRealDistribution,
  gamingRoster,
  NOT_ASKED_ADVERSARY,
  type RealReport,
  roster,
  runAdversarySuite,
  runRealSuite,
  runSuite,
  runTwinKeySpread,
  runTwinsSuite,
  SUCCESS_SOURCE,
  spliceAdversary,
  spliceTwinKeys,
  TWIN_SEEDS,
  type TwinsReport,
  twinKeysBlock,
  twinKeysSection,
  validityMarkdown,
} from "../validity/index.js";
import { DEFAULT_OUT_DIR } from "./assess.js";
import { int } from "./options.js";

const list = (value: string) =>
  value
    .split(",")
    .map((item) => item.trim())
    .filter(Boolean);

interface ValidityOptions {
  readonly levels: string;
  readonly seeds: string;
  readonly purples?: string;
  readonly realTasks?: string;
  readonly out?: string;
  readonly twins?: boolean;
  readonly twinSeeds: string;
  readonly twinPurples?: string;
  readonly adversary?: boolean;
  readonly adversaryOnly?: boolean;
  readonly adversaryFamilies?: string;
  readonly twinKeys?: number;
}

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
  if (!found) return { missing: `no real task file (looked for ${REAL_TASK_CANDIDATES.join(", ")}; \`npx tsx src/cli.ts data fetch\` fetches it, or pass --real-tasks)` };
  const started = Date.now();
  const tasks = loadTaskFile(resolve(found)).tasks;
  const gamers = gamingRoster();
  const measurements = await runRealSuite(tasks, { roster: gamers });
  process.stderr.write(`[real] ${gamers.length} org-free purples on ${tasks.length} tasks in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return { measurements, checks: checkRealDistribution(measurements), roster: gamers, source: `\`${found}\``, successSource: SUCCESS_SOURCE };
}

/** The sample's data: its task file and its org, opened. */
async function sampleData(): Promise<AssessmentData> {
  const tasks = loadTaskFile(SAMPLE_TASKS_FILE);
  const org = await openBackend(SAMPLE_ORG_DIR, { workers: 2 });
  return {
    tasks,
    org,
    dataset: SAMPLE.name,
    sources: { tasks: { path: SAMPLE_TASKS_FILE, kind: SAMPLE.name }, org: { path: SAMPLE_ORG_DIR, kind: SAMPLE.name } },
  };
}

/**
 * The adversary part: the purples that have read this repository, on the sample (with its org)
 * and on twins of the real task file when it is found (the twin families are skipped, and said so, without it).
 */
async function adversaryPart(sample: AssessmentData, path: string | undefined, families: readonly AdversaryFamily[]): Promise<AdversaryReport> {
  const found = realTaskFile(path);
  const started = Date.now();
  const logger = createLogger("warn");
  const report = await runAdversarySuite({
    sample,
    calibration: loadCalibration(),
    families,
    twins: found
      ? {
          source: loadTaskFile(resolve(found)).tasks,
          // The operator's twin set at a seed. Once twin sets are keyed by the operator's secret as well, pass `secret` here.
          // Built with a twin per trial for the trial cache (trial 1 is the same set's whatever the count).
          data: (seed, secret) => loadTwins(resolve(found), seed, logger, { workers: 2 }, "--adversary", { key: TwinKey.forRun(seed, secret), trials: CACHE_TRIALS }),
          calibration: calibrationFor(TWINS.name),
        }
      : { missing: `no real task file to build the twins from (looked for ${REAL_TASK_CANDIDATES.join(", ")}; pass --real-tasks)` },
    onProgress: (label) => process.stderr.write(`${label}\n`),
  });
  process.stderr.write(`[adversary] done in ${((Date.now() - started) / 1000).toFixed(1)} s\n`);
  return report;
}

/** The families named by --adversary-families, checked against the known ones. */
function adversaryFamilies(value: string | undefined): AdversaryFamily[] {
  if (!value) return [...ADVERSARY_FAMILIES];
  const names = list(value);
  const unknown = names.filter((name) => !(ADVERSARY_FAMILIES as readonly string[]).includes(name));
  if (unknown.length > 0) throw new Error(`--adversary-families: unknown ${unknown.join(", ")}; the families are ${ADVERSARY_FAMILIES.join(", ")}`);
  return names as AdversaryFamily[];
}

/** Reports failed checks on stdout and sets a failing exit code. */
function reportChecks(out: string, every: readonly CheckResult[], notes: string): void {
  const failed = every.filter((check) => !check.ok);
  process.stdout.write(`Wrote ${out}: ${every.length - failed.length} of ${every.length} checks hold${notes}.\n`);
  for (const check of failed) process.stdout.write(`FAILED (${check.where}) ${check.rule}: ${check.detail}\n`);
  if (failed.length > 0) process.exitCode = 1;
}

export function registerValidity(program: Command): void {
  program
    .command("validity")
    .description(
      "run the org-free gaming purples on the real task file (when found), and the reference, degenerate, gaming and variant purples on the sample at each drift × rot level and seed (with --adversary, the purples that have read this repository too); write the tables, fail if a rule breaks",
    )
    .option("--levels <levels>", "levels crossed for drift and rot", DEFAULT_LEVELS)
    .option("--seeds <seeds>", "assessment seeds", DEFAULT_SEEDS)
    .option("--purples <names>", "only these sample purples (default: all)")
    .option("--real-tasks <file>", `the real CRMArena-Pro task file (default: the first of ${REAL_TASK_CANDIDATES.join(", ")} that exists)`)
    .option("--twins", "also run the twin set of the real task file (2,140 twins per seed, on a full-size org): the references, the degenerates and the analyst")
    .option("--twin-seeds <seeds>", "the twin sets' seeds", TWIN_SEEDS.join(","))
    .option("--twin-purples <names>", "only these twin purples (default: all)")
    .option("--adversary", "also run the adversary section: purples that have read this repository (on the sample, and on twins of the real task file when found; a few minutes)")
    .option("--adversary-only", "run only the adversary section and put it in place of the one in --out, the other sections as they are")
    .option("--adversary-families <names>", `only these adversary families (${ADVERSARY_FAMILIES.join(", ")})`)
    .option(
      "--twin-keys <n>",
      "instead of the rest: the between-key spread (the analyst, the naive solver and a flaky analyst on the twin sets of n secrets at seed 1), written into --out's section for it",
      int("--twin-keys"),
    )
    .option(
      "--out <file>",
      `where to write the tables (default: ${TRACKED_VALIDITY} for a whole run, --twins and --adversary with every purple, level and seed; else ${join("<output dir>", "validity.md")})`,
    )
    .action(async (given: ValidityOptions) => {
      const options = { ...given, out: validityOut(given) };
      if (!given.out && options.out !== TRACKED_VALIDITY)
        process.stderr.write(`[validity] a partial run: writing ${options.out}, not ${TRACKED_VALIDITY} (pass --out to choose)\n`);
      await mkdir(dirname(resolve(options.out)), { recursive: true });
      if (options.twinKeys !== undefined) return twinKeysPart(options.realTasks, options.twinKeys, options.out, options.twinPurples ? list(options.twinPurples) : undefined);
      const families = adversaryFamilies(options.adversaryFamilies);
      if (options.adversaryOnly) {
        const sample = await sampleData();
        try {
          const adversary = await adversaryPart(sample, options.realTasks, families);
          const existing = existsSync(options.out) ? await readFile(options.out, "utf8") : "";
          await writeFile(options.out, spliceAdversary(existing, adversarySection(adversary)));
          reportChecks(options.out, "missing" in adversary ? [] : adversary.checks, " (the adversary section only)");
        } finally {
          await sample.org.close();
        }
        return;
      }
      const levelNames = list(options.levels);
      const unknown = levelNames.filter((level) => !(LEVELS as readonly string[]).includes(level));
      if (unknown.length > 0) throw new Error(`--levels: unknown ${unknown.join(", ")}; the levels are ${LEVELS.join(", ")}`);
      const levels: EntropyLevels[] = levelNames.flatMap((drift) => levelNames.map((rot) => ({ drift_level: drift as Level, rot_level: rot as Level })));
      const seeds = list(options.seeds).map(Number);
      const real = await realPart(options.realTasks);
      if ("missing" in real) process.stderr.write(`[real] skipped: ${real.missing}\n`);
      const twins: TwinsReport = options.twins
        ? await twinsPart(options.realTasks, list(options.twinSeeds).map(Number), options.twinPurples ? list(options.twinPurples) : undefined)
        : { missing: "not asked for (`npm run validity -- --twins`)" };
      const data = await sampleData();
      const { tasks, org } = data;
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
        const adversary = options.adversary ? await adversaryPart(data, options.realTasks, families) : NOT_ASKED_ADVERSARY;
        // The between-key spread is its own run's (--twin-keys): a full run keeps it.
        const kept = existsSync(options.out) ? twinKeysBlock(await readFile(options.out, "utf8")) : undefined;
        const markdown = validityMarkdown(sample, real, twins, adversary);
        await writeFile(options.out, kept ? spliceTwinKeys(markdown, kept) : markdown);
        const every: CheckResult[] = [
          ...("missing" in real ? [] : real.checks),
          ...("missing" in twins ? [] : twins.checks),
          ...checks,
          ...("missing" in adversary ? [] : adversary.checks),
        ];
        reportChecks(
          options.out,
          every,
          `${"missing" in real ? " (the real task distribution was not measured)" : ""}${"missing" in twins ? " (the twins were not measured)" : ""}${"missing" in adversary ? " (the adversaries were not run)" : ""}`,
        );
      } finally {
        await org.close();
      }
    });
}

const DEFAULT_LEVELS = "none,medium,high";
const DEFAULT_SEEDS = "1,2,3";

/** The tracked tables, which only a whole run rewrites. */
const TRACKED_VALIDITY = "docs/validity.md";

/**
 * Where a run writes: `--out` when given; else the tracked docs/validity.md only for a whole run
 * (a partial one there would delete the sections it did not measure), and the output folder for
 * anything less. `--adversary-only` splices its section into the file, so it may keep the default.
 */
export function validityOut(options: Partial<ValidityOptions>): string {
  if (options.out) return options.out;
  // --adversary-only and --twin-keys splice their own section into the file, the others kept.
  const whole =
    options.twinKeys !== undefined || options.adversaryOnly === true
      ? !options.adversaryFamilies
      : options.twins === true &&
        options.adversary === true &&
        !options.purples &&
        !options.twinPurples &&
        !options.adversaryFamilies &&
        options.levels === DEFAULT_LEVELS &&
        options.seeds === DEFAULT_SEEDS;
  return whole ? TRACKED_VALIDITY : join(DEFAULT_OUT_DIR, "validity.md");
}
