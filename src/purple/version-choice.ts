import type { Transport } from "@a2a-js/sdk/client";
import { describeError, PurpleError, rpcCode } from "./errors.js";
import { type A2AVersion, chooseProtocol, isVersionMismatchCode, mismatchExplanation, type ProtocolChoice } from "./protocol-version.js";

export interface VersionChoiceOptions {
  /** The purple's agent card as read: the version is chosen from it. */
  readonly card?: unknown;
  /** Reads the card when none was given, before the first turn (a card that cannot be read: `{}`, which leaves 0.3, then 1.0, to be tried). */
  readonly readCard: () => Promise<unknown>;
  /** Speak this version whatever the card says. */
  readonly protocolVersion?: A2AVersion | undefined;
  /**
   * Called once, before the failing turn rejects, when the purple's first answers say it does not
   * speak the version(s) its card named; every later turn fails with it, unsent.
   */
  readonly onIncompatible?: ((message: string) => void) | undefined;
}

/** One turn's exchange over the SDK's transport for `version` (its send and polls). */
export type VersionedExchange<T> = (transport: Transport, version: A2AVersion) => Promise<T>;

/**
 * The A2A version a purple is spoken to in, a decorator over the SDK's transports (one per
 * version, made by `createTransport` and kept): each exchange goes through the transport of the
 * version chosen from the card (docs/protocol.md, "Protocol versions"). Before any turn has been
 * answered, a method or version error (JSON-RPC -32009 or -32601) says the purple speaks another
 * version: the card's fallback is spoken instead, and the exchange sent again in it; with no
 * fallback left the purple is incompatible, said once (`onIncompatible`) and the error of every
 * later turn. Once a turn is answered the version stays.
 */
export class VersionChoice {
  private choice: ProtocolChoice | undefined;
  private choosing: Promise<ProtocolChoice> | undefined;
  private readonly transports = new Map<A2AVersion, Promise<Transport>>();
  /** Whether a turn has been answered: until then a method or version error means the versions do not match. */
  private answered = false;
  /** The first answers' refusals, by the version refused (a card that names no version is tried in both). */
  private readonly refusals = new Map<A2AVersion, string>();
  private incompatible: PurpleError | undefined;
  private readonly card: unknown;
  private readonly readCard: () => Promise<unknown>;
  private readonly onIncompatible: ((message: string) => void) | undefined;

  constructor(
    private readonly createTransport: (version: A2AVersion) => Promise<Transport>,
    options: VersionChoiceOptions,
  ) {
    this.card = options.card;
    this.readCard = options.readCard;
    this.onIncompatible = options.onIncompatible;
    if (options.protocolVersion) this.choice = { version: options.protocolVersion, reason: "set by the caller" };
  }

  /** The version spoken, once it is known (after the first turn at the latest). */
  get version(): A2AVersion | undefined {
    return this.choice?.version;
  }

  /** Set once the purple is known to speak nothing the green does: the error of every later turn. */
  get verdict(): PurpleError | undefined {
    return this.incompatible;
  }

  /** One exchange in the version chosen, sent again in the fallback when the first answers refuse it; `signal` is the turn's. */
  async exchange<T>(exchange: VersionedExchange<T>, signal: AbortSignal): Promise<T> {
    let version = (await this.chosen()).version;
    for (;;) {
      try {
        const turn = await exchange(await this.transport(version), version);
        this.answered = true;
        return turn;
      } catch (error) {
        if (!isVersionMismatchCode(rpcCode(error)) || signal.aborted) throw error;
        if (this.incompatible) throw this.incompatible;
        const choice = this.choice!;
        // Sent before another turn switched the version (and maybe before that one was answered): sent again in it.
        if (choice.version !== version) {
          version = choice.version;
          continue;
        }
        // Before any answer, a method or version error says the purple speaks another version.
        if (this.answered) throw error;
        this.refusals.set(version, describeError(error));
        if (choice.fallback && !this.refusals.has(choice.fallback)) {
          this.choice = { version: choice.fallback, reason: `${choice.reason}; it refused A2A ${version} (${describeError(error)}), so A2A ${choice.fallback} is spoken` };
          version = choice.fallback;
          continue;
        }
        throw this.giveUp(mismatchExplanation(this.refusals));
      }
    }
  }

  /** The version and why, from the card given or read. */
  private async chosen(): Promise<ProtocolChoice> {
    if (this.choice) return this.choice;
    this.choosing ??= (async () => {
      const card = this.card ?? (await this.readCard());
      const choice = chooseProtocol(card);
      if ("refusal" in choice) throw this.giveUp(choice.refusal);
      return choice;
    })();
    this.choice = await this.choosing;
    return this.choice;
  }

  private transport(version: A2AVersion): Promise<Transport> {
    let transport = this.transports.get(version);
    if (!transport) {
      transport = this.createTransport(version);
      this.transports.set(version, transport);
    }
    return transport;
  }

  /** The purple speaks nothing the green does: said once to the caller, then the error of every turn, unsent. */
  private giveUp(message: string): PurpleError {
    if (!this.incompatible) {
      this.incompatible = new PurpleError("protocol", message);
      this.onIncompatible?.(message);
    }
    return this.incompatible;
  }
}
