import { join } from "node:path";
import type { Logger } from "pino";
import type { AssessmentData } from "../assessment/index.js";
import { CACHE_DIR } from "../datasets/index.js";
import type { OpenOrgOptions } from "../org/index.js";
import { environment } from "../util/index.js";

/**
 * What a dataset that builds its own tasks and org is given to build one set: every input a set
 * may depend on, so that the set is a function of them and of the builder's own version
 * (reproducible: every random choice flows from the seed and the secret; no clock).
 */
export interface DatasetBuild {
  /** The assessment's seed: a set per seed. */
  readonly seed: number;
  /** Trials of the run: a set may hold a task per trial (`AssessmentData.trialTask`), as the twins do. */
  readonly trials: number;
  /**
   * The operator's secret (the Id remap's, `resolveIdSecret`): what keeps a purple that knows the
   * seed and this code from building the same set. Undefined for a public measurement anyone may
   * repeat from the seed alone (the validity suite, `calibrate`), never for a run a purple could game.
   */
  readonly secret: string | undefined;
  /** The task file the operator named (--tasks, ENTROPIC_TASKS) or the built set a server started on was built from, for a dataset built from a task file. */
  readonly tasksFile: string | undefined;
  /** The dataset's own cache folder (ENTROPIC_CACHE_DIR/<name>, else data/cache/<name>/): where a builder keeps what it built, under a key of its own inputs. */
  readonly cacheDir: string;
  readonly logger: Logger;
  /** How the built org is opened (workers of its query pool). */
  readonly orgOptions: OpenOrgOptions;
  /** The request's field (or flag) a refusal names: "config.dataset", "--dataset", "the default data (<name>)". */
  readonly field: string;
}

/**
 * A dataset that builds its tasks and org at run time instead of naming files: its spec is
 * registered in src/datasets/ like any other (name, org type, catalogue, calibration), and this,
 * registered by the same name (`registerBuiltDataset`), makes a set. Loading, the server's shelf
 * (a set per seed and trials, idle ones closed), the demo and `calibrate` ask the builder and
 * know no dataset by name.
 */
export interface DatasetBuilder {
  /** The registered dataset's name. */
  readonly name: string;
  /** Builds (or reads from its cache) the set of `build` and opens it (`openData`, which checks the tasks against the catalogue). */
  build(build: DatasetBuild): Promise<AssessmentData>;
  /** Is `data` (the set a server started on) the set `build` would make? Then the shelf serves it instead of building another. */
  isSet?(data: AssessmentData, build: DatasetBuild): boolean;
  /**
   * Asked only when the operator names no data (no --tasks, --org, ENTROPIC_TASKS or
   * ENTROPIC_ORG): is this dataset what a server or command runs then? The first builder that
   * says so is the default world (the twins, when the real task file is fetched and the real org is not).
   */
  isOfflineDefault?(): boolean;
}

/**
 * A built dataset's cache folder: ENTROPIC_CACHE_DIR's <name>/ (as `data fetch` honours it), else
 * data/cache/<name>/ in the installation (the twins': TWINS_CACHE_DIR).
 */
export const builtCacheDir = (dataset: string, env: NodeJS.ProcessEnv = environment()): string =>
  env.ENTROPIC_CACHE_DIR ? join(env.ENTROPIC_CACHE_DIR, dataset) : `${CACHE_DIR}${dataset}/`;
