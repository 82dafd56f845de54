import { describe, expect, it } from "vitest";
import { PurpleError, PurpleGoneError } from "../../src/purple/errors.js";
import { RETRY_ENV, RetryWindow, retryWindowFromEnv } from "../../src/purple/retry-window.js";

const refused = () => new PurpleError("unreachable", "connection refused", true);

/**
 * A purple behind a fake transport: each try takes the next outcome of its script (an error to
 * throw, else an answer). The window's clock moves only when it waits, by what it waits.
 */
function harness(script: (PurpleError | string)[], options: { windowMs?: number; settled?: () => PurpleError | undefined } = {}) {
  let clock = 0;
  const waits: number[] = [];
  const gone: string[] = [];
  let tries = 0;
  const window = new RetryWindow("http://purple.test/", {
    windowMs: options.windowMs ?? 1_000,
    onGone: (message) => gone.push(message),
    settled: options.settled,
    now: () => clock,
    wait: async (ms, stop) => {
      if (stop?.aborted) throw stop.reason;
      waits.push(ms);
      clock += ms;
    },
  });
  const attempt = async () => {
    const outcome = script[tries++] ?? "answer";
    if (outcome instanceof PurpleError) throw outcome;
    return outcome;
  };
  return { window, attempt, waits, gone, tries: () => tries };
}

describe("the retry window over a purple's turns", () => {
  it("tries a refused turn again with a doubling wait until the purple answers", async () => {
    const { window, attempt, waits, gone, tries } = harness([refused(), refused(), refused(), "back"], { windowMs: 10_000 });
    await expect(window.send(attempt)).resolves.toBe("back");
    expect(tries()).toBe(4);
    expect(waits).toEqual([250, 500, 1000]);
    expect(gone).toEqual([]);
  });

  it("takes the purple as gone once the window is spent, says so once, and fails every later turn unsent", async () => {
    const { window, attempt, waits, gone, tries } = harness(Array.from({ length: 10 }, refused), { windowMs: 1_000 });
    const error = await window.send(attempt).catch((caught: unknown) => caught);
    expect(error).toBeInstanceOf(PurpleGoneError);
    // 250 + 500, then the 250 left of the window; the try after it finds the window spent.
    expect(waits).toEqual([250, 500, 250]);
    expect(tries()).toBe(4);
    expect(gone).toHaveLength(1);
    expect(gone[0]).toContain("http://purple.test/");
    expect(gone[0]).toContain(RETRY_ENV);
    await expect(window.send(attempt)).rejects.toBe(error);
    expect(tries()).toBe(4);
    expect(gone).toHaveLength(1);
  });

  it("passes a failure that is not a refused connection through at once, and an answer closes the count", async () => {
    const faulty = new PurpleError("protocol", "not A2A");
    const { window, attempt, waits, gone, tries } = harness([refused(), refused(), faulty, refused(), refused(), "ok"], { windowMs: 1_000 });
    await expect(window.send(attempt)).rejects.toBe(faulty);
    expect(tries()).toBe(3);
    // The faulty answer said the purple is there: the next refusals count from zero again, so 750 ms more fit.
    await expect(window.send(attempt)).resolves.toBe("ok");
    expect(waits).toEqual([250, 500, 250, 500]);
    expect(gone).toEqual([]);
  });

  it("a window of 0 takes a purple that refuses its first try as gone", async () => {
    const { window, attempt, waits, gone } = harness([refused()], { windowMs: 0 });
    await expect(window.send(attempt)).rejects.toBeInstanceOf(PurpleGoneError);
    expect(waits).toEqual([]);
    expect(gone).toHaveLength(1);
  });

  it("a verdict of the layer beneath (an incompatible purple) fails the turn before any try, ahead of its own", async () => {
    const incompatible = new PurpleError("protocol", "speaks no version the green does");
    let verdict: PurpleError | undefined;
    const { window, attempt, tries } = harness([refused(), "answer"], { settled: () => verdict });
    await expect(window.send(attempt)).resolves.toBe("answer");
    expect(tries()).toBe(2);
    verdict = incompatible;
    await expect(window.send(attempt)).rejects.toBe(incompatible);
    expect(tries()).toBe(2);
  });

  it("a stop while waiting ends the turn as canceled", async () => {
    const stop = new AbortController();
    stop.abort(new Error("stopping"));
    const { window, attempt, tries } = harness([refused(), "answer"]);
    await expect(window.send(attempt, stop.signal)).rejects.toMatchObject({ kind: "canceled" });
    expect(tries()).toBe(1);
  });

  it("reads its length from ENTROPIC_PURPLE_RETRY_SECONDS, refusing what is not a number of seconds", () => {
    expect(retryWindowFromEnv({})).toBe(30_000);
    expect(retryWindowFromEnv({ [RETRY_ENV]: "0" })).toBe(0);
    expect(retryWindowFromEnv({ [RETRY_ENV]: "2.5" })).toBe(2_500);
    expect(() => retryWindowFromEnv({ [RETRY_ENV]: "soon" })).toThrow(RETRY_ENV);
  });
});
