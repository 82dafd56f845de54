import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let collect: (() => void) | undefined | null;

/**
 * A full garbage collection of this thread's heap now, when V8 lets us have one (false when it
 * does not). V8 would collect only when the thread next allocates enough, which for a thread or
 * server that waits idle may be minutes later: what it let go stays resident until then.
 */
export function collectNow(): boolean {
  if (collect === undefined) {
    try {
      setFlagsFromString("--expose-gc");
      collect = runInNewContext("gc") as () => void;
    } catch {
      collect = null;
    }
  }
  if (!collect) return false;
  collect();
  return true;
}
