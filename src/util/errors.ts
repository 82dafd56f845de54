/**
 * What went wrong, in one word per kind: the server maps it to how a request is refused, the
 * command line to its exit code. A new kind is one entry here and one in each door's table.
 */
export type ErrorCode =
  /** The request or the command line is malformed (a URL, a key, a value). */
  | "invalid_request"
  /** The config is well formed but cannot be run (a key past its bound, an unknown task, a selection of none). */
  | "config"
  /** The data the config chose cannot be had (missing files, a mismatch with the org). */
  | "data"
  /** The purple cannot be assessed (its card unreachable, or naming only versions the green does not speak). */
  | "purple"
  /** The server cannot take the request now (busy, shutting down, the same run in progress). */
  | "unavailable"
  /** A journal or results file that is there and belongs to something else. */
  | "conflict"
  /** The run's journal cannot be written (a full disk, its byte budget), so the run stops. */
  | "journal"
  /** A model the green calls failed or was refused (the simulated user's, the run's spend cap, a call past its size). */
  | "model";

export interface ErrorDetails {
  /** The field the fault is in, in the shared vocabulary (`config.task_ids`, `participant`); each door words it its own way. */
  readonly field?: string | undefined;
  /** What to do about it, when the door has nothing better to say. */
  readonly hint?: string | undefined;
  readonly cause?: unknown;
}

/** The project's errors that a door shows to a person: a code, the field, a hint, and a message that names them. */
export class EntropicError extends Error {
  override readonly name: string = "EntropicError";
  readonly field: string | undefined;
  readonly hint: string | undefined;
  constructor(
    readonly code: ErrorCode,
    message: string,
    details: ErrorDetails = {},
  ) {
    super(message, details.cause === undefined ? undefined : { cause: details.cause });
    this.field = details.field;
    this.hint = details.hint;
  }
}
