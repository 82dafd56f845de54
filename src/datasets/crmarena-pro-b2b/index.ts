import { B2B_CATALOGUE } from "../b2b/categories.js";
import { CACHE_DIR } from "../paths.js";
import type { DatasetSpec } from "../spec.js";

/** The pinned upstream files of CRMArena-Pro B2B; each URL can be overridden from the environment (tests, mirrors). */
const SOURCES = {
  tasks: {
    file: "tasks_b2b.json",
    url: "https://huggingface.co/datasets/Salesforce/CRMArenaPro/resolve/8c055f5b45f15f7d996ee99277c4d0ea5049c6a8/tasks_b2b.json",
    urlEnv: "ENTROPIC_TASKS_URL",
  },
  org: {
    file: "crmarenapro_b2b_data.db",
    url: "https://raw.githubusercontent.com/SalesforceAIResearch/CRMArena/2288dd6d5a74f41105c153138983a517f29ebb65/local_data/crmarenapro_b2b_data.db",
    urlEnv: "ENTROPIC_ORG_URL",
    /** Git blob SHA-1 of the database at the pinned commit. */
    gitBlobSha1: "6e1978093efd0a7a7c97b65c124d12d098bb917f",
    sha1Env: "ENTROPIC_ORG_SHA1",
  },
  licence: "CC BY-NC 4.0",
  title: "CRMArena-Pro B2B",
} as const;

/** The real benchmark: CRMArena-Pro's 2,140 B2B tasks and its org database, downloaded by `data fetch`. */
export const CRMARENA_PRO_B2B = {
  name: "crmarena-pro-b2b",
  orgType: "b2b",
  description: "the real CRMArena-Pro B2B tasks and org",
  tasksPath: `${CACHE_DIR}${SOURCES.tasks.file}`,
  orgPath: `${CACHE_DIR}${SOURCES.org.file}`,
  categories: [...B2B_CATALOGUE],
  fetch: SOURCES,
  whenMissing: "run `npx tsx src/cli.ts data fetch` (`entropic-crmarena data fetch` when installed) on the green agent's machine (or build the image with the data)",
} as const satisfies DatasetSpec;
