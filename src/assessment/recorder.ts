import { setImmediate } from "node:timers/promises";
import type { EpisodeRecord, EpisodeTask, Journal, LogFooter, Trajectory } from "../log/index.js";
import { type Judge, type ScoringContext, scoreEpisode } from "../scoring/index.js";
import { elide } from "../util/index.js";
import { MEMORY_TEXT_CHARS, type TextLease, trimForMemory } from "./held-texts.js";

/** Episodes the purple agent broke off are recorded as errors and not scored, as in the 2.0.0 layout. */
const PURPLE_FAILURES = new Set(["timeout", "purple_error", "protocol_error"]);

export function isPurpleFailure(trajectory: Trajectory): boolean {
  return PURPLE_FAILURES.has(trajectory.termination);
}

/**
 * Scores an episode into its log record. A purple that broke off the episode leaves it unscored;
 * so does a scoring failure (a judge bug, say), with its reason, instead of failing the run.
 */
export async function scoreRecord(position: number, task: EpisodeTask, trajectory: Trajectory, judge: Judge, context: ScoringContext): Promise<EpisodeRecord> {
  const base = { kind: "episode" as const, position, task, trajectory };
  if (isPurpleFailure(trajectory))
    return { ...base, score: null, unscored: `the purple agent broke off the episode (${trajectory.termination}${trajectory.error ? `: ${trajectory.error}` : ""})` };
  try {
    return { ...base, score: await scoreEpisode(task, trajectory, judge, context) };
  } catch (error) {
    return { ...base, score: null, unscored: `scoring failed: ${(error as Error).message}` };
  }
}

/** What a run with trials or a clean twin adds to an episode's record, and the scoring context of its view. */
export interface EpisodeLabels extends Pick<EpisodeRecord, "trial" | "condition" | "touchedBy"> {
  /** The view's own context (a clean view has no drift); the recorder's when absent. */
  readonly context?: ScoringContext;
}

export interface RecorderOptions {
  readonly judge: Judge;
  readonly context: ScoringContext;
  /** Where each finished episode is made durable before it is reported. */
  readonly journal?: Journal | undefined;
  /** Told of each episode once it is recorded, with the episodes recorded so far. */
  readonly onRecorded: (record: EpisodeRecord, done: number) => void;
  /** Checked once an episode is scored, before its line is written: throwing leaves it unrecorded and stops the run. */
  readonly beforeJournal?: () => void;
}

/**
 * Records finished episodes: score, then journal (whole), then trim (what memory keeps until the
 * results are built), then report. Episodes a resumed run kept are recorded already.
 */
export class Recorder {
  private readonly kept: EpisodeRecord[];

  constructor(
    private readonly options: RecorderOptions,
    resumed: readonly EpisodeRecord[] = [],
  ) {
    this.kept = resumed.map(trimRecord);
  }

  /** Positions recorded already. */
  positions(): Set<number> {
    return new Set(this.kept.map((record) => record.position));
  }

  get count(): number {
    return this.kept.length;
  }

  async record(position: number, task: EpisodeTask, trajectory: Trajectory, texts: TextLease, episode: EpisodeLabels = {}): Promise<void> {
    try {
      // After the replies that arrived with this one have been read and answered: scoring, the
      // journal and the report are bookkeeping, and a reply waiting behind them is a purple kept waiting.
      await setImmediate();
      // Scored on its whole texts (those the lease held packed, made whole for scoring alone); the
      // journal line unpacks them only as it is written, in the record's own key order, so it is
      // the same text as before they were held packed. The whole texts are garbage once scored.
      const { context, ...labels } = episode;
      const record = { ...(await scoreRecord(position, task, texts.whole(trajectory), this.options.judge, context ?? this.options.context)), ...labels };
      this.options.beforeJournal?.();
      const light = trimRecord(record);
      const journalled = texts.forJournal(trajectory);
      // An answer the journal keeps cut keeps its parsed values cut too, as memory does.
      const answerCut = journalled.answer !== trajectory.answer;
      await this.options.journal?.writeEpisode({ ...record, ...(answerCut ? { score: light.score } : {}), trajectory: journalled });
      this.kept.push(light);
      this.options.onRecorded(light, this.kept.length);
    } finally {
      texts.release();
    }
  }

  /** The recorded episodes in the order of the selection. */
  records(): EpisodeRecord[] {
    return [...this.kept].sort((a, b) => a.position - b.position);
  }
}

/**
 * Characters of each text of a step a recorded episode keeps in memory until the results are
 * built: what the results show of it (a step's action and observation, 300 characters;
 * report/compact.ts), and of the reply's own text and data, which the results do not show, its
 * start. Its answer, error and verdict texts, one each, keep MEMORY_TEXT_CHARS. Every recorded episode
 * is held until the end of its run: at 600 characters a text, 5,000 episodes of ten turns held
 * 155 MB, at these 81 MB (npm run bench: its `largest` part).
 */
const KEPT_TEXT_CHARS = 300;
const KEPT_REPLY_CHARS = 100;

/** Items of a parsed answer memory keeps (a purple may answer with a hundred thousand values). */
const MEMORY_LIST_ITEMS = 100;

/**
 * The record as memory keeps it until the results are built: the trajectory trimmed, and the
 * texts scoring kept cut the same way (whole in the journal).
 */
export function trimRecord(record: EpisodeRecord): EpisodeRecord {
  const cut = (text: string) => elide(text, MEMORY_TEXT_CHARS);
  const score = record.score;
  const parsed = score?.original.parsedAnswer ?? [];
  const judge = score?.original.judge;
  return {
    ...record,
    trajectory: trimForMemory(record.trajectory, KEPT_TEXT_CHARS, KEPT_REPLY_CHARS),
    ...(record.unscored !== undefined ? { unscored: cut(record.unscored) } : {}),
    score:
      score && judge
        ? {
            ...score,
            original: {
              ...score.original,
              parsedAnswer: [...parsed.slice(0, MEMORY_LIST_ITEMS).map(cut), ...(parsed.length > MEMORY_LIST_ITEMS ? [`… (+${parsed.length - MEMORY_LIST_ITEMS} more)`] : [])],
              judge: { ...judge, rawOutput: judge.rawOutput === null ? null : cut(judge.rawOutput), ...(judge.fallback !== undefined ? { fallback: cut(judge.fallback) } : {}) },
            },
          }
        : score,
  };
}

/** What the judge's models cost the run, as the footer keeps it. */
export function judgeUsage(judge: Judge): LogFooter["judgeUsage"] {
  const usage = judge.usage();
  if (!usage) return null;
  return Object.fromEntries(Object.entries(usage).map(([role, u]) => [role, { calls: u.calls, failures: u.failures, inputTokens: u.inputTokens, outputTokens: u.outputTokens }]));
}
