import { B2B_CATALOGUE } from "../b2b/categories.js";
import { CACHE_DIR, DATA_DIR } from "../paths.js";
import type { DatasetSpec } from "../spec.js";

/**
 * The version of the twin builder's output. It is part of the twin cache's key (with the source
 * file's content, the twin key's digest and the twins per task), so a change to how twins are
 * made (a twin maker, an answer program, the twin world, the key) is a bump here, and every
 * cached set is built again.
 */
export const TWINS_VERSION = 4;

/** The twins' calibration: the reference analyst on twins (`entropic-crmarena calibrate --dataset twins`). */
export const TWINS_CALIBRATION_FILE = `${DATA_DIR}calibration-twins.json`;

/** Where built twin sets are kept, one folder per source file, twin key (by its digest), twins per task and TWINS_VERSION. */
export const TWINS_CACHE_DIR = `${CACHE_DIR}twins/`;

/**
 * The twin set: each real CRMArena-Pro B2B task's wording on a freshly generated full-size org,
 * its answer computed there (src/twins/). Nothing of it ships: it is built on the operator's
 * machine from the real task file (--tasks, ENTROPIC_TASKS, or the file `data fetch` downloads)
 * and a key of the operator's secret and the assessment's seed, then cached under TWINS_CACHE_DIR. Its `tasksPath` and `orgPath`
 * name the cache folder; each built set lives in a subfolder of it (src/data/twins.ts).
 */
export const TWINS = {
  name: "twins",
  orgType: "b2b",
  description: "twins of the real CRMArena-Pro B2B tasks on a generated full-size org, built per seed from the real task file",
  tasksPath: TWINS_CACHE_DIR,
  orgPath: TWINS_CACHE_DIR,
  categories: [...B2B_CATALOGUE],
  calibrationPath: TWINS_CALIBRATION_FILE,
  whenMissing:
    "the twins are built from the real task file: pass --tasks <CRMArena-Pro B2B task file> (or set ENTROPIC_TASKS), or run `npx tsx src/cli.ts data fetch` (`entropic-crmarena data fetch` when installed) to download it",
} as const satisfies DatasetSpec;
