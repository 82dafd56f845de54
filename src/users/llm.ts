import type { ChatMessage, LlmProvider, ModelSpend } from "../llm/index.js";
import { boundedAgentText, MAX_USER_TURNS, STOP_MARKER, type UserBrief, type UserConversation, type UserSimulator, UserSimulatorError, type UserTurn } from "./user.js";

/**
 * The rules CRMArena-Pro gives its simulated user, in our own words: play the person, let the
 * request out a piece at a time, add nothing the request does not hold, and say the stop marker
 * once the agent has given what was asked for or said it cannot.
 */
export function userInstructions(brief: UserBrief): string {
  return [
    "You play a person who is asking a CRM assistant for help. Stay in that role for the whole conversation; you are not the assistant.",
    brief.persona.trim() ? `Who you are: ${brief.persona.trim()}` : "",
    "What you want (your request, which you know in full; the assistant does not see it):",
    brief.query.trim(),
    "",
    "How to talk:",
    "- Open with the main thing you want, in a sentence or two. Do not state every detail at once: give one more criterion or detail each time the assistant replies or asks, until it knows the whole request.",
    "- Use only what your request says. Never invent Ids, names, dates or figures; if the assistant asks for something your request does not hold, say you do not know.",
    "- If the assistant asks for a record by name and your request gives its Id, give the Id.",
    "- Never tell the assistant the answer, and never give hints about what it should be.",
    `- When the assistant has given an answer to your whole request, or said that nothing matches or it cannot help, end your message with ${STOP_MARKER} and nothing after it.`,
    "- Keep each message short and plain, as a busy person types.",
  ]
    .filter((line) => line !== "")
    .join("\n");
}

/**
 * A simulated user driven by a chat model (by default the cheap provider, as CRMArena-Pro runs its
 * user on a small model). A model that fails or says nothing is the simulator's failure: it is
 * thrown as a UserSimulatorError, which the episode records as `user_error`, apart from the purple's.
 */
export class LlmUser implements UserSimulator {
  readonly kind = "llm";
  readonly label: string;

  constructor(private readonly provider: LlmProvider) {
    this.label = `llm:${provider.model}`;
  }

  withSpend(spend: ModelSpend): UserSimulator {
    return new LlmUser(spend.wrap(this.provider));
  }

  start(brief: UserBrief): UserConversation {
    const history: ChatMessage[] = [{ role: "system", content: userInstructions(brief) }];
    let replies = 0;
    const turn = async (prompt: string): Promise<UserTurn> => {
      history.push({ role: "user", content: prompt });
      const before = { ...this.provider.usage };
      let said: string;
      try {
        said = await this.provider.complete(history);
      } catch (error) {
        throw new UserSimulatorError(`the simulated user's model ${this.provider.model} failed: ${(error as Error).message}`);
      }
      const text = said.trim();
      if (!text) throw new UserSimulatorError(`the simulated user's model ${this.provider.model} replied with nothing`);
      history.push({ role: "assistant", content: text });
      const stop = text.includes(STOP_MARKER);
      return {
        text: text.replace(STOP_MARKER, "").trim(),
        stop,
        prompt,
        usage: { inputTokens: this.provider.usage.inputTokens - before.inputTokens, outputTokens: this.provider.usage.outputTokens - before.outputTokens },
      };
    };
    return {
      // CRMArena-Pro's user opens in reply to the assistant's greeting.
      open: () => turn("The assistant says: Hi! How can I help you today?"),
      reply: async (agentSaid) => {
        replies++;
        const result = await turn(`The assistant says: ${boundedAgentText(agentSaid)}`);
        // CRMArena-Pro's user has at most ten turns: the last one ends the conversation whatever it says.
        return replies >= MAX_USER_TURNS ? { ...result, stop: true } : result;
      },
    };
  }
}
