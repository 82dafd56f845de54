import { existsSync, readFileSync } from "node:fs";
import { mkdir, writeFile } from "node:fs/promises";
import { dirname, join } from "node:path";
import { type Command, InvalidArgumentError } from "commander";
import {
  admitSession,
  checkRequest,
  incompatibleWords,
  type OutcomeKind,
  runSession,
  type SessionDeps,
  type SessionEvent,
  SessionRejection,
  terminalWords,
} from "../assessment/index.js";
import { analystStrategy, servePurple, solverStrategy } from "../baselines/index.js";
import { builderFor, calibrationFor, loadDataForConfig, resolveIdSecret, SAMPLE_ORG_DIR, SAMPLE_TASKS_FILE } from "../data/index.js";
import { fetchAgentCard } from "../purple/index.js";
import { type ResultsObject, summaryText } from "../report/index.js";
import { HeuristicJudge, type Judge } from "../scoring/index.js";
import { createLogger } from "../util/index.js";
import { demoResultsFile } from "./demo-output.js";
import { judgeFactoryFromEnv, purplesFromEnv, usersFromEnv } from "./deps-from-env.js";
import { configFromOptions, configOptions, dataOptions, int } from "./options.js";
import { progressPrinter } from "./progress.js";

/** Where `assess` and `demo` write when --out is not given (ENTROPIC_OUTPUT_DIR, else ./output). */
export const DEFAULT_OUT_DIR = process.env.ENTROPIC_OUTPUT_DIR || "output";

interface LocalOptions extends Record<string, unknown> {
  readonly tasks?: string;
  readonly org?: string;
  readonly out?: string;
  readonly resume?: boolean;
  readonly force?: boolean;
}

/** An A2A URL the purple is reached at: http(s) and a host; "127.0.0.1:9019" (no scheme) says what to write. */
function checkAgentUrl(agentUrl: string): void {
  let url: URL | undefined;
  try {
    url = new URL(agentUrl);
  } catch {
    url = undefined;
  }
  if (url && (url.protocol === "http:" || url.protocol === "https:") && url.hostname) return;
  const guess = /^[\w.-]+:\d+(?:\/.*)?$/.test(agentUrl) || /^[\w.-]+$/.test(agentUrl) ? ` (did you mean http://${agentUrl}${agentUrl.includes("/") ? "" : "/"}?)` : "";
  throw new InvalidArgumentError(`--agent: ${JSON.stringify(agentUrl)} is not an http(s) URL of an A2A agent${guess}`);
}

/**
 * Runs an assessment in this process against a purple agent: the terminal's door to the session.
 * The results go to --out (default output/<run id>.results.json), the run's journal beside them;
 * a run that exists is refused unless --resume (continue it) or --force (start over).
 */
export async function runLocalAssessment(agentUrl: string, options: LocalOptions, judge: Judge, logger = createLogger("warn")): Promise<ResultsObject> {
  checkAgentUrl(agentUrl);
  const deps: SessionDeps = {
    dataFor: (config) => loadDataForConfig(config, { tasks: options.tasks, org: options.org }, logger),
    doneWith: (data) => data.org.close(),
    createJudge: () => judge,
    calibration: calibrationFor,
    idSecret: resolveIdSecret(),
    createUser: usersFromEnv(),
    createPurple: purplesFromEnv(),
    fetchCard: (url) => fetchAgentCard(url),
    onEvent: terminalEvents(),
  };
  const admission = await admitSession(await checkRequest({ door: "cli", participantUrl: agentUrl, config: configFromOptions(options) }, deps).catch(commandLineError), deps).catch(
    commandLineError,
  );
  try {
    const { runId } = admission.spec;
    const outPath = options.out ?? join(DEFAULT_OUT_DIR, `${runId}.results.json`);
    refuseOtherRun(outPath, runId, options.force === true);
    // Ctrl-C or SIGTERM: stop, keep every finished episode (in the journal and the partial results); twice: now.
    const stop = new AbortController();
    const onSignal = () => {
      if (stop.signal.aborted) process.exit(130);
      process.stderr.write("\nStopping: finished episodes are kept; run the same command with --resume to continue.\n");
      stop.abort("interrupted");
    };
    process.on("SIGINT", onSignal);
    process.on("SIGTERM", onSignal);
    const outcome = await runSession(admission, deps, {
      signal: stop.signal,
      logDir: dirname(outPath),
      ...(options.resume ? { resume: true } : {}),
      ...(options.force ? { force: true } : {}),
    }).finally(() => {
      process.off("SIGINT", onSignal);
      process.off("SIGTERM", onSignal);
    });
    if (outcome.kind === "incompatible") throw new Error(incompatibleWords(outcome.reason));
    const { results, logFile } = outcome;
    const journalFailed = outcome.kind === "journal_failed";
    // The journal's disk may be the one that is full: the summary is printed whether or not the results file can be written.
    const written = await mkdir(dirname(outPath), { recursive: true })
      .then(() => writeFile(outPath, `${JSON.stringify(results, null, 2)}\n`))
      .then(
        () => `Results written to ${outPath}`,
        (error: unknown) => {
          if (!journalFailed) throw error;
          return `The results could not be written to ${outPath}: ${(error as Error).message}`;
        },
      );
    process.stdout.write(`${summaryText(results)}\n${written}\nRun log (every episode in full) in ${logFile}${terminalWords(outcome)}\n`);
    if (EXIT_CODES[outcome.kind] !== 0) process.exitCode = EXIT_CODES[outcome.kind];
    return results;
  } finally {
    await admission.data.org.close();
  }
}

/** The exit code of each outcome: 0 only for a whole run whose journal is whole too. */
const EXIT_CODES: Record<OutcomeKind, number> = { completed: 0, canceled: 1, interrupted: 1, stopped_early: 1, incompatible: 1, journal_failed: 1 };

/** Progress on stderr, and what was done with a damaged journal. */
function terminalEvents(): (event: SessionEvent) => void {
  const progress = progressPrinter();
  return (event) => (event.kind === "journal_notice" ? process.stderr.write(`${event.text}\n`) : progress(event));
}

/** A session's rejection in the command line's terms: unknown keys with the flag that allows them, anything else as it was thrown. */
function commandLineError(error: unknown): never {
  if (!(error instanceof SessionRejection)) throw error;
  if (error.field === "config.allow_unknown_config")
    throw new InvalidArgumentError(`${error.message}; fix the config, or pass --allow-unknown-config to run with them ignored (they are listed in the results)`);
  throw error.source ?? error;
}

/** A results file of another run is never overwritten without --force. */
function refuseOtherRun(path: string, runId: string, force: boolean): void {
  if (force || !existsSync(path)) return;
  let other: string | undefined;
  try {
    other = (JSON.parse(readFileSync(path, "utf8")) as { run?: { id?: string } }).run?.id;
  } catch {
    other = undefined;
  }
  if (other !== runId) throw new Error(`${path} holds ${other ? `the results of run ${other}` : "something else"}; pass --force to replace it, or choose another --out`);
}

export function registerAssess(program: Command): void {
  configOptions(
    dataOptions(
      program
        .command("assess")
        .description("run an assessment in-process against a purple agent, no AgentBeats needed")
        .requiredOption("--agent <url>", "the purple agent's A2A URL")
        .option("--out <file>", "write the results object here, the run's journal beside it (default: output/<run id>.results.json)")
        .option("--resume", "continue the run's journal (after a crash or Ctrl-C): no finished task lost, none run twice")
        .option("--force", "start the run over even if its journal or results exist"),
    ),
  ).action(async (options: LocalOptions & { agent: string }) => {
    await runLocalAssessment(String(options.agent), options, judgeFactoryFromEnv(createLogger("warn"))());
  });

  dataOptions(
    program
      .command("demo")
      .description(
        "offline end-to-end run: the solver purple on the sample tasks (or, with --dataset twins or another dataset that builds its own data, the analyst on a set built from --tasks)",
      )
      .option("--concurrency <n>", "episodes in flight", int("--concurrency"), 4)
      .option("--interactive", "interactive mode: the scripted (offline, deterministic) user reveals each request sentence by sentence")
      .option(
        "--dataset <name>",
        "the sample (default), or a registered dataset; one that builds its own data (the twins) is built from --tasks (the real task file) for --seed and solved by the reference analyst",
      )
      .option("--seed <n>", "the assessment seed (the twin set's)", int("--seed")),
  ).action(async (options: { tasks?: string; org?: string; concurrency: number; interactive?: boolean; dataset?: string; seed?: number }) => {
    // A built set (the twins) has real wording, which the sample's template solver cannot read: the analyst solves it.
    const built = options.dataset !== undefined && builderFor(options.dataset) !== undefined;
    const { server, url } = built ? await servePurple("analyst", analystStrategy, "127.0.0.1", 0) : await servePurple("solver", solverStrategy, "127.0.0.1", 0);
    try {
      // The demo stays offline whatever the environment holds: the deterministic judge, and a fresh run each time.
      const results = await runLocalAssessment(
        url,
        {
          ...(built ? (options.tasks ? { tasks: options.tasks } : {}) : { tasks: options.tasks ?? SAMPLE_TASKS_FILE, org: options.org ?? SAMPLE_ORG_DIR }),
          ...(options.dataset ? { dataset: options.dataset } : {}),
          ...(options.seed !== undefined ? { seed: options.seed } : {}),
          concurrency: options.concurrency,
          ...(options.interactive ? { mode: "interactive", userSimulator: "scripted" } : {}),
          out: join(DEFAULT_OUT_DIR, demoResultsFile(options.dataset, options.interactive === true)),
          force: true,
        },
        new HeuristicJudge(),
      );
      // The sample is solved whole by the solver (the demo's check); on a built set the analyst's rate is the measurement.
      if (!built && results.summary.total_passed !== results.summary.total_tasks) process.exitCode = 1;
    } finally {
      server.close();
    }
  });
}
