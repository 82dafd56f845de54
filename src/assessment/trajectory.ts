import type { Action } from "../protocol/index.js";
import type { ReportedUsage } from "../purple/index.js";

/** Why an episode ended. */
export type Termination = "answered" | "max_steps" | "timeout" | "purple_error" | "protocol_error";

/** What the org answered to one tool call. */
export interface ObservationRecord {
  readonly ok: boolean;
  readonly code?: string;
  readonly message?: string;
  readonly rowCount?: number;
  readonly truncated?: boolean;
  /** The text the purple agent was shown. */
  readonly text: string;
}

/** One purple turn: what we sent, what came back, what it meant and what it cost. */
export interface TrajectoryStep {
  readonly turn: number;
  readonly sent: { readonly chars: number; readonly tokens: number };
  readonly received: { readonly chars: number; readonly tokens: number; readonly bytes: number };
  readonly replyText: string;
  readonly replyData: readonly Record<string, unknown>[];
  readonly action: Action;
  readonly observation?: ObservationRecord;
  readonly usage?: ReportedUsage;
  readonly purpleMs: number;
  readonly greenMs: number;
}

/** What drift and rot did to one episode. */
export interface EntropyEvents {
  /** Field names rewritten to their drifted names in the task's text. */
  readonly renamedInText: readonly string[];
  /** Distractor passages added to the task's context. */
  readonly passages: readonly string[];
  /** Distractor (deleted) records that appeared in the episode's observations. */
  readonly distractorIdsSeen: readonly string[];
  /** Distractor record Ids the final answer names. */
  readonly distractorIdsInAnswer: readonly string[];
}

/** The single record of an episode: scoring reads only this, reports only print it. */
export interface Trajectory {
  readonly taskIdx: number;
  readonly category: string;
  readonly startedAt: string;
  readonly firstMessageTokens: number;
  /** The text of every message sent to the purple, so groundedness can be checked. */
  readonly shownText: string;
  readonly steps: readonly TrajectoryStep[];
  readonly entropy: EntropyEvents;
  readonly termination: Termination;
  readonly error?: string;
  readonly answer?: string;
  readonly totalMs: number;
  readonly purpleMs: number;
  readonly greenMs: number;
}

/** The query text of an action that reads data (SQL, SOQL or SOSL); undefined for anything else. */
export function queryText(action: Action): string | undefined {
  if (action.kind !== "tool") return undefined;
  if (action.tool === "sql_query" || action.tool === "soql_query") return action.args.query;
  if (action.tool === "sosl_search") return action.args.search;
  return undefined;
}

/** The content of each action as CRMArena-Pro records it: executed queries and answers. */
export function actionContents(trajectory: Trajectory): string[] {
  return trajectory.steps.flatMap((step) => {
    if (step.action.kind === "answer") return [step.action.answer];
    const query = queryText(step.action);
    return query === undefined ? [] : [query];
  });
}
