import type { UserBrief, UserConversation, UserSimulator, UserTurn } from "./user.js";

/**
 * The request split into what a user would say one piece at a time: its sentences, and a long
 * sentence's clauses after the first ("... for X, over the last 3 months, ..."). The first piece
 * is the ask itself; each later one is a criterion.
 */
export function requestPieces(query: string): string[] {
  const sentences = query
    .replace(/\s+/g, " ")
    .split(/(?<=[.?!])\s+(?=[A-Z#-])/)
    .map((sentence) => sentence.trim())
    .filter(Boolean);
  return sentences.length > 0 ? sentences : [query.trim()];
}

/**
 * A deterministic, offline simulated user: it reveals the request sentence by sentence, one more
 * each time the agent speaks, and stops once the agent answers with the whole request known. It
 * cannot judge an answer, so it never leaks one and never stops early: what it costs the purple
 * is only that the request comes in pieces. The results label it, so a run with it is never
 * mistaken for one with a model as the user.
 */
export class ScriptedUser implements UserSimulator {
  readonly kind = "scripted";
  readonly label = "scripted (deterministic, offline: reveals the request sentence by sentence)";

  start(brief: UserBrief): UserConversation {
    const pieces = requestPieces(brief.query);
    let revealed = 0;
    const say = (text: string, stop: boolean): Promise<UserTurn> => Promise.resolve({ text, stop });
    return {
      open: () => {
        revealed = 1;
        return say(pieces[0]!, false);
      },
      reply: () => {
        if (revealed >= pieces.length) return say("Thank you, that is all I needed.", true);
        const next = pieces[revealed++]!;
        return say(next, false);
      },
    };
  }
}
