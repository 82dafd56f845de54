import type { Command } from "commander";
import { chooseTasks, parseConfig, purpleIdentityOf, runSession, runSpecFor } from "../assessment/index.js";
import { calibrationFor, loadDataForConfig, resolveIdSecret, SAMPLE_ORG_DIR, SAMPLE_TASKS_FILE } from "../data/index.js";
import type { EpisodeRecord } from "../log/index.js";
import type { Action } from "../protocol/index.js";
import { A2APurpleClient, type CardVerdict, cardCheckLines, describeError, judgeCard, observeCard, type PurpleCard, type PurpleClientFactory } from "../purple/index.js";
import { describeAction } from "../report/index.js";
import { HeuristicJudge } from "../scoring/index.js";
import { createLogger } from "../util/index.js";
import { int, num } from "./options.js";

/** What `check-purple` found, for its caller (the command's exit code, the tests). */
export interface PurpleCheck {
  readonly verdict: CardVerdict;
  /** The sample episode, when one was recorded. */
  readonly episode: EpisodeRecord | undefined;
  /** Why no sample task could be run or finished, when it could not. */
  readonly taskFailure: string | undefined;
  readonly passed: boolean;
  /** 0 when the AgentBeats gateway flow would work and the task ran; 1 otherwise. */
  readonly exitCode: number;
}

export interface CheckPurpleOptions {
  /** The sample task sent (its index in data/sample/tasks.json). */
  readonly task: number;
  /** Seconds per purple call and per card read. */
  readonly timeoutSeconds: number;
}

/** How long refused or reset connections are tried again during the sample task. */
const RETRY_WINDOW_MS = 5_000;

/** The episode ended in a way that says the conversation itself works (a wrong answer is the purple's score, not a fault). */
const RAN = new Set(["answered", "max_steps"]);

/**
 * Checks a purple agent as an assessment would meet it (docs/protocol.md, "What AgentBeats needs
 * today"): its card as the AgentBeats gateway's A2A 0.3 reader and as the green read it, which
 * flows work, then one sample task through the green's own runner (the version it chooses, its
 * parsing, its scoring), and the fix for every problem. Writes its report line by line.
 */
export async function checkPurple(url: string, options: CheckPurpleOptions, write: (line: string) => void): Promise<PurpleCheck> {
  const timeoutMs = options.timeoutSeconds * 1000;
  write(`check-purple ${url}`);
  const seen = await observeCard(url, Math.min(timeoutMs, 10_000));
  const verdict = judgeCard(seen);
  for (const line of cardCheckLines(seen, verdict)) write(line);

  let episode: EpisodeRecord | undefined;
  let taskFailure: string | undefined;
  const fixes = [...verdict.fixes];
  if ("failure" in seen.greenRead) taskFailure = "not sent: the green cannot read the card (above)";
  else {
    try {
      ({ episode, failure: taskFailure } = await runSampleTask(url, seen.greenRead.card as PurpleCard, options.task, options.timeoutSeconds));
    } catch (error) {
      taskFailure = `could not be run: ${describeError(error)}`;
    }
  }
  write(`Sample task ${options.task} (data/sample/tasks.json)${episode?.trajectory.a2aVersion ? `, spoken in A2A ${episode.trajectory.a2aVersion}` : ""}`);
  for (const line of episode ? episodeLines(episode) : []) write(`  ${line}`);
  const trajectory = episode?.trajectory;
  if (!taskFailure && trajectory && !RAN.has(trajectory.termination)) taskFailure = `ended in ${trajectory.termination}: ${trajectory.error ?? "no reason recorded"}`;
  if (taskFailure) {
    write(`  ${taskFailure}`);
    // The client's and the runner's messages end with the fix on the purple's side when they know it.
    const named = /Fix on the purple's side: (.*)$/.exec(taskFailure)?.[1];
    if (named && !fixes.some((line) => named.includes(line) || line.includes(named))) fixes.push(named);
  }
  const passed = episode ? (episode.score?.success?.passed ?? episode.score?.original.passed ?? false) : false;

  write("Fixes");
  if (fixes.length === 0) write("  none needed");
  for (const line of fixes) write(`  - ${line}`);
  const exitCode = verdict.gateway.works && !taskFailure ? 0 : 1;
  write(
    exitCode === 0
      ? `Ready: the AgentBeats gateway reads the card and the sample task ran (${passed ? "passed" : "its answer failed"}).`
      : `Not ready: ${[verdict.gateway.works ? "" : "the AgentBeats gateway flow would fail", taskFailure ? "the sample task did not run to an answer" : ""].filter(Boolean).join(" and ")}.`,
  );
  return { verdict, episode, taskFailure, passed, exitCode };
}

/** One sample task through `assess`, as `entropic-crmarena assess` runs it (the heuristic judge, no journal), the card as read. */
async function runSampleTask(url: string, card: PurpleCard, task: number, timeoutSeconds: number): Promise<{ episode: EpisodeRecord | undefined; failure: string | undefined }> {
  const { config } = parseConfig({ task_ids: [task], timeout: timeoutSeconds, concurrency: 1 });
  const logger = createLogger("silent");
  const data = await loadDataForConfig(config, { tasks: SAMPLE_TASKS_FILE, org: SAMPLE_ORG_DIR }, logger);
  try {
    const spec = runSpecFor({ participantUrl: url, config, ignoredConfigKeys: [], purpleIdentity: purpleIdentityOf(card), tasksSource: data.sources.tasks.path });
    const stop = new AbortController();
    let failure: string | undefined;
    const end = (message: string) => {
      failure ??= message;
      stop.abort("check-purple");
    };
    // A short retry window: a reset kept-alive connection is tried again, a purple that is gone is
    // reported within seconds; either fault ends the check at once, the session told as well.
    const createPurple: PurpleClientFactory = (endpoint, session) =>
      new A2APurpleClient(endpoint, {
        ...session,
        retryWindowMs: RETRY_WINDOW_MS,
        onIncompatible: (message) => {
          end(message);
          session.onIncompatible?.(message);
        },
        onGone: (message) => {
          end(message);
          session.onGone?.(message);
        },
      });
    const { log } = await runSession(
      { spec, data, chosen: await chooseTasks(data, config), card },
      { createJudge: () => new HeuristicJudge(), calibration: calibrationFor, idSecret: resolveIdSecret(), createPurple },
      { signal: stop.signal },
    );
    return { episode: log.episodes[0], failure: failure ?? (log.episodes.length === 0 ? "not run: the green recorded no episode" : undefined) };
  } finally {
    await data.org.close();
  }
}

const cut = (text: string, chars = 160) => {
  const flat = text.replace(/\s+/g, " ").trim();
  return flat.length > chars ? `${flat.slice(0, chars)}…` : flat;
};

/** Where in a reply the green found its action, in words. */
const SOURCES: Record<Action["source"], string> = {
  data_part: "a data part",
  json: "JSON in the text",
  tag: "an <execute>/<respond> tag",
  text: "the plain text",
  mcp: "an MCP call",
};

/** What the green made of each reply, how the episode ended and its verdict. */
function episodeLines(episode: EpisodeRecord): string[] {
  const { trajectory, score } = episode;
  const lines = trajectory.steps.map((step) => {
    const observation = step.observation
      ? ` -> ${step.observation.ok ? `ok${step.observation.rowCount !== undefined ? `, ${step.observation.rowCount} rows` : ""}` : `error ${step.observation.code ?? ""}`.trimEnd()}`
      : "";
    return `turn ${step.turn}: ${cut(describeAction(step.action))} (read from ${SOURCES[step.action.source]})${observation}`;
  });
  if (trajectory.steps.length === 0) lines.push("no turn was answered");
  lines.push(`termination: ${trajectory.termination}${trajectory.error ? ` (${cut(trajectory.error, 400)})` : ""}`);
  if (score) {
    const success = score.success ?? { passed: score.original.passed, reward: score.original.reward };
    lines.push(`answer: ${success.passed ? "PASSED" : "FAILED"} (reward ${success.reward}; parsed as ${JSON.stringify(score.original.parsedAnswer)})`);
  } else lines.push(`not scored: ${episode.unscored ?? "no score"}`);
  return lines;
}

export function registerCheckPurple(program: Command): void {
  program
    .command("check-purple")
    .description(
      "check a purple agent before an assessment: its card as the AgentBeats gateway (A2A 0.3) and the green (A2A 1.0) read it, which flows work, one sample task, and the fix for each problem; exits 1 when the gateway flow would fail or the task could not be run",
    )
    .argument("<url>", "the purple agent's A2A URL, e.g. http://127.0.0.1:9019/")
    .option("--task <idx>", "the sample task to send (its idx in data/sample/tasks.json)", int("--task"), 0)
    .option("--timeout <seconds>", "seconds per purple call", num("--timeout"), 60)
    .action(async (url: string, options: { task: number; timeout: number }) => {
      const check = await checkPurple(url, { task: options.task, timeoutSeconds: options.timeout }, (line) => process.stdout.write(`${line}\n`));
      process.exitCode = check.exitCode;
    });
}
