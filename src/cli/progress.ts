import type { AssessmentEvent } from "../assessment/index.js";

/** "1m05s", "42s". */
export function duration(seconds: number): string {
  if (!Number.isFinite(seconds)) return "?";
  const whole = Math.max(0, Math.round(seconds));
  return whole >= 60 ? `${Math.floor(whole / 60)}m${String(whole % 60).padStart(2, "0")}s` : `${whole}s`;
}

/**
 * Progress for people on stderr: a bar with passed and failed counts, the rate and the time
 * left, numbered by completion; redrawn in place on a terminal, a line per tenth otherwise (CI logs).
 */
export function progressPrinter(stream: NodeJS.WriteStream = process.stderr, now: () => number = () => performance.now()): (event: AssessmentEvent) => void {
  let passed = 0;
  let resumed = 0;
  let started = now();
  return (event) => {
    if (event.kind === "started") {
      started = now();
      resumed = event.resumed;
      if (resumed > 0) stream.write(`Resuming: ${resumed} of ${event.total} tasks already finished in the journal.\n`);
      return;
    }
    if (event.kind !== "task_finished") return;
    if (event.record.score?.original.passed) passed++;
    const { done, total } = event;
    const ranHere = done - resumed;
    const elapsed = (now() - started) / 1000;
    const rate = ranHere > 0 && elapsed > 0 ? ranHere / elapsed : 0;
    const left = rate > 0 ? (total - done) / rate : Number.NaN;
    const width = 30;
    const filled = Math.round((done / total) * width);
    const line = `[${"#".repeat(filled)}${".".repeat(width - filled)}] ${done}/${total}  passed ${passed}  failed ${ranHere - passed}  ${rate.toFixed(1)} tasks/s  ${done === total ? `done in ${duration(elapsed)}` : `${duration(left)} left`}`;
    if (stream.isTTY) stream.write(`\r${line}${done === total ? "\n" : ""}`);
    else if (done === total || Math.floor((done * 10) / total) > Math.floor(((done - 1) * 10) / total)) stream.write(`${line}\n`);
  };
}
