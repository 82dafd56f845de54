/**
 * The largest request the green accepts, in memory: CONFIG_LIMITS.turns turns (50,000), as
 * `--episodes` episodes of `--steps` turns each (default: the default max_steps, 10, so 5,000
 * episodes; `--steps 2` gives the 25,000 episodes of CONFIG_LIMITS.episodes), every turn a query
 * with a long reply and a long observation, recorded as the runner records them (each episode's
 * record trimmed as memory keeps it), then the results built, copied (the A2A SDK's task store
 * keeps a copy of the artifact) and serialised as the server sends them. Run in a child process
 * under the image's heap limit (--max-old-space-size=384), it prints the heap after each stage
 * and fails if the process runs out of heap. The records are made from one real episode of the
 * sample, each a copy of its own (no string shared between records).
 *
 *   npm run bench:largest [-- --steps 10 --episodes 5000 --heap-mb 384]
 */
import { spawnSync } from "node:child_process";
import { resolve } from "node:path";
import { fileURLToPath } from "node:url";
import { parseArgs } from "node:util";
import { getHeapStatistics } from "node:v8";
import { CONFIG_LIMITS, chooseTasks, parseConfig, runAssessment, runSpecFor, trimRecord } from "../src/assessment/index.js";
import type { EpisodeRecord } from "../src/log/index.js";
import type { PurpleClient } from "../src/purple/index.js";
import { buildResults } from "../src/report/index.js";
import { HeuristicJudge } from "../src/scoring/index.js";
import { calibration, sampleData } from "../tests/support/helpers.js";

/** Options of a child (the measuring process) or of `npm run bench:largest`; none when imported (npm run bench's `largest` part). */
const invoked = fileURLToPath(import.meta.url) === resolve(process.argv[1] ?? "");
const { values } = invoked
  ? parseArgs({
      options: {
        episodes: { type: "string" },
        steps: { type: "string" },
        "heap-mb": { type: "string", default: "384" },
        child: { type: "boolean", default: false },
      },
    })
  : { values: { episodes: undefined, steps: undefined, "heap-mb": "384", child: false } as { episodes?: string; steps?: string; "heap-mb": string; child: boolean } };

const mb = (bytes: number) => `${Math.round(bytes / 1024 / 1024)} MB`;

function heapUsed(): number {
  (globalThis as { gc?: () => void }).gc?.();
  return getHeapStatistics().used_heap_size;
}

/**
 * A run of the sample's first task at `maxSteps` against a stub purple whose reply to each turn is
 * `texts(turn)` (`bytes` of it, as the log records a reply's size).
 */
async function runFirstTask(maxSteps: number, runId: string, texts: (turn: number) => string[], bytes: number) {
  const data = await sampleData();
  const purple: PurpleClient = {
    url: "stub://largest",
    send: async (message, thread) => ({
      reply: { texts: texts(typeof message.data.turn === "number" ? message.data.turn + 1 : 1), data: [] },
      contextId: thread.contextId ?? "largest",
      openTaskId: undefined,
      usage: undefined,
      bytes,
    }),
  };
  const { config } = parseConfig({ task_ids: [0], max_steps: maxSteps, run_id: runId });
  const log = await runAssessment(data, purple, {
    spec: runSpecFor({ participantUrl: purple.url, config, tasksSource: data.sources.tasks.path }),
    chosen: await chooseTasks(data, config),
    judge: new HeuristicJudge(),
    calibration,
  });
  await data.org.close();
  return log;
}

const ANSWER = JSON.stringify({ name: "respond", arguments: { answer: "None" } });
const QUERY = JSON.stringify({ name: "soql_query", arguments: { query: "SELECT Id, Name, Description FROM Account" } });

/** One episode of `steps` turns: each a query with a 2,000-character reply beside it, then an answer. */
async function oneEpisode(steps: number): Promise<EpisodeRecord> {
  const log = await runFirstTask(steps, "largest", (turn) => [turn < steps ? QUERY : ANSWER, "r".repeat(2_000)], 2_100);
  return log.episodes[0]!;
}

/** Episodes of the largest request at `steps` turns each: as many as the turn limit allows, at most the episode limit. */
const episodesAt = (steps: number) => Number(values.episodes ?? Math.min(CONFIG_LIMITS.episodes, Math.floor(CONFIG_LIMITS.turns / steps)));

async function child(): Promise<void> {
  const steps = Number(values.steps);
  const episodes = episodesAt(steps);
  const record = await oneEpisode(steps);
  const idle = heapUsed();
  // As the runner's recorder keeps them (src/assessment/recorder.ts): each record its own copy, trimmed.
  const kept: EpisodeRecord[] = [];
  for (let i = 0; i < episodes; i++) kept.push(trimRecord({ ...structuredClone(record), position: i + 1 }));
  const held = heapUsed();
  console.log(`records held: ${episodes} episodes of ${record.trajectory.steps.length} steps, heap ${mb(held - idle)} above idle`);
  const base = await recordLog(record);
  const results = buildResults({ ...base, episodes: kept });
  const built = heapUsed();
  console.log(`results built: heap ${mb(built - idle)} above idle`);
  const copy = structuredClone(results);
  const copied = heapUsed();
  console.log(`results copied (the SDK's task store): heap ${mb(copied - idle)} above idle`);
  const json = JSON.stringify(copy);
  const serialised = heapUsed();
  console.log(
    `results serialised (${mb(json.length)} of JSON): heap ${mb(serialised - idle)} above idle, ${mb(serialised)} in all; heap limit ${mb(getHeapStatistics().heap_size_limit)}`,
  );
  void [kept, results, copy, json];
}

/** A whole log (header and footer) of one real episode, whose episodes the caller replaces. */
async function recordLog(_record: EpisodeRecord) {
  return runFirstTask(Number(values.steps), "largest-log", () => [ANSWER], 10);
}

/**
 * Measures the largest request at its corners (the most episodes, short ones; the default
 * max_steps; the longest episodes), each in a child process under the image's heap limit, and
 * prints each stage's heap. Returns whether every shape fitted.
 */
export async function largest(out: (line?: string) => void, heapMb = values["heap-mb"], only?: number): Promise<boolean> {
  const shapes = only !== undefined ? [only] : [Math.ceil(CONFIG_LIMITS.turns / CONFIG_LIMITS.episodes), 10, 100];
  const script = fileURLToPath(import.meta.url);
  let fitted = true;
  out();
  out(`The largest request allowed (${CONFIG_LIMITS.episodes} episodes, ${CONFIG_LIMITS.turns} turns) in memory (bench/largest.ts), under --max-old-space-size=${heapMb} (the image's):`);
  for (const steps of shapes) {
    const args = ["--expose-gc", `--max-old-space-size=${heapMb}`, "--import", "tsx", script, "--child", "--episodes", String(episodesAt(steps)), "--steps", String(steps)];
    out(`- ${episodesAt(steps)} episodes of ${steps} turns:`);
    const run = spawnSync(process.execPath, args, { encoding: "utf8", maxBuffer: 64 * 1024 * 1024 });
    for (const line of (run.stdout ?? "").split("\n").filter(Boolean)) out(`    ${line}`);
    if (run.status !== 0) {
      out(`    FAILED: the process ended with ${run.status ?? run.signal}${/heap out of memory/.test(run.stderr ?? "") ? " (out of heap)" : `: ${(run.stderr ?? "").trim().split("\n").slice(-3).join(" ")}`}`);
      fitted = false;
    }
  }
  return fitted;
}

if (invoked && values.child) await child();
else if (invoked && !(await largest((line = "") => console.log(line), values["heap-mb"], values.steps ? Number(values.steps) : undefined))) process.exitCode = 1;
