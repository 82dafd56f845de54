import { EntropicError, type ErrorDetails } from "../util/index.js";
import type { ChatMessage, LlmProvider } from "./provider.js";

/** What one run may spend on models (its simulated user and its judges together): calls, and characters sent. */
export interface SpendLimits {
  /** Model calls (a cached judgement costs none). */
  readonly calls: number;
  /** Characters of the messages sent, summed over the calls. */
  readonly chars: number;
}

/** A run's model calls unless its config's `max_model_calls` says otherwise. */
export const DEFAULT_MAX_MODEL_CALLS = 50_000;
/** A run's characters sent to models unless its config's `max_model_chars` says otherwise (about 50 million tokens). */
export const DEFAULT_MAX_MODEL_CHARS = 200_000_000;
/**
 * The most one call may send, whatever the run's budget: every prompt is built within it (a
 * model user's history of at most eleven turns, each agent message cut to USER_INPUT_BUDGET; a
 * judge's question with the purple's words cut to JUDGE_INPUT_BUDGET). A larger one is a bug,
 * refused before it reaches the provider.
 */
export const MODEL_CALL_CHARS = 100_000;

/** The run's model spend reached its cap: the run stops, naming it. */
export class ModelSpendExceeded extends EntropicError {
  override readonly name = "ModelSpendExceeded";
  constructor(message: string, details: ErrorDetails = {}) {
    super("model", message, details);
  }
}

/** A call larger than MODEL_CALL_CHARS: refused, the run going on (the caller's own failure). */
export class ModelCallTooLarge extends EntropicError {
  override readonly name = "ModelCallTooLarge";
  constructor(message: string, details: ErrorDetails = {}) {
    super("model", message, details);
  }
}

/**
 * A run's meter of model spend: each call through a provider it wraps is charged before it is
 * sent, and the first call that would pass a limit is refused, as is every call after it; the run
 * is told once (`onExceeded`), so that it stops instead of falling back call after call.
 */
export class ModelSpend {
  calls = 0;
  chars = 0;
  private refused: ModelSpendExceeded | undefined;

  constructor(
    readonly limits: SpendLimits,
    private readonly onExceeded: (error: ModelSpendExceeded) => void = () => undefined,
  ) {}

  /** The error that stopped the run's model calls, if the cap was reached. */
  get exceeded(): ModelSpendExceeded | undefined {
    return this.refused;
  }

  /** Counts a call of these messages, or throws: ModelCallTooLarge for one call too large, ModelSpendExceeded once a limit is reached. */
  charge(messages: readonly ChatMessage[]): void {
    if (this.refused) throw this.refused;
    const chars = messages.reduce((sum, message) => sum + message.content.length, 0);
    if (chars > MODEL_CALL_CHARS) throw new ModelCallTooLarge(`a model call of ${chars} characters is refused (at most ${MODEL_CALL_CHARS} a call)`);
    const over =
      this.calls + 1 > this.limits.calls
        ? `max_model_calls ${this.limits.calls} (the run made ${this.calls} calls)`
        : this.chars + chars > this.limits.chars
          ? `max_model_chars ${this.limits.chars} (the run sent ${this.chars} characters; the next call held ${chars})`
          : undefined;
    if (over) {
      this.refused = new ModelSpendExceeded(`the run's model spend reached its cap, ${over}`);
      this.onExceeded(this.refused);
      throw this.refused;
    }
    this.calls++;
    this.chars += chars;
  }

  /** The provider with every call charged here first; its usage is the provider's own. */
  wrap(provider: LlmProvider): LlmProvider {
    return {
      role: provider.role,
      model: provider.model,
      get usage() {
        return provider.usage;
      },
      complete: async (messages) => {
        this.charge(messages);
        return provider.complete(messages);
      },
    };
  }
}
