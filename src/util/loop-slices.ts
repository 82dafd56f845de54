/**
 * Long work on the main thread in slices the event loop can live with (admitting a request:
 * reading the org, planning the entropy, keying the Ids). One queue for the whole process: each
 * turn of the loop resumes one waiting task for one slice, so eight admissions at once take their
 * turns instead of stacking eight slices into one long gap (as setImmediate alone would: every
 * callback queued for the next turn runs in that turn).
 */

/** How long one slice may keep the event loop (well under the 100 ms a gap may last). */
export const SLICE_MS = 15;

const waiting: (() => void)[] = [];
let pumping = false;
/** When the running slice began. */
let sliceStarted = performance.now();

function pump(): void {
  const next = waiting.shift();
  if (!next) {
    pumping = false;
    return;
  }
  sliceStarted = performance.now();
  // The task resumes in the microtasks right after this callback; the next one waits a whole turn.
  next();
  setImmediate(pump);
}

/** Waits for the task's next turn: the event loop runs (timers, I/O, other tasks' slices) in between. */
export function nextSlice(): Promise<void> {
  return new Promise((resolve) => {
    waiting.push(resolve);
    if (!pumping) {
      pumping = true;
      setImmediate(pump);
    }
  });
}

/** Lets the event loop run when the current slice has lasted SLICE_MS; otherwise goes on at once. */
export async function pauseIfDue(): Promise<void> {
  if (performance.now() - sliceStarted >= SLICE_MS) await nextSlice();
}
