import { Command } from "commander";
import { PACKAGE_VERSION } from "../version.js";
import { registerAssess } from "./assess.js";
import { registerCalibrate } from "./calibrate.js";
import { registerCheckPurple } from "./check-purple.js";
import { registerCompare } from "./compare.js";
import { registerData } from "./data.js";
import { registerMerge } from "./merge.js";
import { registerOrg } from "./org.js";
import { registerPurple } from "./purple.js";
import { registerReport } from "./report.js";
import { registerRescore } from "./rescore.js";
import { registerServe } from "./serve.js";
import { registerShow } from "./show.js";
import { registerTwins } from "./twins.js";
import { registerValidity } from "./validity.js";

/** The `entropic-crmarena` command: one module per subcommand group. */
export function buildProgram(): Command {
  const program = new Command("entropic-crmarena")
    .description("Entropic CRMArena: an A2A green agent that hosts a CRMArena-Pro org and benchmarks purple agents")
    .version(PACKAGE_VERSION);
  registerServe(program);
  registerAssess(program);
  registerPurple(program);
  registerCheckPurple(program);
  registerOrg(program);
  registerTwins(program);
  registerCalibrate(program);
  registerRescore(program);
  registerMerge(program);
  registerData(program);
  registerValidity(program);
  registerReport(program);
  registerShow(program);
  registerCompare(program);
  return program;
}

export { demoResultsFile } from "./assess.js";
export { errorText, exitCodeOf } from "./exit-codes.js";
export { DEFAULT_HEAP_GROWING_PERCENT, HEAP_GROWTH_ENV, heapGrowingPercentFromEnv, tuneHeapGrowth } from "./heap.js";
