import { PurpleError, PurpleGoneError } from "./errors.js";
import { sleep } from "./wait.js";

/** The environment variable that sets the retry window, in seconds (docs/protocol.md, section 11). */
export const RETRY_ENV = "ENTROPIC_PURPLE_RETRY_SECONDS";
export const DEFAULT_RETRY_SECONDS = 30;
const RETRY_FIRST_WAIT_MS = 250;
const RETRY_LONGEST_WAIT_MS = 5_000;

/** The retry window the environment sets: a number of seconds, 0 for none; anything else is refused, naming the variable. */
export function retryWindowFromEnv(env: Readonly<Record<string, string | undefined>>): number {
  const raw = env[RETRY_ENV];
  if (raw === undefined || raw.trim() === "") return DEFAULT_RETRY_SECONDS * 1000;
  const seconds = Number(raw);
  if (!Number.isFinite(seconds) || seconds < 0 || seconds > 3600) throw new Error(`${RETRY_ENV} must be a number of seconds from 0 to 3600 (got ${JSON.stringify(raw)})`);
  return seconds * 1000;
}

export interface RetryWindowOptions {
  /** How long refused or reset connections are retried before the purple is taken as gone (ms); DEFAULT_RETRY_SECONDS by default. */
  readonly windowMs?: number | undefined;
  /** Called once, when the purple has been unreachable for the whole window. */
  readonly onGone?: ((message: string) => void) | undefined;
  /**
   * A verdict of the layer beneath (an incompatible purple) that ends every turn, unsent; it is
   * looked at before each try, ahead of the window's own.
   */
  readonly settled?: (() => PurpleError | undefined) | undefined;
  /** The clock and the wait between tries: performance.now and a timer (tests drive their own). */
  readonly now?: () => number;
  readonly wait?: (ms: number, stop: AbortSignal | undefined) => Promise<void>;
}

/**
 * The retry window over a purple's turns, a decorator of the turn the client sends through the
 * SDK's transport: a turn whose try fails on a refused or reset connection (a PurpleError marked
 * retryable: the purple is restarting, a container crash, an OOM) is tried again, whole (a new
 * message, a fresh timeout), with backoff, until the purple has been unreachable for the window,
 * counted from its first fault and shared by all the episodes in flight. Then it is gone: the
 * caller is told once (`onGone`), and this and every later turn fail at once with that reason.
 * Any answer at all, even a faulty one, says the purple is there and closes the count.
 */
export class RetryWindow {
  readonly windowMs: number;
  private readonly onGone: ((message: string) => void) | undefined;
  private readonly settled: () => PurpleError | undefined;
  private readonly now: () => number;
  private readonly wait: (ms: number, stop: AbortSignal | undefined) => Promise<void>;
  /** Since when every try has met a refused or reset connection (none since the last answer). */
  private unreachableSince: number | undefined;
  /** Set once the window expired: the error of every later turn. */
  private gone: PurpleGoneError | undefined;

  constructor(
    /** The purple's URL, which the gone message names. */
    readonly url: string,
    options: RetryWindowOptions = {},
  ) {
    this.windowMs = options.windowMs ?? DEFAULT_RETRY_SECONDS * 1000;
    this.onGone = options.onGone;
    this.settled = options.settled ?? (() => undefined);
    this.now = options.now ?? (() => performance.now());
    this.wait = options.wait ?? sleep;
  }

  /** One turn: `attempt` (one try, bounded by the turn's timeout) until it answers, fails for good, or the window closes. */
  async send<T>(attempt: () => Promise<T>, stop?: AbortSignal): Promise<T> {
    for (let retry = 0; ; retry++) {
      const settled = this.settled();
      if (settled) throw settled;
      if (this.gone) throw this.gone;
      try {
        const turn = await attempt();
        this.unreachableSince = undefined;
        return turn;
      } catch (error) {
        if (!(error instanceof PurpleError) || !error.retryable) {
          // Any answer at all (even a faulty one) says the purple is there.
          if (error instanceof PurpleError && error.kind !== "canceled") this.unreachableSince = undefined;
          throw error;
        }
        const now = this.now();
        this.unreachableSince ??= now;
        const left = this.windowMs - (now - this.unreachableSince);
        if (left <= 0) throw this.declareGone(error, (now - this.unreachableSince) / 1000);
        try {
          await this.wait(Math.min(left, RETRY_FIRST_WAIT_MS * 2 ** Math.min(retry, 10), RETRY_LONGEST_WAIT_MS), stop);
        } catch {
          throw new PurpleError("canceled", "the call was aborted: the assessment is stopping");
        }
      }
    }
  }

  /** The purple has been unreachable for the whole window: said once to the caller, then the error of every turn, unsent. */
  private declareGone(last: PurpleError, seconds: number): PurpleGoneError {
    if (!this.gone) {
      const message = `the purple agent at ${this.url} has been unreachable for ${seconds.toFixed(1)} s (${last.message}; retried with backoff for ${this.windowMs / 1000} s, ${RETRY_ENV}), so it is taken as gone and the assessment stops: restart the purple and send the same request again to continue the run`;
      this.gone = new PurpleGoneError(message);
      this.onGone?.(message);
    }
    return this.gone;
  }
}
