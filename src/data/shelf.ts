import type { Logger } from "pino";
import type { AssessmentData } from "../assessment/index.js";
import { chooseDataset, datasetNamed } from "../datasets/index.js";
import type { OpenOrgOptions } from "../org/index.js";
import { builtCacheDir, type DatasetBuild } from "./builder.js";
import { buildDataset, builderFor, namedTasksFile } from "./builders.js";
import { resolveIdSecret } from "./id-secret.js";
import { type DataConfig, seedOf } from "./load.js";
import { loadDataset } from "./open.js";

/**
 * How many built sets a shelf keeps open with no assessment on them. A twin set is a full-size
 * org (about 29,000 rows) in the main process and in every query process, and a request's seed
 * chooses the set, so without a bound every seed asked for would stay in memory; a set an
 * assessment is using is never closed, and one closed is built again (from its cache) on demand.
 */
export const IDLE_BUILT_SETS = 2;

/** A built set on the shelf: which dataset, seed and trials it was built for. */
interface BuiltEntry {
  readonly dataset: string;
  readonly seed: number;
  readonly trials: number;
}

/**
 * The data of one server: what it started with, and every other registered dataset loaded on
 * the first request that names it (then kept for the process), so one server hosts several task
 * sets without holding those nobody asks for. A dataset that builds its own data (src/data/builder.ts)
 * is one set per seed and number of trials (the operator's secret and task file being the
 * server's), each built on the first request of its seed and closed again once idle beyond
 * IDLE_BUILT_SETS; a server that started on a built dataset serves it to every request that names
 * no dataset, and the set it started with to the requests that would build that very set.
 */
export class DatasetShelf {
  // Promises, so two requests for a dataset not yet loaded share one load (the org factory may become asynchronous).
  private readonly loaded = new Map<string, Promise<AssessmentData>>();
  /** The built sets among `loaded`, by their key. */
  private readonly built = new Map<string, BuiltEntry>();
  /** Per built set's key: the requests holding it (given, not yet handed back with doneWith). */
  private readonly holders = new Map<string, number>();
  /** Built set keys, least recently handed out first. */
  private recent: string[] = [];
  private readonly keyOf = new WeakMap<AssessmentData, string>();

  constructor(
    readonly initial: AssessmentData,
    private readonly logger: Logger,
    private readonly orgOptions: OpenOrgOptions = {},
    /** The task file built datasets are built from (the server's --tasks / ENTROPIC_TASKS; a builder has its own fallback: the twins', the fetched file). */
    private readonly tasksFile: string | undefined = namedTasksFile({}),
    /** The operator's secret built sets are keyed by (read when a set is asked for). */
    private readonly secret: () => string = resolveIdSecret,
  ) {}

  /**
   * The data a request's config chooses (`chooseDataset`); a choice that cannot be served throws
   * DatasetChoiceError naming the field. A built set is held for the request until `doneWith`.
   */
  async forConfig(config: DataConfig): Promise<AssessmentData> {
    const startedOnBuilt = builderFor(this.initial.dataset) ? this.initial.dataset : undefined;
    const wanted = config.dataset === undefined && startedOnBuilt ? { ...config, dataset: startedOnBuilt } : config;
    const name = chooseDataset(wanted, this.initial.dataset);
    const field = config.dataset === undefined ? "config.org_type" : "config.dataset";
    const builtName = name === "default" ? startedOnBuilt : builderFor(name) ? name : undefined;
    if (builtName) return this.builtSet(builtName, config, field);
    if (name === "default") return this.initial;
    return this.shelved(name, () => loadDataset(datasetNamed(name)!, this.logger, this.orgOptions, field));
  }

  /** A built set of `dataset` for the request: the server's own when it is that set, else one of the shelf's (built on first use). */
  private async builtSet(dataset: string, config: DataConfig, field: string): Promise<AssessmentData> {
    const startedOnIt = this.initial.dataset === dataset;
    const build: DatasetBuild = {
      seed: seedOf(config),
      trials: config.trials ?? 1,
      secret: this.secret(),
      // A server started on a built set builds the other seeds from the file that set was built from.
      tasksFile: (startedOnIt ? this.initial.sources.tasks.builtFrom?.source.path : undefined) ?? this.tasksFile,
      logger: this.logger,
      orgOptions: this.orgOptions,
      field,
      cacheDir: builtCacheDir(dataset),
    };
    if (startedOnIt && builderFor(dataset)!.isSet?.(this.initial, build)) return this.initial;
    // In memory only: what a builder keeps on disk is keyed by its own inputs (the twins: the secret's key digest, never the seed).
    const key = `${dataset}:${build.seed}:${build.trials}`;
    this.built.set(key, { dataset, seed: build.seed, trials: build.trials });
    this.holders.set(key, (this.holders.get(key) ?? 0) + 1);
    this.recent = [...this.recent.filter((other) => other !== key), key];
    try {
      const data = await this.shelved(key, () => buildDataset(dataset, build));
      this.keyOf.set(data, key);
      return data;
    } catch (error) {
      this.letGo(key);
      throw error;
    }
  }

  /** A request is done with data `forConfig` gave: a built set nobody holds may now be closed (the least recently used beyond IDLE_BUILT_SETS). */
  doneWith(data: AssessmentData): void {
    const key = this.keyOf.get(data);
    if (key) this.letGo(key);
  }

  /** The sets of a built dataset open now, by seed (for tests and the log; a seed twice when it is open at two numbers of trials). */
  openSeeds(dataset: string): number[] {
    return [...this.loaded.keys()].flatMap((key) => {
      const entry = this.built.get(key);
      return entry?.dataset === dataset ? [entry.seed] : [];
    });
  }

  private letGo(key: string): void {
    const left = (this.holders.get(key) ?? 1) - 1;
    if (left > 0) this.holders.set(key, left);
    else this.holders.delete(key);
    const idle = this.recent.filter((candidate) => !this.holders.has(candidate) && this.loaded.has(candidate));
    for (const evicted of idle.slice(0, Math.max(0, idle.length - IDLE_BUILT_SETS))) {
      const data = this.loaded.get(evicted)!;
      this.loaded.delete(evicted);
      this.recent = this.recent.filter((candidate) => candidate !== evicted);
      this.logger.info({ builtSet: this.built.get(evicted) }, "built set closed: no assessment holds it, and newer ones are open (it is built again, from its cache, on demand)");
      this.built.delete(evicted);
      void data.then(
        (opened) => opened.org.close(),
        () => {},
      );
    }
  }

  private shelved(key: string, load: () => Promise<AssessmentData>): Promise<AssessmentData> {
    let data = this.loaded.get(key);
    if (!data) {
      data = Promise.resolve().then(load);
      this.loaded.set(key, data);
      // A dataset that could not be loaded is tried again by the next request (its files may have been fetched since).
      data.catch(() => this.loaded.delete(key));
    }
    return data;
  }

  /** Closes the orgs this shelf loaded; the initial data's org belongs to whoever loaded it. */
  async close(): Promise<void> {
    const opened = await Promise.allSettled(this.loaded.values());
    this.loaded.clear();
    await Promise.all(opened.flatMap((result) => (result.status === "fulfilled" ? [result.value.org.close()] : [])));
  }
}
