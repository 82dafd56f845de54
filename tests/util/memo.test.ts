import { describe, expect, it } from "vitest";
import { WeakMemo } from "../../src/util/index.js";

describe("WeakMemo", () => {
  it("makes a value once per owner and key, and keeps owners apart", () => {
    const memo = new WeakMemo<object, string, number | undefined>();
    const [first, second] = [{}, {}];
    const made: string[] = [];
    const make = (label: string, value: number | undefined) => () => {
      made.push(label);
      return value;
    };
    expect(memo.get(first, "a", make("first a", 1))).toBe(1);
    expect(memo.get(first, "a", make("first a again", 2))).toBe(1);
    expect(memo.get(first, "b", make("first b", 3))).toBe(3);
    expect(memo.get(second, "a", make("second a", 4))).toBe(4);
    // A value that is undefined is remembered too, not made again.
    expect(memo.get(second, "none", make("second none", undefined))).toBeUndefined();
    expect(memo.get(second, "none", make("second none again", 5))).toBeUndefined();
    expect(made).toEqual(["first a", "first b", "second a", "second none"]);
  });
});
