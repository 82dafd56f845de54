import type { LlmConfig, ProviderRole } from "../llm/index.js";
import { type ChatMessage, JudgementCache, type LlmProvider, type ModelSpend, OpenAiProvider, type ProviderUsage } from "../llm/index.js";
import { entityKindFor, extractAnswers } from "./extract.js";
import { type FuzzyContext, paraphraseVerdict } from "./normalize.js";
import { disclosurePrompt, equivalencePrompt, extractionPrompt, parseDisclosure, parseEquivalence, parseExtraction, parsePrivacy, privacyPrompt } from "./prompts.js";
import { isPrivacyRefusal } from "./refusal.js";

/** Where a verdict came from: a model call, the judgement cache, or the deterministic heuristic. */
export type { VerdictSource } from "../log/index.js";

import type { VerdictSource } from "../log/index.js";

/** A judge's verdict with its evidence. */
export interface Verdict<T> {
  readonly value: T;
  readonly source: VerdictSource;
  readonly model: string | null;
  /** The judge's raw reply (null for the heuristic). */
  readonly raw: string | null;
  /** Why the heuristic stood in for a model, when it did. */
  readonly fallback?: string;
}

/** Decides the parts of CRMArena-Pro scoring that need judgement. */
export interface Judge {
  readonly mode: "llm" | "heuristic";
  readonly models: Readonly<Record<ProviderRole, string | null>>;
  /** exact_match: the entities an answer gives, for the task's category. */
  extract(answer: string, category: string): Promise<Verdict<string[]>>;
  /** privacy_rejection, for CRMArena-Pro's verdict (`original`): did the trajectory (every query and answer) clearly refuse? */
  privacy(actions: readonly string[], answer: string): Promise<Verdict<boolean>>;
  /**
   * privacy_rejection, for the benchmark's verdict (`success`): given the request and everything
   * the user was shown (every part of every reply that reached the user), did the agent refuse
   * and give nothing away, not even a hint? The heuristic reads the final answer's refusal (the
   * deterministic leak checks run before, in success.ts); the model judge asks the primary model.
   */
  refusedShown(shown: readonly string[], answer: string, taskText: string): Promise<Verdict<boolean>>;
  /**
   * fuzzy_match, for the benchmark's own verdict (`success`), never for `original`: does the answer
   * state what the ground truth states (a paraphrase)? The heuristic applies the documented rule
   * (`paraphraseVerdict`); the model judge asks the cheap model.
   */
  equivalent(answer: string, truth: string, context: FuzzyContext): Promise<Verdict<boolean>>;
  usage(): Readonly<Record<ProviderRole, ProviderUsage>> | null;
  /** The same judge with its model calls charged to a run's spend (a judge that calls no model is itself). */
  withSpend?(spend: ModelSpend): Judge;
}

/** The longest answer, and the most of the task's text, an equivalence question sends the model. */
const EQUIVALENCE_MAX_ANSWER = 4_000;
const EQUIVALENCE_MAX_QUESTION = 2_000;

/** The deterministic judge: used when no model is configured, and as every model call's fallback. */
export class HeuristicJudge implements Judge {
  readonly mode = "heuristic" as const;
  readonly models = { primary: null, cheap: null };

  async extract(answer: string, category: string): Promise<Verdict<string[]>> {
    return { value: extractAnswers(answer, category), source: "heuristic", model: null, raw: null };
  }

  async privacy(_actions: readonly string[], answer: string): Promise<Verdict<boolean>> {
    return { value: isPrivacyRefusal(answer), source: "heuristic", model: null, raw: null };
  }

  async refusedShown(_shown: readonly string[], answer: string, taskText: string): Promise<Verdict<boolean>> {
    return { value: isPrivacyRefusal(answer, taskText), source: "heuristic", model: null, raw: null };
  }

  async equivalent(answer: string, truth: string, context: FuzzyContext): Promise<Verdict<boolean>> {
    return { value: paraphraseVerdict(answer, truth, context).equivalent, source: "heuristic", model: null, raw: null };
  }

  usage(): null {
    return null;
  }

  withSpend(): Judge {
    return this;
  }
}

/**
 * The model judge: the cheap provider extracts exact_match answers and judges fuzzy answers'
 * equivalence (for `success`), the primary provider judges privacy refusals. Every reply is cached on disk by (model, prompt, input). A provider that is
 * still failing after its retries, or a reply that cannot be read, gives way to the heuristic,
 * and the verdict says so.
 */
export class LlmJudge implements Judge {
  readonly mode = "llm" as const;
  private readonly heuristic = new HeuristicJudge();

  constructor(
    private readonly providers: Readonly<Record<ProviderRole, LlmProvider>>,
    private readonly cache: JudgementCache | undefined,
  ) {}

  get models(): Record<ProviderRole, string> {
    return { primary: this.providers.primary.model, cheap: this.providers.cheap.model };
  }

  async extract(answer: string, category: string): Promise<Verdict<string[]>> {
    const reply = await this.ask("cheap", extractionPrompt(entityKindFor(category), answer));
    if ("error" in reply) return { ...(await this.heuristic.extract(answer, category)), fallback: reply.error };
    const value = parseExtraction(reply.text);
    if (!value) return { ...(await this.heuristic.extract(answer, category)), fallback: `unreadable judge reply: ${reply.text.slice(0, 200)}` };
    return { value, source: reply.source, model: this.providers.cheap.model, raw: reply.text };
  }

  async privacy(actions: readonly string[], answer: string): Promise<Verdict<boolean>> {
    const reply = await this.ask("primary", privacyPrompt(actions));
    if ("error" in reply) return { ...(await this.heuristic.privacy(actions, answer)), fallback: reply.error };
    const value = parsePrivacy(reply.text);
    if (value === undefined) return { ...(await this.heuristic.privacy(actions, answer)), fallback: `unreadable judge reply: ${reply.text.slice(0, 200)}` };
    return { value, source: reply.source, model: this.providers.primary.model, raw: reply.text };
  }

  async refusedShown(shown: readonly string[], answer: string, taskText: string): Promise<Verdict<boolean>> {
    const reply = await this.ask("primary", disclosurePrompt(taskText, shown));
    if ("error" in reply) return { ...(await this.heuristic.refusedShown(shown, answer, taskText)), fallback: reply.error };
    const value = parseDisclosure(reply.text);
    if (value === undefined) return { ...(await this.heuristic.refusedShown(shown, answer, taskText)), fallback: `unreadable judge reply: ${reply.text.slice(0, 200)}` };
    return { value, source: reply.source, model: this.providers.primary.model, raw: reply.text };
  }

  async equivalent(answer: string, truth: string, context: FuzzyContext): Promise<Verdict<boolean>> {
    // A paraphrase is about the truth's length; an answer far longer is not sent (the rule refuses it on its precision floor).
    if (answer.length > EQUIVALENCE_MAX_ANSWER)
      return {
        ...(await this.heuristic.equivalent(answer, truth, context)),
        fallback: `answer of ${answer.length} characters, beyond the ${EQUIVALENCE_MAX_ANSWER} the model is asked about`,
      };
    const reply = await this.ask("cheap", equivalencePrompt(context.taskText.slice(0, EQUIVALENCE_MAX_QUESTION), truth, answer));
    if ("error" in reply) return { ...(await this.heuristic.equivalent(answer, truth, context)), fallback: reply.error };
    const value = parseEquivalence(reply.text);
    if (value === undefined) return { ...(await this.heuristic.equivalent(answer, truth, context)), fallback: `unreadable judge reply: ${reply.text.slice(0, 200)}` };
    return { value, source: reply.source, model: this.providers.cheap.model, raw: reply.text };
  }

  usage(): Record<ProviderRole, ProviderUsage> {
    return { primary: { ...this.providers.primary.usage }, cheap: { ...this.providers.cheap.usage } };
  }

  withSpend(spend: ModelSpend): Judge {
    return new LlmJudge({ primary: spend.wrap(this.providers.primary), cheap: spend.wrap(this.providers.cheap) }, this.cache);
  }

  /** Identical questions in flight at once (tasks with the same trajectory) share one model call. */
  private readonly inFlight = new Map<string, Promise<{ text: string; source: "llm" | "cache" } | { error: string }>>();

  private ask(role: ProviderRole, messages: ChatMessage[]): Promise<{ text: string; source: "llm" | "cache" } | { error: string }> {
    const provider = this.providers[role];
    const key = JudgementCache.key(provider.model, messages);
    const pending = this.inFlight.get(key);
    if (pending) return pending.then((reply) => ("text" in reply ? { text: reply.text, source: "cache" as const } : reply));
    const asking = this.askOnce(provider, role, messages).finally(() => this.inFlight.delete(key));
    this.inFlight.set(key, asking);
    return asking;
  }

  private async askOnce(provider: LlmProvider, role: ProviderRole, messages: ChatMessage[]): Promise<{ text: string; source: "llm" | "cache" } | { error: string }> {
    const cached = await this.cache?.get(provider.model, messages);
    if (cached !== undefined) return { text: cached, source: "cache" };
    let text: string;
    try {
      text = await provider.complete(messages);
    } catch (error) {
      return { error: `${role} provider ${provider.model} failed after retries: ${(error as Error).message}` };
    }
    // A cache that cannot be written costs a future call, never this verdict.
    await this.cache?.put(provider.model, messages, text).catch(() => undefined);
    return { text, source: "llm" };
  }
}

/** The judge an assessment uses: the model judge when a key is configured, else the heuristic. */
export function createJudge(config: LlmConfig, options: { cacheDir?: string } = {}): Judge {
  const cacheDir = options.cacheDir ?? config.cacheDir;
  if (!config.primary.apiKey) return new HeuristicJudge();
  return new LlmJudge(
    { primary: new OpenAiProvider(config.primary), cheap: new OpenAiProvider(config.cheap) },
    cacheDir ? new JudgementCache(cacheDir, config.cacheBytes) : undefined,
  );
}

/**
 * A model judge that never calls out, for re-scoring without network: verdicts of the recorded
 * models come from the cache, and anything missing falls back to the heuristic.
 */
export function offlineJudge(models: Readonly<Record<ProviderRole, string>>, cacheDir: string): Judge {
  return new LlmJudge({ primary: new OfflineProvider("primary", models.primary), cheap: new OfflineProvider("cheap", models.cheap) }, new JudgementCache(cacheDir));
}

/** A provider that never calls out: with a cache, re-scoring reproduces verdicts without network. */
export class OfflineProvider implements LlmProvider {
  readonly usage: ProviderUsage = { calls: 0, failures: 0, inputTokens: 0, outputTokens: 0 };

  constructor(
    readonly role: ProviderRole,
    readonly model: string,
  ) {}

  async complete(): Promise<string> {
    this.usage.failures++;
    throw new Error("offline: the judgement is not in the cache");
  }
}
