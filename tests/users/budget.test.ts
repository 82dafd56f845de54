import { describe, expect, it } from "vitest";
import type { ChatMessage, LlmProvider } from "../../src/llm/index.js";
import { boundedAgentText, LlmUser, MAX_USER_TURNS, USER_INPUT_BUDGET } from "../../src/users/index.js";

/** A model that records every prompt it is sent and answers without stopping. */
function recordingModel(): LlmProvider & { readonly sent: ChatMessage[][] } {
  const sent: ChatMessage[][] = [];
  return {
    role: "cheap",
    model: "recording",
    usage: { calls: 0, failures: 0, inputTokens: 0, outputTokens: 0 },
    sent,
    complete: async (messages) => {
      sent.push(messages.map((message) => ({ ...message })));
      return "Tell me more.";
    },
  } as LlmProvider & { readonly sent: ChatMessage[][] };
}

describe("what a model user is sent of the purple's words", () => {
  it("keeps a message within the budget whole, and cuts a longer one saying how much was cut", () => {
    expect(boundedAgentText("short")).toBe("short");
    const cut = boundedAgentText("x".repeat(USER_INPUT_BUDGET + 1234));
    expect(cut.startsWith("x".repeat(USER_INPUT_BUDGET))).toBe(true);
    expect(cut).toContain("1,234 more characters");
    expect(cut.length).toBeLessThan(USER_INPUT_BUDGET + 100);
  });

  it("never sends the model more than the budget per agent message, however much a purple writes", async () => {
    const model = recordingModel();
    const conversation = new LlmUser(model).start({ persona: "a sales rep", query: "Which account has the most open cases?" });
    await conversation.open();
    const huge = "y".repeat(10_000_000);
    for (let turn = 0; turn < MAX_USER_TURNS; turn++) await conversation.reply(huge);
    const agentMessages = model.sent.at(-1)!.filter((message) => message.role === "user" && message.content.startsWith("The assistant says: y"));
    expect(agentMessages).toHaveLength(MAX_USER_TURNS);
    for (const message of agentMessages) expect(message.content.length).toBeLessThan(USER_INPUT_BUDGET + 150);
    const total = model.sent.at(-1)!.reduce((sum, message) => sum + message.content.length, 0);
    expect(total).toBeLessThan((MAX_USER_TURNS + 2) * (USER_INPUT_BUDGET + 2_000));
  });
});
