import { join } from "node:path";
import { InvalidArgumentError, Option, type Command } from "commander";
import type { Level } from "../assessment/index.js";
import { resolveOrgAlias } from "../data/paths.js";
import { perturbOrg, type RenameMap } from "../entropy/index.js";
import { describeObjects, executeRequest, openOrg, runOrgTool, type OrgStore } from "../org/index.js";
import { generateOrg, generateTasks, writeOrgCsv, writeTasksJson } from "../sample/index.js";
import { int, num } from "./options.js";

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
      process.stdout.write(`Wrote ${Object.keys(generated.tables).length} objects (${rows} rows) to ${join(options.out, "org")} and ${tasks.length} tasks to ${join(options.out, "tasks.json")}\n`);
    });

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
}
