import { afterEach, beforeEach, describe, expect, it, vi } from "vitest";
import { PROGRESS_WINDOW_MS, ProgressLines } from "../../src/server/progress.js";

describe("progress lines as working updates", () => {
  beforeEach(() => {
    vi.useFakeTimers();
  });
  afterEach(() => {
    vi.useRealTimers();
  });

  it("sends a line after a quiet spell at once, and a burst's lines together at the window's end, in order", () => {
    const sent: (readonly string[])[] = [];
    const progress = new ProgressLines((lines) => sent.push(lines));
    progress.add("a");
    expect(sent).toEqual([["a"]]);
    for (const line of ["b", "c", "d"]) progress.add(line);
    expect(sent).toHaveLength(1);
    vi.advanceTimersByTime(PROGRESS_WINDOW_MS);
    expect(sent).toEqual([["a"], ["b", "c", "d"]]);
    progress.add("e");
    expect(sent).toHaveLength(2);
    vi.advanceTimersByTime(PROGRESS_WINDOW_MS);
    expect(sent).toEqual([["a"], ["b", "c", "d"], ["e"]]);
    // Quiet for a whole window: the next line goes at once again.
    vi.advanceTimersByTime(PROGRESS_WINDOW_MS);
    progress.add("f");
    expect(sent.at(-1)).toEqual(["f"]);
    progress.stop();
  });

  it("flushes what waits before a final state, and sends nothing after stop", () => {
    const sent: (readonly string[])[] = [];
    const progress = new ProgressLines((lines) => sent.push(lines));
    progress.add("a");
    progress.add("b");
    progress.flush();
    expect(sent).toEqual([["a"], ["b"]]);
    progress.add("c");
    progress.add("d");
    progress.stop();
    vi.advanceTimersByTime(10 * PROGRESS_WINDOW_MS);
    expect(sent).toEqual([["a"], ["b"], ["c"]]);
    expect(vi.getTimerCount()).toBe(0);
  });
});
