import { resolve } from "node:path";
import { calibrationFor, loadCalibration, loadTwins, SAMPLE_ORG_DIR, SAMPLE_TASKS_FILE } from "./src/data/index.js";
import { SAMPLE, TWINS } from "./src/datasets/index.js";
import { openBackend } from "./src/org/index.js";
import { loadTaskFile } from "./src/tasks/index.js";
import { createLogger } from "./src/util/index.js";
import { runAdversarySuite } from "./src/validity/adversary/index.js";
const families = process.argv.slice(2) as never;
const tasks = loadTaskFile(SAMPLE_TASKS_FILE);
const org = await openBackend(SAMPLE_ORG_DIR, { workers: 2 });
const data = { tasks, org, dataset: SAMPLE.name, sources: { tasks: { path: SAMPLE_TASKS_FILE, kind: SAMPLE.name }, org: { path: SAMPLE_ORG_DIR, kind: SAMPLE.name } } };
const real = "../shared/data/crmarenapro/b2b_tasks.json";
const t = Date.now();
const report = await runAdversarySuite({
  sample: data as never, calibration: loadCalibration(), families,
  twins: { source: loadTaskFile(resolve(real)).tasks, data: (seed) => loadTwins(resolve(real), seed, createLogger("warn"), { workers: 2 }, "--adversary"), calibration: calibrationFor(TWINS.name) },
  onProgress: (l) => console.error(l, ((Date.now() - t) / 1000).toFixed(1)),
});
if (!("missing" in report)) for (const r of report.rows) console.log([r.family, r.purple, r.setting, r.figure, r.rule, r.ok ? "holds" : "FAILS", r.detail].join(" | "));
await org.close();
