import { describe, expect, it } from "vitest";
import { nextSlice } from "../../src/util/loop-slices.js";

/**
 * Admissions share one queue of slices: each turn of the event loop resumes one waiting task, so
 * a burst of admissions takes turns instead of stacking its slices into one long gap. Order only:
 * how long a slice lasts is the bench's (npm run bench, its "admission" part).
 */
describe("the slices' queue", () => {
  it("resumes one waiting task per turn of the event loop, the tasks in turn", async () => {
    // A counter of the event loop's turns: a setImmediate callback that queues itself runs once a turn.
    let turn = 0;
    let counting = true;
    const count = () => {
      turn++;
      if (counting) setImmediate(count);
    };
    setImmediate(count);
    const resumed: { task: number; turn: number }[] = [];
    const task = async (id: number) => {
      for (let slice = 0; slice < 4; slice++) {
        await nextSlice();
        resumed.push({ task: id, turn });
      }
    };
    await Promise.all([task(0), task(1), task(2)]);
    counting = false;
    expect(resumed).toHaveLength(12);
    // Never two slices in one turn (setImmediate alone would resume all three in the same one).
    const turns = resumed.map((entry) => entry.turn);
    expect(new Set(turns).size).toBe(turns.length);
    // Round robin: each task waits behind the others once it has had its slice.
    expect(resumed.map((entry) => entry.task)).toEqual([0, 1, 2, 0, 1, 2, 0, 1, 2, 0, 1, 2]);
  });
});
