import { join } from "node:path";
import { type Command, InvalidArgumentError, Option } from "commander";
import { resolveIdSecret, resolveOrgAlias } from "../data/index.js";
import { SAMPLE } from "../datasets/index.js";
import { LEVELS, type Level, summarisePlan } from "../entropy/index.js";
import { openBackend } from "../org/index.js";
import { describeObjects } from "../protocol/index.js";
import { generateOrg, generateTasks, writeOrgCsv, writeTasksJson } from "../sample/index.js";
import { executeRequest, sqlQuery } from "../tools/index.js";
import { IdRemap } from "../util/index.js";
import { OrgView } from "../world/index.js";
import { int, num } from "./options.js";

interface WorldOptions {
  readonly org: string;
  readonly driftLevel: Level;
  readonly rotLevel: Level;
  readonly seed: number;
  readonly remapIds: boolean;
}

/** The org a purple sees in an assessment with these levels and seed (the defaults are an assessment's defaults). */
function worldOptions(command: Command): Command {
  return command
    .option("--org <path>", "org path, or a dataset's name for its org", SAMPLE.name)
    .addOption(new Option("--drift-level <level>", "schema drift").choices([...LEVELS]).default("none"))
    .addOption(new Option("--rot-level <level>", "context rot").choices([...LEVELS]).default("none"))
    .option("--seed <n>", "assessment seed", int("--seed"), 42)
    .option("--no-remap-ids", "the dataset's own record Ids (an assessment remaps them per seed unless config remap_ids is false)");
}

/** The view of the org an assessment with these settings would give its purple (no tasks: no text perturbations). */
async function withView<T>(options: WorldOptions, use: (view: OrgView) => Promise<T>): Promise<T> {
  const base = await openBackend(resolveOrgAlias(options.org), { workers: 1 });
  // The same sandbox refresh as an assessment with this seed (and the operator's ENTROPIC_ID_SECRET, if set).
  const remap = options.remapIds ? IdRemap.forRun(options.seed, resolveIdSecret()) : undefined;
  const view = await OrgView.plan(base, { drift_level: options.driftLevel, rot_level: options.rotLevel, seed: options.seed }, [], [], remap);
  try {
    return await use(view);
  } finally {
    await view.close();
    await base.close();
  }
}

export function registerOrg(program: Command): void {
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
      process.stdout.write(
        `Wrote ${Object.keys(generated.tables).length} objects (${rows} rows) to ${join(options.out, "org")} and ${tasks.length} tasks to ${join(options.out, "tasks.json")}\n`,
      );
    });

  worldOptions(org.command("describe").description("show the org as a purple sees it: objects, fields, labels, types, relationships and notes"))
    .argument("[objects...]", "only these objects")
    .option("--json", "print JSON (with the entropy plan's summary)")
    .action(async (objects: string[], options: WorldOptions & { json?: boolean }) => {
      await withView(options, async (view) => {
        const wanted = objects.map((name) => name.toLowerCase());
        const unknown = wanted.filter((name) => !view.schema.objects.some((object) => object.name.toLowerCase() === name));
        if (unknown.length > 0)
          throw new InvalidArgumentError(`unknown objects ${unknown.join(", ")}; the objects are ${view.schema.objects.map((object) => object.name).join(", ")}`);
        const shown = wanted.length === 0 ? view.schema.objects : view.schema.objects.filter((object) => wanted.includes(object.name.toLowerCase()));
        process.stdout.write(options.json ? `${JSON.stringify({ objects: shown, entropy: summarisePlan(view.plan) }, null, 2)}\n` : `${describeObjects(shown)}\n`);
      });
    });

  worldOptions(org.command("query").description("run a query as a purple would: SOQL, SOSL (FIND ...), or SQL with --sql"))
    .argument("<query>", "a SOQL query, a SOSL search, or (with --sql) a SQLite SELECT")
    .option("--sql", "the query is SQLite SQL (raw tables: recycle-bin rows included)")
    .option("--today <date>", "the date SOQL's TODAY and relative literals use (YYYY-MM-DD; default: the org's latest date, as a task's own date would be)")
    .option("--json", "print the raw outcome as JSON")
    .action(async (query: string, options: WorldOptions & { sql?: boolean; today?: string; json?: boolean }) => {
      if (options.today !== undefined && !/^\d{4}-\d{2}-\d{2}$/.test(options.today)) throw new InvalidArgumentError("--today must be a date YYYY-MM-DD");
      await withView(options, async (view) => {
        const request = options.sql ? { tool: sqlQuery.name, query } : (({ tool, args }) => ({ tool, ...args }))(executeRequest(query));
        const outcome = await view.runTool(request, options.today ?? (await view.today()));
        if (options.json) process.stdout.write(`${JSON.stringify(outcome, null, 2)}\n`);
        else if (!outcome.ok) {
          process.stderr.write(`${outcome.code}: ${outcome.message}\n`);
          process.exitCode = 1;
        } else if (outcome.kind === "records") {
          process.stdout.write(`${JSON.stringify(outcome.records, null, 2)}\n`);
          if (outcome.totalSize !== undefined && outcome.records.length === 0) process.stdout.write(`totalSize: ${outcome.totalSize}\n`);
          if (outcome.truncated) process.stdout.write("(truncated)\n");
        } else process.stdout.write(`${describeObjects(outcome.objects)}\n`);
      });
    });
}
