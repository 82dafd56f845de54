import { assess, parseConfig } from "./src/assessment/index.js";
import { naiveStrategy, servePurple, solverStrategy } from "./src/baselines/index.js";
import { loadAssessmentData, loadCalibration } from "./src/data/load.js";
import { A2APurpleClient } from "./src/purple/index.js";
import { createLogger } from "./src/util/logger.js";
const data = loadAssessmentData({ tasks: "data/sample/tasks.json", org: "data/sample/org" }, createLogger("silent"));
const solver = await servePurple("solver", solverStrategy, "127.0.0.1", 0);
const naive = await servePurple("naive", naiveStrategy, "127.0.0.1", 0);
for (const [drift, rot] of [["none","none"],["low","low"],["medium","medium"],["high","high"]] as const) for (const seed of [1,2]) {
  for (const [name, p] of [["solver", solver], ["naive", naive]] as const) {
    const { config } = parseConfig({ drift_level: drift, rot_level: rot, seed, concurrency: 8 });
    const { results } = await assess(data, new A2APurpleClient(p.url), { participantUrl: p.url, config, ignoredConfigKeys: [], calibration: loadCalibration() });
    const fails = results.results.filter((e: any) => !e.success).map((e: any) => `${e.task_idx}:${e.task_category}:${String(e.agent_answer ?? e.error).slice(0, 100)}`);
    console.log(drift, rot, seed, name, results.summary.total_passed, "/", results.summary.total_tasks, results.summary.avg_score, name === "solver" ? fails.slice(0, 5) : "");
  }
}
solver.server.close(); naive.server.close(); await data.org.close();
