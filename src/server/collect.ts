import { setFlagsFromString } from "node:v8";
import { runInNewContext } from "node:vm";

let collect: (() => void) | undefined | null;

/**
 * A full garbage collection, when V8 lets us have one. An assessment leaves hundreds of megabytes
 * of garbage (observations, request bodies, its results) that V8 would only collect at its next
 * full GC, possibly minutes later on an idle server; collecting once when an assessment ends
 * returns that memory at once, at the price of one pause of some tens of milliseconds.
 */
export function collectGarbage(): void {
  if (collect === undefined) {
    try {
      setFlagsFromString("--expose-gc");
      collect = runInNewContext("gc") as () => void;
    } catch {
      collect = null;
    }
  }
  collect?.();
}
