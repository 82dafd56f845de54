/** How long progress lines gather after a working update before the next one is sent. */
export const PROGRESS_WINDOW_MS = 100;

/**
 * An assessment's progress lines as working updates: a line after a quiet spell goes at once, as
 * its own update; the lines that follow within PROGRESS_WINDOW_MS go together at the window's end,
 * one text part each, in one update. Each update costs the A2A SDK a load, a save and deep copies
 * of the task, and a streaming client a write: a round of 256 replies that arrive together was
 * 512 updates, and is now a handful, with every line still sent, in order.
 */
export class ProgressLines {
  private pending: string[] = [];
  private window: NodeJS.Timeout | undefined;

  constructor(
    private readonly send: (lines: readonly string[]) => void,
    private readonly windowMs = PROGRESS_WINDOW_MS,
  ) {}

  add(line: string): void {
    if (this.window === undefined) {
      this.send([line]);
      this.open();
    } else this.pending.push(line);
  }

  /** Sends the lines waiting now (before a final state, an artifact or another update). */
  flush(): void {
    clearTimeout(this.window);
    this.window = undefined;
    if (this.pending.length === 0) return;
    const lines = this.pending;
    this.pending = [];
    this.send(lines);
  }

  /** Drops what waits and ends the window (the task has ended). */
  stop(): void {
    clearTimeout(this.window);
    this.window = undefined;
    this.pending = [];
  }

  private open(): void {
    this.window = setTimeout(() => {
      this.window = undefined;
      if (this.pending.length === 0) return;
      const lines = this.pending;
      this.pending = [];
      this.send(lines);
      this.open();
    }, this.windowMs);
  }
}
