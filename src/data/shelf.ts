import type { Logger } from "pino";
import type { AssessmentData } from "../assessment/index.js";
import { chooseDataset, datasetNamed, TWINS } from "../datasets/index.js";
import type { OpenOrgOptions } from "../org/index.js";
import { resolveIdSecret } from "./id-secret.js";
import { type DataConfig, loadDataset, loadTwins, seedOf } from "./load.js";
import { twinKeyFor, twinSourceFile } from "./twins.js";

/**
 * How many twin sets a shelf keeps open with no assessment on them. Each is a full-size org
 * (about 29,000 rows) in the main process and in every query process, and a request's seed
 * chooses the set, so without a bound every seed asked for would stay in memory; a set an
 * assessment is using is never closed, and one closed is built again from the cache on demand.
 */
export const IDLE_TWIN_SETS = 2;

/**
 * The data of one server: what it started with, and every other registered dataset loaded on
 * the first request that names it (then kept for the process), so one server hosts several task
 * sets without holding those nobody asks for. The twins are one set per seed (and number of
 * trials), each built (or read from the cache) on the first request of its seed and closed again once idle beyond
 * IDLE_TWIN_SETS; a server that started on the twins serves them to every request that names no
 * dataset.
 */
export class DatasetShelf {
  // Promises, so two requests for a dataset not yet loaded share one load (the org factory may become asynchronous).
  private readonly loaded = new Map<string, Promise<AssessmentData>>();
  /** Per twin set's key: the requests holding it (given, not yet handed back with doneWith). */
  private readonly holders = new Map<string, number>();
  /** Twin set keys, least recently handed out first. */
  private recent: string[] = [];
  private readonly keyOf = new WeakMap<AssessmentData, string>();

  constructor(
    readonly initial: AssessmentData,
    private readonly logger: Logger,
    private readonly orgOptions: OpenOrgOptions = {},
    /** The real task file twins are built from (the server's --tasks / ENTROPIC_TASKS, else the fetched one). */
    private readonly twinSource: string | undefined = twinSourceFile({}),
    /** The operator's secret the twin sets are keyed by (read when a twin set is asked for). */
    private readonly twinSecret: () => string = resolveIdSecret,
  ) {}

  /**
   * The data a request's config chooses (`chooseDataset`); a choice that cannot be served throws
   * DatasetChoiceError naming the field. Twin data is held for the request until `doneWith`.
   */
  async forConfig(config: DataConfig): Promise<AssessmentData> {
    const startedOnTwins = this.initial.dataset === TWINS.name;
    const wanted = config.dataset === undefined && startedOnTwins ? { ...config, dataset: TWINS.name } : config;
    const name = chooseDataset(wanted, this.initial.dataset);
    const field = config.dataset === undefined ? "config.org_type" : "config.dataset";
    if (name === TWINS.name || (name === "default" && startedOnTwins)) {
      const seed = seedOf(config);
      const trials = config.trials ?? 1;
      const twinKey = twinKeyFor(seed, this.twinSecret());
      const initial = this.initial.sources.tasks.builtFrom;
      if (startedOnTwins && initial?.key === twinKey.digest && (initial.trials ?? 1) === trials) return this.initial;
      const source = initial?.source.path ?? this.twinSource;
      // In memory only: the cache on disk is keyed by the twin key's digest, never the seed.
      const key = `${TWINS.name}:${seed}:${trials}`;
      this.holders.set(key, (this.holders.get(key) ?? 0) + 1);
      this.recent = [...this.recent.filter((other) => other !== key), key];
      try {
        const data = await this.shelved(key, () => loadTwins(source, seed, this.logger, this.orgOptions, field, { key: twinKey, trials }));
        this.keyOf.set(data, key);
        return data;
      } catch (error) {
        this.letGo(key);
        throw error;
      }
    }
    if (name === "default") return this.initial;
    return this.shelved(name, () => loadDataset(datasetNamed(name)!, this.logger, this.orgOptions, field));
  }

  /** A request is done with data `forConfig` gave: a twin set nobody holds may now be closed (the least recently used beyond IDLE_TWIN_SETS). */
  doneWith(data: AssessmentData): void {
    const key = this.keyOf.get(data);
    if (key) this.letGo(key);
  }

  /** The twin sets open now, by seed (for tests and the log; a seed twice when it is open at two numbers of trials). */
  openTwinSeeds(): number[] {
    return [...this.loaded.keys()].filter((key) => key.startsWith(`${TWINS.name}:`)).map((key) => Number(key.split(":")[1]));
  }

  private letGo(key: string): void {
    const left = (this.holders.get(key) ?? 1) - 1;
    if (left > 0) this.holders.set(key, left);
    else this.holders.delete(key);
    const idle = this.recent.filter((candidate) => !this.holders.has(candidate) && this.loaded.has(candidate));
    for (const evicted of idle.slice(0, Math.max(0, idle.length - IDLE_TWIN_SETS))) {
      const data = this.loaded.get(evicted)!;
      this.loaded.delete(evicted);
      this.recent = this.recent.filter((candidate) => candidate !== evicted);
      this.logger.info({ twinSet: evicted }, "twin set closed: no assessment holds it, and newer ones are open (it is rebuilt from the cache on demand)");
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
