import { assess, parseConfig } from "./src/assessment/index.js";
import { naiveAllRowsStrategy, naiveStrategy, servePurple } from "./src/baselines/index.js";
import { loadAssessmentData, loadCalibration } from "./src/data/load.js";
import { perturbationKinds } from "./src/entropy/index.js";
import { A2APurpleClient } from "./src/purple/index.js";
import { createLogger } from "./src/util/logger.js";
import { generateOrg, generateTasks } from "./src/sample/index.js";
import { parseTasks } from "./src/tasks/load.js";
const base = loadAssessmentData({ tasks: "data/sample/tasks.json", org: "data/sample/org" }, createLogger("silent"));
const data = { ...base, tasks: parseTasks(JSON.parse(JSON.stringify(generateTasks(generateOrg(42, 0.1), 42, 10))), "calibration") };
const naive = await servePurple("naive", naiveStrategy, "127.0.0.1", 0);
const allRows = await servePurple("naive", naiveAllRowsStrategy, "127.0.0.1", 0);
for (const kind of perturbationKinds()) {
  const out: string[] = [];
  for (const [name, p] of [["naive", naive], ["allrows", allRows]] as const) {
    let passed = 0, total = 0;
    for (const seed of [1]) {
      const { config } = parseConfig({ drift_level: "high", rot_level: "high", seed, concurrency: 8, perturbations: [kind.name] });
      const { results } = await assess(data, new A2APurpleClient(p.url), { participantUrl: p.url, config, ignoredConfigKeys: [], calibration: loadCalibration() });
      passed += results.summary.total_passed; total += results.summary.total_tasks;
    }
    out.push(`${name} ${passed}/${total}`);
  }
  console.log(kind.name, out.join("  "));
}
naive.server.close(); allRows.server.close(); await base.org.close();
