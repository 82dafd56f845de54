import { B2B_CATALOGUE } from "../b2b/categories.js";
import { CRMARENA_PRO_B2B } from "../crmarena-pro-b2b/index.js";
import { CACHE_DIR } from "../paths.js";
import type { DatasetSpec } from "../spec.js";

/**
 * CRMArena-Pro's interactive B2B split: the same org as the benchmark and its own task file, whose
 * records have the b2b file's fields (CRMArena's interactive environment reads `query` and
 * `persona` for its user). Run it with `mode: "interactive"`; `data fetch --dataset` downloads it
 * at the benchmark's pinned revision, and loading it checks every record's shape.
 */
export const CRMARENA_PRO_B2B_INTERACTIVE = {
  name: "crmarena-pro-b2b-interactive",
  orgType: "b2b",
  description: "the real CRMArena-Pro B2B interactive tasks (for mode interactive) and the B2B org",
  tasksPath: `${CACHE_DIR}tasks_b2b_interactive.json`,
  orgPath: CRMARENA_PRO_B2B.orgPath,
  categories: [...B2B_CATALOGUE],
  fetch: {
    ...CRMARENA_PRO_B2B.fetch,
    tasks: {
      file: "tasks_b2b_interactive.json",
      url: CRMARENA_PRO_B2B.fetch.tasks.url.replace(/tasks_b2b\.json$/, "tasks_b2b_interactive.json"),
      urlEnv: "ENTROPIC_INTERACTIVE_TASKS_URL",
    },
    title: "CRMArena-Pro B2B interactive",
  },
  whenMissing: "run `npx tsx src/cli.ts data fetch --dataset crmarena-pro-b2b-interactive` (`entropic-crmarena data fetch ...` when installed) on the green agent's machine",
} as const satisfies DatasetSpec;
