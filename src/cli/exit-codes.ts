import type { EntropicError, ErrorCode } from "../util/index.js";

/**
 * The command line's exit code for each kind of error (util/errors.ts), beside the server's
 * mapping of the same errors to rejections (server/request.ts, `rejectionOf`). Every kind exits 1
 * today, as every error always has; a script that needs to tell them apart gets its codes here.
 */
export const EXIT_CODES: Readonly<Record<ErrorCode, number>> = {
  invalid_request: 1,
  config: 1,
  data: 1,
  purple: 1,
  unavailable: 1,
  conflict: 1,
  journal: 1,
  model: 1,
};

/** An error's exit code: its kind's, or 1 for an error of no kind. */
export function exitCodeOf(error: unknown): number {
  const code = (error as Partial<EntropicError> | undefined)?.code;
  return typeof code === "string" && code in EXIT_CODES ? EXIT_CODES[code as ErrorCode] : 1;
}

/** What the command line prints of an error: its message, then its hint when it has one. */
export function errorText(error: unknown, describe: (error: unknown) => string): string {
  const hint = (error as Partial<EntropicError> | undefined)?.hint;
  return hint ? `${describe(error)} (${hint})` : describe(error);
}
