import { existsSync } from "node:fs";
import { fileURLToPath } from "node:url";

/** Where the tests read the real CRMArena-Pro task file: beside the clone, never inside it (its licence is CC BY-NC 4.0). */
const REAL_TASKS = fileURLToPath(new URL("../../../shared/data/crmarenapro/b2b_tasks.json", import.meta.url));

/**
 * Vitest's global setup: a clone without the real task file fails here once, saying what is
 * missing and where it comes from, instead of a bare ENOENT in each file that reads it.
 */
export default function checkRealTasks(): void {
  if (existsSync(REAL_TASKS)) return;
  throw new Error(
    [
      `npm test reads the real CRMArena-Pro B2B task file at ${REAL_TASKS}, and it is not there.`,
      "It is the dataset Salesforce/CRMArenaPro (CC BY-NC 4.0), kept outside the repository: put its b2b_tasks.json at that path",
      "(`npx tsx src/cli.ts data fetch` downloads it into data/cache/; copy or link it from there), then run npm test again.",
    ].join("\n"),
  );
}
