import { NamedRegistry } from "../util/index.js";
import type { UserChoice } from "./choose.js";
import type { UserSimulator } from "./user.js";

/**
 * A mode of assessment, as the user an episode speaks to. Single-turn has none: the whole request
 * goes in the first message and the first answer ends the episode. Any other mode is a user: it
 * opens the episode with what it says of the request, hears each answer (`respond`), and says when
 * it is done (the episode loop in src/assessment/episode.ts speaks to whatever user it is given).
 * A new mode is a user module and one line in BUILT_IN_MODES (tests/e2e/mode-toy.test.ts registers one).
 */
export interface ModeSpec {
  /** The config's `mode` value. */
  readonly name: string;
  readonly description: string;
  /**
   * The user a run in this mode speaks to, from the config's choice and the door's simulators
   * (interactive mode's model or scripted user); absent: single-turn, no user.
   */
  readonly user?: (choice: UserChoice, simulators: (choice: UserChoice) => UserSimulator) => UserSimulator;
}

/** The whole request at once, the first answer final: CRMArena-Pro's main setting, and the default. */
export const SINGLE_TURN: ModeSpec = { name: "single_turn", description: "the whole request in the first message; the first answer is final" };

/** A simulated user holds the request and lets it out over several turns; the purple's respond goes to it until it stops. */
export const INTERACTIVE: ModeSpec = {
  name: "interactive",
  description: "a simulated user reveals the request over several turns",
  user: (choice, simulators) => simulators(choice),
};

export const BUILT_IN_MODES: readonly ModeSpec[] = [SINGLE_TURN, INTERACTIVE];

const registry = new NamedRegistry<ModeSpec>("mode", BUILT_IN_MODES);

/** Adds a mode after the registered ones; returns what removes it again (for tests). */
export const registerMode = (spec: ModeSpec): (() => void) => registry.register(spec);

export const modeNames = (): string[] => registry.names();

/** The registered mode of a config's `mode` (single-turn when absent); undefined for a name none has. */
export function modeNamed(name: string | undefined): ModeSpec | undefined {
  return registry.named(name ?? SINGLE_TURN.name);
}

/** Whether a run of this mode speaks to a user (every mode but single-turn): a log of a mode this process does not know is read so too. */
export const modeHasUser = (name: string | undefined): boolean => name !== undefined && name !== SINGLE_TURN.name;
