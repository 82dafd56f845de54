import type { AssessmentLog } from "../log/index.js";
import type { ResultsObject } from "../report/index.js";

/**
 * How a session ended, as both doors report it. Every outcome carries the results and the log of
 * what was recorded (an incompatible purple's are empty of episodes); `reason` says why when
 * the run did not simply end.
 *
 * - `completed`: every episode recorded.
 * - `canceled`: tasks/cancel (or the incompatible purple's stop, which is reported as `incompatible`).
 * - `interrupted`: a shutdown or Ctrl-C; resumable from the journal.
 * - `stopped_early`: the purple was gone for its whole retry window; resumable once it is back.
 * - `incompatible`: the purple's first answers said it speaks another A2A version than its card names.
 * - `journal_failed`: the journal could not be written (a full disk); the results are what was recorded.
 */
export type SessionOutcome =
  | (Recorded & { readonly kind: "completed" })
  | (Recorded & { readonly kind: "canceled" })
  | (Recorded & { readonly kind: "interrupted" })
  | (Recorded & { readonly kind: "stopped_early"; readonly reason: string })
  | (Recorded & { readonly kind: "incompatible"; readonly reason: string })
  | (Recorded & { readonly kind: "journal_failed"; readonly reason: string; readonly remedy?: string | undefined });

export type OutcomeKind = SessionOutcome["kind"];

/**
 * What a run recorded. `results` is built when first read (`assess` gives it so): a canceled
 * run's are never sent, and 10,000 episodes' results are seconds of work, so nothing here reads
 * them unless the outcome's words or the door need them.
 */
interface Recorded {
  readonly results: ResultsObject;
  readonly log: AssessmentLog;
  readonly logFile?: string | undefined;
}

/** An outcome's own fields, each kind's (what it says beside the record). */
type OutcomeFields = SessionOutcome extends infer O ? (O extends SessionOutcome ? Omit<O, keyof Recorded> : never) : never;

/** What a run left behind, and what its purple client and journal said while it ran. */
export interface RunEnd extends Recorded {
  readonly incompatible?: string | undefined;
  readonly gone?: string | undefined;
  readonly journalFailure?: string | undefined;
  /** With `journalFailure`: what lets the same request continue the run ("once ... has room", "with a larger max_model_calls ..."). */
  readonly journalRemedy?: string | undefined;
}

/**
 * The outcome of a run, in one order for both doors: an incompatible purple first (nothing it
 * answered counts), then a cancel, a journal that could not be written, a whole run, a purple
 * gone, and what is left (a shutdown, Ctrl-C). Reads the run's status from its log's footer, and
 * passes `results` on unread (a getter, never a spread, which would build them).
 */
export function outcomeOf(end: RunEnd): SessionOutcome {
  const status = end.log.footer.status;
  const outcome = (fields: OutcomeFields): SessionOutcome =>
    Object.defineProperty({ ...fields, log: end.log, ...(end.logFile ? { logFile: end.logFile } : {}) }, "results", {
      get: () => end.results,
      enumerable: true,
    }) as SessionOutcome;
  if (end.incompatible !== undefined) return outcome({ kind: "incompatible", reason: end.incompatible });
  if (status === "canceled") return outcome({ kind: "canceled" });
  if (end.journalFailure !== undefined) return outcome({ kind: "journal_failed", reason: end.journalFailure, remedy: end.journalRemedy });
  if (status === "completed") return outcome({ kind: "completed" });
  if (end.gone !== undefined) return outcome({ kind: "stopped_early", reason: end.gone });
  return outcome({ kind: "interrupted" });
}

// The words of each outcome, for both doors, side by side: a change of wording is made here once.

/** What the served green says of an outcome: the final status line, and the note attached to the results artifact when there is one. */
export function statusWords(
  outcome: SessionOutcome,
  /** Tasks the request selected (its shard's). */
  total: number,
  /** Where journals go, when the server keeps them. */
  runsDir: string | undefined,
): { readonly status: string; readonly artifactNote?: string } {
  // A canceled or incompatible run's results are never built for its words.
  if (outcome.kind === "incompatible") return { status: `Assessment stopped before any episode was scored: ${outcome.reason}` };
  if (outcome.kind === "canceled") return { status: `Assessment canceled after ${outcome.log.episodes.length} of ${total} tasks.` };
  const { summary, status } = outcome.results;
  const ran = `${summary.total_tasks} of ${total} tasks`;
  const complete = `Assessment complete: ${summary.total_passed}/${summary.total_tasks} passed.`;
  switch (outcome.kind) {
    case "stopped_early": {
      const note = `Stopped early after ${ran}: ${outcome.reason}.`;
      return { status: `Assessment ${note[0]!.toLowerCase()}${note.slice(1)} The partial results are attached (status "interrupted").`, artifactNote: note };
    }
    case "journal_failed": {
      const recorded = `the same request continues it from its journal ${outcome.remedy ?? `once ${runsDir ?? "the runs folder"} has room`}`;
      return {
        status:
          status === "completed"
            ? `${complete} WARNING: ${outcome.reason}; the journal lacks its last line (${recorded}).`
            : `Assessment stopped after ${ran}: ${outcome.reason}. The partial results are attached (status "${status}"); ${recorded}.`,
      };
    }
    case "interrupted":
      return {
        status: `Assessment interrupted (the server is shutting down) after ${ran}; the partial results are attached (status "interrupted").${runsDir ? " The same request resumes it from its journal." : ""}`,
      };
    case "completed":
      return { status: complete };
  }
}

/** What the command line prints after the summary (empty for a whole run); an incompatible purple is an error, not a note. */
export function terminalWords(outcome: Exclude<SessionOutcome, { kind: "incompatible" }>): string {
  const { summary, status } = outcome.results;
  switch (outcome.kind) {
    case "journal_failed":
      return `\nThe run stopped after ${summary.total_tasks} tasks: ${outcome.reason}. ${status === "completed" ? "Its results are whole; its journal lacks its last line" : "These results are partial"}: ${outcome.remedy ?? "once there is room"}, run the same command with --resume.`;
    case "completed":
      return "";
    case "stopped_early":
      return `\nThe run stopped early after ${summary.total_tasks} tasks: ${outcome.reason}. These results are partial; continue it with --resume once the purple is back.`;
    case "canceled":
    case "interrupted":
      return `\nThe run was ${status} after ${summary.total_tasks} tasks: these results are partial; continue it with --resume.`;
  }
}

/** The command line's message for a purple that speaks another version. */
export const incompatibleWords = (reason: string) => `the assessment stopped before any episode was scored: ${reason}`;
