import type { Trajectory, UserTurn } from "../log/index.js";
import { MAX_USER_TURNS, type UserConversation, type UserSimulator } from "../users/index.js";

/** What the user did on hearing an answer: stopped (the answer is final), or spoke again (the purple's next message). */
export type Heard = { readonly stop: true; readonly turn?: UserTurn } | { readonly stop: false; readonly turn: UserTurn };

/**
 * The user an episode speaks for, always there (as tau2's orchestrator has one): it opens the
 * episode with what it says of the request, hears each answer, and says when it is done. The
 * episode loop (episode.ts) knows no mode: single-turn is the user that hands over the whole
 * request and stops at the first answer; interactive a simulated user that reveals it.
 */
export interface EpisodeUser {
  /**
   * The request as the first message says it, and the user's opening turn when one spoke it (the
   * first message then says that a user is there). Throws when the user cannot speak.
   */
  open(): Promise<{ readonly prompt: string; readonly opening?: UserTurn }>;
  /** Hears an answer (a `respond`). Throws when the user cannot reply. */
  hear(answer: string): Promise<Heard>;
  /** Steps the whole episode may take: the `max_steps` of one answer, times the turns the user may speak. */
  readonly lastTurn: number;
  /** Whether an episode that ran out of turns keeps its last answer: not where only the user's stop makes an answer final. */
  readonly keepsUnfinishedAnswer: boolean;
  /** The user's part of the trajectory (absent for single-turn), as it stands. */
  log(): Trajectory["user"];
}

/** Single-turn, CRMArena-Pro's main setting: the whole request in the first message, the first answer final. */
export function wholeRequestUser(prompt: string, maxSteps: number): EpisodeUser {
  return {
    open: async () => ({ prompt }),
    hear: async () => ({ stop: true }),
    lastTurn: maxSteps,
    keepsUnfinishedAnswer: true,
    log: () => undefined,
  };
}

/**
 * A simulated user (interactive mode, or any mode whose user speaks): it opens with part of the
 * request and replies to each respond until it stops. Budgets as CRMArena-Pro does: `max_steps`
 * agent turns after each respond, the user speaking at most MAX_USER_TURNS times.
 */
export function simulatedUser(simulator: UserSimulator, brief: { readonly persona: string; readonly prompt: string }, maxSteps: number): EpisodeUser {
  const conversation: UserConversation = simulator.start({ persona: brief.persona, query: brief.prompt });
  let userLog: Trajectory["user"];
  return {
    open: async () => {
      const opening = await conversation.open();
      userLog = { label: simulator.label, opening, replies: 0 };
      return { prompt: opening.text, opening };
    },
    hear: async (answer) => {
      const turn = await conversation.reply(answer);
      if (userLog) userLog.replies++;
      return turn.stop ? { stop: true, turn } : { stop: false, turn };
    },
    lastTurn: maxSteps * (MAX_USER_TURNS + 1),
    keepsUnfinishedAnswer: false,
    log: () => userLog,
  };
}
