/**
 * Twin benchmark: how long the twin set of the real task file takes to build (every category,
 * the full-size org), and the query latency on the twin org (the SOQL corpus and SOSL searches,
 * through the query processes the green agent uses). The twins are built in-process, without
 * the cache, so the time is the build's.
 *
 *   npm run bench:twins [-- --tasks ../shared/data/crmarenapro/b2b_tasks.json --seed 1 --rounds 5]
 */
import { mkdtempSync } from "node:fs";
import { tmpdir } from "node:os";
import { join } from "node:path";
import { parseArgs } from "node:util";
import { type OrgRequest, openBackend, runOrgTool } from "../src/org/index.js";
import { writeOrgCsv } from "../src/sample/index.js";
import { loadTaskFile } from "../src/tasks/index.js";
import { buildTwins, TwinKey } from "../src/twins/index.js";
import { SOQL_CORPUS } from "../tests/support/soql-corpus-cases.js";

const { values } = parseArgs({
  options: {
    tasks: { type: "string", default: process.env.ENTROPIC_TASKS ?? "../shared/data/crmarenapro/b2b_tasks.json" },
    seed: { type: "string", default: "1" },
    rounds: { type: "string", default: "5" },
  },
});
const SOSL = [
  "FIND {scalability} IN ALL FIELDS RETURNING Knowledge__kav(Id, Title, FAQ_Answer__c)",
  "FIND {Aisha} IN NAME FIELDS RETURNING Contact(Id, Name), Lead(Id, Name)",
  "FIND {refund} RETURNING EmailMessage(Id, Subject)",
  "FIND {(login OR installation) AND error} RETURNING Case(Id, Subject)",
];

const percentile = (sorted: number[], p: number) => sorted[Math.min(sorted.length - 1, Math.ceil((p / 100) * sorted.length) - 1)]!;

async function main() {
  const source = loadTaskFile(values.tasks).tasks;
  const started = performance.now();
  const set = buildTwins(source, TwinKey.unkeyed(Number(values.seed)));
  const buildMs = performance.now() - started;
  const rows = Object.values(set.world.tables).reduce((sum, table) => sum + table.length, 0);
  process.stdout.write(
    `twins: ${set.tasks.length} of ${source.length} tasks twinned (${set.missing.length} missing) at seed ${values.seed} in ${(buildMs / 1000).toFixed(2)} s; twin org ${rows} rows\n`,
  );
  const dir = mkdtempSync(join(tmpdir(), "bench-twins-"));
  await writeOrgCsv(set.world.toOrg(), dir);
  const store = await openBackend(dir, { workers: 2 });
  const requests: { kind: string; request: OrgRequest }[] = [
    ...Object.values(SOQL_CORPUS)
      .flat()
      .map((entry) => ({ kind: "soql", request: { tool: "soql_query", query: entry.soql } as OrgRequest })),
    ...SOSL.map((search) => ({ kind: "sosl", request: { tool: "sosl_search", search } as OrgRequest })),
  ];
  const context = { today: "2023-06-15" };
  for (const { request } of requests) await runOrgTool(store, request, context); // warm-up
  const timings: Record<string, number[]> = { soql: [], sosl: [] };
  for (let round = 0; round < Number(values.rounds); round++)
    for (const { kind, request } of requests) {
      const at = performance.now();
      await runOrgTool(store, request, context);
      timings[kind]!.push(performance.now() - at);
    }
  await store.close();
  for (const [kind, list] of Object.entries({ ...timings, all: [...timings.soql!, ...timings.sosl!] })) {
    const sorted = [...list].sort((a, b) => a - b);
    process.stdout.write(`${kind.padEnd(5)} n=${String(sorted.length).padStart(5)}  p50 ${percentile(sorted, 50).toFixed(2)} ms  p99 ${percentile(sorted, 99).toFixed(2)} ms\n`);
  }
  process.stdout.write("targets: the whole set in well under a minute; query p99 <= 20 ms\n");
}

await main();
