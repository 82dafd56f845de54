import { EntropicError, elide } from "../util/index.js";
import { PurpleHttpFault } from "./http.js";

/** Why a purple turn failed; each ends only its own episode. */
export type PurpleFailureKind = "timeout" | "unreachable" | "protocol" | "task_failed" | "too_large" | "canceled";

/** A purple turn that failed (`kind`: how docs/protocol.md section 11 classes it); its code is always `purple`. */
export class PurpleError extends EntropicError {
  override readonly name = "PurpleError";
  constructor(
    readonly kind: PurpleFailureKind,
    message: string,
    /** A connection refused or reset: the purple may be restarting, and the turn is tried again for a while. */
    readonly retryable = false,
  ) {
    super("purple", message);
  }
}

/**
 * The purple has been unreachable for the whole retry window: the turn that fails with it did not
 * fail on the purple's account, so its episode is not recorded (it runs again when the same
 * request is sent once the purple is back), as a canceled one.
 */
export class PurpleGoneError extends PurpleError {
  constructor(message: string) {
    super("unreachable", message);
  }
}

/**
 * A failed call as a PurpleError whose message is ours: the HTTP client's and the reply check's
 * faults as they are written (src/purple/http.ts, wire.ts), JSON-RPC errors with their code, and
 * whatever else the SDK's transports throw named as what it is, never a runtime's bare text.
 */
export function purpleErrorOf(error: unknown): PurpleError {
  for (let cause: unknown = error, depth = 0; cause instanceof Error && depth < 5; cause = cause.cause, depth++) {
    if (cause instanceof PurpleHttpFault) {
      if (cause.kind === "too_large") return new PurpleError("too_large", cause.message);
      if (cause.kind === "protocol") return new PurpleError("protocol", cause.message);
      return new PurpleError("unreachable", cause.message, cause.kind === "refused" || cause.kind === "reset");
    }
  }
  if (rpcCode(error) !== undefined) return new PurpleError("protocol", `the purple agent's reply could not be used: ${describeError(error)}`);
  // A runtime error inside the SDK's reader says nothing a purple's author can act on.
  if (error instanceof TypeError || error instanceof SyntaxError || error instanceof RangeError || !(error instanceof Error))
    return new PurpleError("protocol", "the purple agent's reply could not be used: it is no A2A reply the green can read (see docs/protocol.md, section 11)");
  return new PurpleError("protocol", `the purple agent's reply could not be used: ${error.message}`);
}

/** What a failed call's error says: the JSON-RPC code when there is one (the SDK's errors carry it as `envelopeCode`). */
export function rpcCode(error: unknown): number | undefined {
  const code = (error as { envelopeCode?: unknown } | undefined)?.envelopeCode;
  return typeof code === "number" ? code : undefined;
}

/** An error's text: a JSON-RPC error with its code (and data), anything else with its cause. */
export function describeError(error: unknown): string {
  if (!(error instanceof Error)) return String(error);
  const code = rpcCode(error);
  if (code !== undefined) {
    const data = (error as { data?: unknown }).data;
    return `JSON-RPC error ${code}: ${elide(error.message, 300)}${data === undefined ? "" : ` (data: ${elide(JSON.stringify(data) ?? "", 300)})`}`;
  }
  const cause = error.cause instanceof Error ? ` (${error.cause.message})` : "";
  return `${error.message}${cause}`;
}
