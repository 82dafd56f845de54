import { describe, expect, it } from "vitest";
import { simulatedUser, wholeRequestUser } from "../../src/assessment/index.js";
import { MAX_USER_TURNS, type UserSimulator } from "../../src/users/index.js";

/** A user that says "part N" and stops at its `stopAt`-th reply, throwing when told "fail". */
const countingUser = (stopAt: number): UserSimulator => ({
  kind: "counting",
  label: "counting",
  start: () => {
    let replies = 0;
    return {
      open: async () => ({ text: "part 0", stop: false }),
      reply: async (said) => {
        if (said === "fail") throw new Error("the user's model is unreachable");
        replies++;
        return { text: `part ${replies}`, stop: replies >= stopAt };
      },
    };
  },
});

describe("the user an episode speaks for", () => {
  it("single-turn hands over the whole request, stops at the first answer and logs nothing", async () => {
    const user = wholeRequestUser("the whole request", 7);
    expect(await user.open()).toEqual({ prompt: "the whole request" });
    expect(await user.hear("an answer")).toEqual({ stop: true });
    expect(user.lastTurn).toBe(7);
    expect(user.keepsUnfinishedAnswer).toBe(true);
    expect(user.log()).toBeUndefined();
  });

  it("a simulated user opens with its own words, speaks until it stops, and logs its opening and replies", async () => {
    const user = simulatedUser(countingUser(2), { persona: "p", prompt: "the whole request" }, 5);
    expect(user.log()).toBeUndefined();
    const opened = await user.open();
    expect(opened.prompt).toBe("part 0");
    expect(opened.opening).toEqual({ text: "part 0", stop: false });
    expect(await user.hear("first")).toEqual({ stop: false, turn: { text: "part 1", stop: false } });
    expect(await user.hear("second")).toEqual({ stop: true, turn: { text: "part 2", stop: true } });
    expect(user.log()).toEqual({ label: "counting", opening: { text: "part 0", stop: false }, replies: 2 });
    expect(user.lastTurn).toBe(5 * (MAX_USER_TURNS + 1));
    expect(user.keepsUnfinishedAnswer).toBe(false);
  });

  it("a reply the user cannot give throws and is not counted", async () => {
    const user = simulatedUser(countingUser(3), { persona: "p", prompt: "q" }, 5);
    await user.open();
    await expect(user.hear("fail")).rejects.toThrow(/unreachable/);
    expect(user.log()?.replies).toBe(0);
  });
});
