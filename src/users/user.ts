import type { ModelSpend } from "../llm/index.js";
import type { UserTurn } from "../log/index.js";
import { EntropicError, type ErrorDetails } from "../util/index.js";

export type { UserTurn };

/** What the simulated user is told: who they are and what they want (CRMArena-Pro's persona and query). */
export interface UserBrief {
  readonly persona: string;
  /** The request as the task states it (after rot and drift rewrote its text, as the purple would have seen it). */
  readonly query: string;
}

/** A user's conversation with the agent over one episode. */
export interface UserConversation {
  /** The user's first message: the start of the request. */
  open(): Promise<UserTurn>;
  /** The user's reply to what the agent said to it (a `respond`). */
  reply(agentSaid: string): Promise<UserTurn>;
}

/** A simulated user: one conversation per episode. `label` is what the results call it. */
export interface UserSimulator {
  /** What plays the user: "scripted", "llm", or a mode's own (a toy mode's user, say). */
  readonly kind: string;
  readonly label: string;
  start(brief: UserBrief): UserConversation;
  /** The same user with its model calls charged to a run's spend (absent for a user that calls no model). */
  withSpend?(spend: ModelSpend): UserSimulator;
}

/** A simulated user's own failure (its model unreachable, an empty reply): the episode ends as the user's fault, not the purple's. */
export class UserSimulatorError extends EntropicError {
  override readonly name = "UserSimulatorError";
  constructor(message: string, details: ErrorDetails = {}) {
    super("model", message, details);
  }
}

/** CRMArena-Pro's user ends its side with this marker. */
export const STOP_MARKER = "###STOP###";

/** At most this many user turns an episode, as CRMArena-Pro's interactive environment allows. */
export const MAX_USER_TURNS = 10;

/**
 * The most of one agent message a model user is shown, in characters: what a purple writes goes to
 * the operator's model provider, which bills every character, so a purple writing megabytes is cut
 * here (the cut said in the prompt, which the log keeps). A person would not read further either.
 */
export const USER_INPUT_BUDGET = 4_000;

/** An agent message as a model user is shown it: whole within the budget, else its start and how much was cut. */
export function boundedAgentText(text: string, budget = USER_INPUT_BUDGET): string {
  if (text.length <= budget) return text;
  return `${text.slice(0, budget)} [… the assistant's message went on for ${(text.length - budget).toLocaleString("en-US")} more characters, not shown]`;
}
