import { afterAll, describe, expect, it } from "vitest";
import { type AssessmentEvent, assess, CANCELED, parseConfig, runSpecFor } from "../../src/assessment/index.js";
import type { PurpleClient } from "../../src/purple/index.js";
import { calibration, sampleData } from "../support/helpers.js";

const data = await sampleData();
afterAll(() => data.org.close());

/** A purple that answers None after a short wait (the episodes overlap, as a real purple's do). */
const steady: PurpleClient = {
  url: "stub://steady",
  send: async (_message, thread, _timeout, signal) => {
    await new Promise<void>((resolve, reject) => {
      const timer = setTimeout(resolve, 2);
      signal?.addEventListener(
        "abort",
        () => {
          clearTimeout(timer);
          reject(new Error("aborted"));
        },
        { once: true },
      );
    });
    return {
      reply: { texts: [JSON.stringify({ name: "respond", arguments: { answer: "None" } })], data: [] },
      contextId: thread.contextId ?? "steady",
      openTaskId: undefined,
      usage: undefined,
      bytes: 10,
    };
  },
};

describe("cancel", () => {
  it("starts no episode after it, however many are left, and returns the run's log without building its results", async () => {
    // The sample's tasks × 20 trials × 2 conditions: 1,760 episodes, of which about 40 run.
    const { config } = parseConfig({ trials: 20, paired: true, concurrency: 8, run_id: "bounds-cancel" });
    const cancel = new AbortController();
    const drain = new AbortController();
    let startedAfterCancel = 0;
    let started = 0;
    const onEvent = (event: AssessmentEvent) => {
      if (event.kind !== "task_started") return;
      if (cancel.signal.aborted) startedAfterCancel++;
      else if (++started === 40) {
        drain.abort(CANCELED);
        cancel.abort(CANCELED);
      }
    };
    const assessed = await assess(data, steady, {
      spec: runSpecFor({ participantUrl: steady.url, config, tasksSource: data.sources.tasks.path }),
      calibration,
      signal: cancel.signal,
      drain: drain.signal,
      onEvent,
    });
    expect(startedAfterCancel).toBe(0);
    expect(assessed.log.footer.status).toBe("canceled");
    expect(assessed.log.episodes.length).toBeLessThan(40);
    // The results are built only when read: a canceled run's caller (the server) never reads them.
    expect(typeof Object.getOwnPropertyDescriptor(assessed, "results")?.get).toBe("function");
    expect(assessed.results.status).toBe("canceled");
  }, 120_000);
});
