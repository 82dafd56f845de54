import { assess, parseConfig } from "./src/assessment/index.ts";
import { naiveStrategy, servePurple, solverStrategy } from "./src/baselines/index.ts";
import { openOrg } from "./src/org/index.ts";
import { loadTaskFile } from "./src/tasks/load.ts";
import { A2APurpleClient } from "./src/purple/index.ts";
const data = { tasks: loadTaskFile("data/sample/tasks.json"), org: openOrg("data/sample/org", { workers: 2 }), dataset: "sample" as const };
const solver = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
const naive = await servePurple("naive", naiveStrategy, "127.0.0.1", 0);
for (const [drift, rot] of [["high", "none"], ["none", "high"], ["medium", "medium"], ["high", "high"]] as const) {
  for (const [name, p] of [["solver", solver], ["naive", naive]] as const) {
    const { config } = parseConfig({ drift_level: drift, rot_level: rot, seed: 7, concurrency: 8 });
    const { results } = await assess(data, new A2APurpleClient(p.url), { participantUrl: p.url, config, ignoredConfigKeys: [] });
    const fails = results.results.filter((e: any) => !e.success).map((e: any) => `${e.task_idx}:${e.task_category}:${String(e.agent_answer ?? e.error).slice(0, 80)}`);
    console.log(drift, rot, name, results.summary.total_passed, "/", results.summary.total_tasks, name === "solver" ? fails.slice(0, 6) : "");
  }
}
solver.server.close(); naive.server.close(); await data.org.close();
