#!/usr/bin/env node
import { readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { Command, InvalidArgumentError, Option } from "commander";
import { parse as parseToml } from "smol-toml";
import { assess, parseConfig, readResults, readTrajectories, rescore, type AssessmentEvent, type Level } from "./assessment/index.js";
import { perturbOrg, type RenameMap } from "./entropy/index.js";
import { llmPurpleConfigFromEnv, LLM_MODES, oracleStrategy, serveLlmPurple, servePurple, solverStrategy, type LlmMode } from "./baselines/index.js";
import { fetchData } from "./data/fetch.js";
import { loadAssessmentData } from "./data/load.js";
import { CACHE_DIR, resolveOrgAlias, SAMPLE_ORG_DIR, SAMPLE_TASKS_FILE, chooseData } from "./data/paths.js";
import { llmConfigFromEnv } from "./llm/config.js";
import { describeObjects, executeRequest, openOrg, runOrgTool, type OrgStore } from "./org/index.js";
import { A2APurpleClient, describeError, fetchAgentCard } from "./purple/index.js";
import { summaryText } from "./report/index.js";
import { createJudge, HeuristicJudge, judgeFactoryFromEnv, measureOptimum, offlineJudge, OPTIMUM_FILE, type Judge } from "./scoring/index.js";
import { generateOrg, generateTasks, writeOrgCsv, writeTasksJson } from "./sample/index.js";
import { serve } from "./server/app.js";
import { loadTaskFile } from "./tasks/load.js";
import { createLogger } from "./util/logger.js";
import { PACKAGE_VERSION } from "./version.js";

const int = (name: string) => (value: string) => {
  if (!/^-?\d+$/.test(value)) throw new InvalidArgumentError(`${name} must be a whole number`);
  return Number(value);
};
const num = (name: string) => (value: string) => {
  const parsed = Number(value);
  if (!Number.isFinite(parsed)) throw new InvalidArgumentError(`${name} must be a number`);
  return parsed;
};

const program = new Command("entropic-crmarena")
  .description("Entropic CRMArena: an A2A green agent that hosts a CRMArena-Pro org and benchmarks purple agents")
  .version(PACKAGE_VERSION);

const dataOptions = (command: Command) =>
  command
    .option("--tasks <file>", "task file (JSON, CRMArena-Pro format); default: ENTROPIC_TASKS, fetched data, else the sample")
    .option("--org <path>", "org: a CRMArena-Pro SQLite file, a folder of CSV files, or 'sample'; default: ENTROPIC_ORG, fetched data, else the sample");

dataOptions(
  program
    .command("serve")
    .description("run the green agent as an A2A server")
    .option("--host <host>", "interface to listen on", "127.0.0.1")
    .option("--port <port>", "port to listen on", int("--port"), 9009)
    .option("--card-url <url>", "public URL advertised in the agent card (default http://HOST:PORT/)")
    .option("--trajectories-dir <dir>", "write each assessment's full trajectories (JSONL) here", process.env.ENTROPIC_TRAJECTORIES_DIR),
).action(async (options: { host: string; port: number; cardUrl?: string; tasks?: string; org?: string; trajectoriesDir?: string }) => {
  const logger = createLogger();
  const data = loadAssessmentData(options, logger);
  const { url } = await serve({ host: options.host, port: options.port, data, logger, createJudge: judgeFactoryFromEnv(logger), ...(options.cardUrl ? { cardUrl: options.cardUrl } : {}), ...(options.trajectoriesDir ? { trajectoriesDir: options.trajectoriesDir } : {}) });
  logger.info({ url, host: options.host, port: options.port }, "green agent listening");
});

const configFlags: [string, string, ((value: string) => unknown)?][] = [
  ["--task-ids <ids>", "comma-separated task indices, e.g. 0,100,880"],
  ["--task-categories <names>", "comma-separated categories"],
  ["--task-limit <n>", "number of tasks (a seeded CPython-compatible sample)", int("--task-limit")],
  ["--drift-level <level>", "none|low|medium|high"],
  ["--rot-level <level>", "none|low|medium|high"],
  ["--max-steps <n>", "purple turns per task", int("--max-steps")],
  ["--timeout <seconds>", "seconds per purple call", num("--timeout")],
  ["--org-type <type>", "b2b"],
  ["--seed <n>", "assessment seed", int("--seed")],
  ["--concurrency <n>", "episodes in flight", int("--concurrency")],
  ["--shard-index <n>", "this shard (0-based)", int("--shard-index")],
  ["--num-shards <n>", "number of shards", int("--num-shards")],
];

/** Reads --config (JSON, or TOML with a [config] table as in scenario.toml). */
function readConfigFile(path: string): Record<string, unknown> {
  const text = readFileSync(path, "utf8");
  const parsed = path.endsWith(".toml") ? (parseToml(text) as Record<string, unknown>) : (JSON.parse(text) as Record<string, unknown>);
  return path.endsWith(".toml") && typeof parsed.config === "object" ? (parsed.config as Record<string, unknown>) : parsed;
}

function configFromOptions(options: Record<string, unknown>): Record<string, unknown> {
  const config: Record<string, unknown> = options.config ? readConfigFile(String(options.config)) : {};
  const keys = ["taskIds", "taskCategories", "taskLimit", "driftLevel", "rotLevel", "maxSteps", "timeout", "orgType", "seed", "concurrency", "shardIndex", "numShards"];
  for (const key of keys) {
    if (options[key] !== undefined) config[key.replace(/[A-Z]/g, (c) => `_${c.toLowerCase()}`)] = options[key];
  }
  if (options.skipOriginal) config.skip_original = true;
  return config;
}

/** A progress bar on stderr: redrawn in place on a terminal, a line per tenth otherwise (CI logs). */
function progressPrinter(): (event: AssessmentEvent) => void {
  let done = 0;
  let passed = 0;
  return (event) => {
    if (event.kind !== "task_finished") return;
    done++;
    if (event.outcome.score?.original.passed) passed++;
    const width = 30;
    const filled = Math.round((done / event.total) * width);
    const line = `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${event.total}  passed ${passed}  failed ${done - passed}`;
    if (process.stderr.isTTY) process.stderr.write(`\r${line}${done === event.total ? "\n" : ""}`);
    else if (done === event.total || Math.floor((done * 10) / event.total) > Math.floor(((done - 1) * 10) / event.total)) process.stderr.write(`${line}\n`);
  };
}

async function runLocalAssessment(agentUrl: string, options: Record<string, unknown>, judge: Judge, logger = createLogger("warn")) {
  const { config, ignoredKeys } = parseConfig(configFromOptions(options));
  await fetchAgentCard(agentUrl);
  const data = loadAssessmentData({ tasks: options.tasks as string | undefined, org: options.org as string | undefined }, logger);
  try {
    const outPath = options.out ? String(options.out) : undefined;
    const { results } = await assess(data, new A2APurpleClient(agentUrl), {
      participantUrl: agentUrl,
      config,
      ignoredConfigKeys: ignoredKeys,
      onEvent: progressPrinter(),
      judge,
      ...(outPath ? { trajectoriesDir: dirname(outPath), runId: "local" } : {}),
    });
    if (outPath) {
      await mkdir(dirname(outPath), { recursive: true });
      await writeFile(outPath, `${JSON.stringify(results, null, 2)}\n`);
    }
    process.stdout.write(`${summaryText(results)}\n${outPath ? `Results written to ${outPath}\n` : ""}`);
    return results;
  } finally {
    await data.org.close();
  }
}

const assessCommand = dataOptions(
  program
    .command("assess")
    .description("run an assessment in-process against a purple agent, no AgentBeats needed")
    .requiredOption("--agent <url>", "the purple agent's A2A URL")
    .option("--out <file>", "write the results object here (trajectories go beside it)")
    .option("--config <file>", "config as JSON, or a scenario.toml with a [config] table")
    .option("--skip-original", "omit the original CRMArena-Pro block"),
);
for (const [flags, description, parser] of configFlags) assessCommand.addOption(parser ? new Option(flags, description).argParser(parser) : new Option(flags, description));
assessCommand.action(async (options: Record<string, unknown>) => {
  await runLocalAssessment(String(options.agent), options, judgeFactoryFromEnv(createLogger("warn"))());
});

dataOptions(
  program.command("demo").description("offline end-to-end run: the solver purple on the sample tasks").option("--concurrency <n>", "episodes in flight", int("--concurrency"), 4),
).action(async (options: { tasks?: string; org?: string; concurrency: number }) => {
  const { server, url } = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
  try {
    // The demo stays offline whatever the environment holds: the deterministic judge.
    const results = await runLocalAssessment(url, { tasks: options.tasks ?? SAMPLE_TASKS_FILE, org: options.org ?? SAMPLE_ORG_DIR, concurrency: options.concurrency, out: join("output", "demo-results.json") }, new HeuristicJudge());
    if (results.summary.total_passed !== results.summary.total_tasks) process.exitCode = 1;
  } finally {
    server.close();
  }
});

program
  .command("purple")
  .description("run a reference purple agent as an A2A server")
  .addOption(new Option("--strategy <name>", "oracle answers from the ground truth; solver queries the org; llm drives an OpenAI-compatible model (docs/llm-purple.md)").choices(["oracle", "solver", "llm"]).makeOptionMandatory())
  .option("--host <host>", "interface to listen on", "127.0.0.1")
  .option("--port <port>", "port to listen on", int("--port"), 9019)
  .option("--card-url <url>", "URL the agent card advertises (AgentBeats passes it to every container)")
  .option("--tasks <file>", "task file the oracle reads its answers from (default: as the green agent chooses)")
  .option("--model <name>", "llm: the model (overrides PURPLE_LLM_MODEL)")
  .addOption(new Option("--mode <mode>", "llm: native tool calls or CRMArena-Pro tags (overrides PURPLE_LLM_MODE)").choices([...LLM_MODES]))
  .action(async (options: { strategy: "oracle" | "solver" | "llm"; host: string; port: number; cardUrl?: string; tasks?: string; model?: string; mode?: LlmMode }) => {
    if (options.strategy === "llm") {
      const config = llmPurpleConfigFromEnv(process.env, { ...(options.model ? { model: options.model } : {}), ...(options.mode ? { mode: options.mode } : {}) });
      const { url } = await serveLlmPurple({ config, host: options.host, port: options.port, ...(options.cardUrl ? { cardUrl: options.cardUrl } : {}) });
      createLogger().info({ url, strategy: "llm", model: config.model, mode: config.mode, baseURL: config.baseURL ?? "https://api.openai.com/v1" }, "reference purple agent listening");
      return;
    }
    const strategy = options.strategy === "oracle" ? oracleStrategy(loadTaskFile(options.tasks ?? chooseData({ tasks: undefined }).tasksPath)) : solverStrategy;
    const { url } = await servePurple(options.strategy, strategy, options.host, options.port, "", options.cardUrl);
    createLogger().info({ url, strategy: options.strategy }, "reference purple agent listening");
  });

const org = program.command("org").description("inspect and generate orgs");
org
  .command("synth")
  .description("generate a seeded sample org (CSV folder) and its tasks")
  .option("--seed <n>", "generator seed", int("--seed"), 42)
  .option("--scale <x>", "1 gives the real database's size (about 29,000 rows)", num("--scale"), 0.1)
  .option("--tasks-per-category <n>", "tasks per category", int("--tasks-per-category"), 2)
  .requiredOption("--out <dir>", "output folder (org/ and tasks.json go inside)")
  .action(async (options: { seed: number; scale: number; tasksPerCategory: number; out: string }) => {
    const generated = generateOrg(options.seed, options.scale);
    const tasks = generateTasks(generated, options.seed, options.tasksPerCategory);
    await writeOrgCsv(generated, join(options.out, "org"));
    await writeTasksJson(tasks, join(options.out, "tasks.json"));
    const rows = Object.values(generated.tables).reduce((sum, table) => sum + table.length, 0);
    process.stdout.write(`Wrote ${Object.keys(generated.tables).length} objects (${rows} rows) to ${join(options.out, "org")} and ${tasks.length} tasks to ${join(options.out, "tasks.json")}\n`);
  });

/** The org a purple agent would see for the given drift, rot and seed (`none`/`none` still adds IsDeleted). */
function worldOptions(command: Command): Command {
  return command
    .option("--org <path>", "org path or 'sample'", "sample")
    .addOption(new Option("--drift-level <level>", "schema drift").choices(["none", "low", "medium", "high"]))
    .addOption(new Option("--rot-level <level>", "context rot").choices(["none", "low", "medium", "high"]))
    .option("--seed <n>", "assessment seed", int("--seed"), 42);
}

async function withWorld<T>(options: { org: string; driftLevel?: Level; rotLevel?: Level; seed: number }, use: (org: OrgStore, renames: RenameMap) => Promise<T>): Promise<T> {
  const base = openOrg(resolveOrgAlias(options.org), { workers: 1 });
  const perturbed = options.driftLevel || options.rotLevel;
  const world = perturbed ? perturbOrg(base, options.driftLevel ?? "none", options.rotLevel ?? "none", options.seed) : undefined;
  try {
    return await use(world?.org ?? base, world?.renames ?? {});
  } finally {
    await world?.org.close();
    await base.close();
  }
}

worldOptions(org.command("describe").description("show the org's objects, fields, labels, types and relationships (as drifted, with --drift-level)"))
  .option("--json", "print JSON (with the rename map under drift)")
  .action(async (options: { org: string; driftLevel?: Level; rotLevel?: Level; seed: number; json?: boolean }) => {
    await withWorld(options, async (store, renames) => {
      process.stdout.write(options.json ? `${JSON.stringify({ ...store.schema, rename_map: renames }, null, 2)}\n` : `${describeObjects(store.schema.objects)}\n`);
    });
  });

worldOptions(org.command("query").description("run a query against an org as a purple agent would: SOQL, SOSL (FIND ...), or SQL with --sql"))
  .argument("<query>", "a SOQL query, a SOSL search, or (with --sql) a SQLite SELECT")
  .option("--sql", "the query is SQLite SQL")
  .option("--today <date>", "the date SOQL's TODAY and relative literals use (YYYY-MM-DD)", new Date().toISOString().slice(0, 10))
  .option("--json", "print the raw outcome as JSON")
  .action(async (query: string, options: { org: string; sql?: boolean; today: string; json?: boolean; driftLevel?: Level; rotLevel?: Level; seed: number }) => {
    if (!/^\d{4}-\d{2}-\d{2}$/.test(options.today)) throw new InvalidArgumentError("--today must be a date YYYY-MM-DD");
    await withWorld(options, async (store) => {
      const request = options.sql ? ({ tool: "sql_query", query } as const) : executeRequest(query);
      const outcome = await runOrgTool(store, request, { today: options.today });
      if (options.json) process.stdout.write(`${JSON.stringify(outcome, null, 2)}\n`);
      else if (!outcome.ok) {
        process.stderr.write(`${outcome.code}: ${outcome.message}\n`);
        process.exitCode = 1;
      } else if (outcome.kind === "records") {
        process.stdout.write(`${JSON.stringify(outcome.records, null, 2)}\n`);
        if (outcome.totalSize !== undefined && outcome.records.length === 0) process.stdout.write(`totalSize: ${outcome.totalSize}\n`);
        if (outcome.truncated) process.stdout.write("(truncated)\n");
      }
    });
  });

program
  .command("calibrate")
  .description("measure each category's optimal number of queries from the solver purple's trajectories on the sample tasks")
  .option("--out <file>", "where to write the optimum", OPTIMUM_FILE)
  .action(async (options: { out: string }) => {
    const { server, url } = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
    const data = loadAssessmentData({ tasks: SAMPLE_TASKS_FILE, org: SAMPLE_ORG_DIR }, createLogger("warn"));
    try {
      const { config } = parseConfig({ concurrency: 8 });
      const { run, results } = await assess(data, new A2APurpleClient(url), { participantUrl: url, config, ignoredConfigKeys: [], judge: new HeuristicJudge() });
      if (results.summary.total_passed !== results.summary.total_tasks) throw new Error(`the solver failed ${results.summary.total_tasks - results.summary.total_passed} sample tasks; fix it before calibrating`);
      const optimum = measureOptimum(run.outcomes.map((outcome) => outcome.trajectory), "fewest data queries of the solver purple on the bundled sample tasks (entropic-crmarena calibrate)");
      await writeFile(options.out, `${JSON.stringify(optimum, null, 2)}\n`);
      process.stdout.write(`Wrote the optimum of ${Object.keys(optimum.categories).length} categories to ${options.out}\n`);
    } finally {
      server.close();
      await data.org.close();
    }
  });

program
  .command("rescore")
  .description("re-score a finished assessment from its recorded trajectories (the JSONL file beside the results)")
  .argument("<results>", "a results file (the green agent's results object, or a leaderboard file wrapping it)")
  .option("--no-llm", "never call a model: judgements come from the cache, else the heuristic")
  .option("--tasks <file>", "the task file (default: the one recorded in the results)")
  .option("--trajectories <file>", "the trajectories file (default: the one recorded in the results)")
  .option("--judge-cache <dir>", "the judgement cache (default: ENTROPIC_JUDGE_CACHE or data/cache/judgements)")
  .option("--out <file>", "write the re-scored results here (default: stdout)")
  .action(async (path: string, options: { llm: boolean; tasks?: string; trajectories?: string; judgeCache?: string; out?: string }) => {
    const recorded = await readResults(path);
    const trajectoriesPath = options.trajectories ?? recorded.trajectories_file;
    if (!trajectoriesPath) throw new Error(`${path} names no trajectories file; pass --trajectories FILE (assess --out writes one beside the results)`);
    const tasks = loadTaskFile(options.tasks ?? recorded.data_sources.tasks);
    const llm = llmConfigFromEnv();
    const cacheDir = options.judgeCache ?? llm.cacheDir ?? join(CACHE_DIR, "judgements");
    const judge: Judge =
      recorded.judge.mode === "heuristic"
        ? new HeuristicJudge()
        : !options.llm || !llm.primary.apiKey
          ? offlineJudge({ primary: recorded.judge.primary_model ?? llm.primary.model, cheap: recorded.judge.cheap_model ?? llm.cheap.model }, cacheDir)
          : createJudge(llm, { cacheDir });
    const results = await rescore(recorded, await readTrajectories(trajectoriesPath), tasks, judge);
    const before = recorded.raw.summary as { avg_score?: number; total_passed?: number } | undefined;
    const text = `${JSON.stringify(results, null, 2)}\n`;
    if (options.out) await writeFile(options.out, text);
    else process.stdout.write(text);
    process.stderr.write(
      `Re-scored ${results.summary.total_tasks} tasks (${results.judge.verdicts.cache ?? 0} cached, ${results.judge.verdicts.llm ?? 0} new model, ${results.judge.verdicts.heuristic ?? 0} heuristic verdicts): passed ${before?.total_passed} -> ${results.summary.total_passed}, avg score ${before?.avg_score} -> ${results.summary.avg_score}\n`,
    );
  });

program
  .command("data")
  .description("manage the real CRMArena-Pro data")
  .command("fetch")
  .description("download the CRMArena-Pro B2B tasks and org database into data/cache/ (resumable, checksum-verified)")
  .option("--force", "download again even if the files are present")
  .action(async (options: { force?: boolean }) => {
    await fetchData({ force: options.force ?? false });
  });

program.parseAsync().catch((error: unknown) => {
  process.stderr.write(`entropic-crmarena: ${describeError(error)}\n`);
  process.exit(1);
});
