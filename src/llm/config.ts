import { z } from "zod";
import { environment, parseOrThrow } from "../util/index.js";

/** The two judge providers: `primary` for judgements that need the stronger model, `cheap` for extraction. */
export type ProviderRole = "primary" | "cheap";

export const DEFAULT_PRIMARY_MODEL = "claude-sonnet-4-6";
export const DEFAULT_CHEAP_MODEL = "claude-haiku-4-5";

const optionalText = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

const optionalNumber = (name: string, min: number, max: number, integer = false) =>
  z
    .string()
    .optional()
    .transform((value) => (value?.trim() ? Number(value) : undefined))
    .refine((value) => value === undefined || (Number.isFinite(value) && value >= min && value <= max && (!integer || Number.isInteger(value))), {
      message: `${name} must be a ${integer ? "whole " : ""}number from ${min} to ${max}`,
    });

/** The environment variables the leaderboard's scenario passes to the green agent. */
const LlmEnvSchema = z.object({
  OPENAI_API_KEY: optionalText,
  OPENAI_CHEAP_API_KEY: optionalText,
  LLM_PRIMARY_BASE_URL: optionalText.pipe(z.url({ error: "LLM_PRIMARY_BASE_URL must be a URL" }).optional()),
  LLM_CHEAP_BASE_URL: optionalText.pipe(z.url({ error: "LLM_CHEAP_BASE_URL must be a URL" }).optional()),
  LLM_PRIMARY_MODEL: optionalText,
  LLM_CHEAP_MODEL: optionalText,
  LLM_TIMEOUT_SECONDS: optionalNumber("LLM_TIMEOUT_SECONDS", 1, 600),
  LLM_MAX_RETRIES: optionalNumber("LLM_MAX_RETRIES", 0, 10, true),
  LLM_CONCURRENCY: optionalNumber("LLM_CONCURRENCY", 1, 64, true),
  ENTROPIC_JUDGE_CACHE: optionalText,
  ENTROPIC_JUDGE_CACHE_MB: optionalNumber("ENTROPIC_JUDGE_CACHE_MB", 1, 10_000_000),
});

/** How to reach one provider. `apiKey` undefined means the provider is not configured. */
export interface ProviderConfig {
  readonly role: ProviderRole;
  readonly apiKey: string | undefined;
  readonly baseURL: string | undefined;
  readonly model: string;
  readonly timeoutMs: number;
  readonly maxRetries: number;
  readonly concurrency: number;
}

export interface LlmConfig {
  readonly primary: ProviderConfig;
  readonly cheap: ProviderConfig;
  readonly cacheDir: string | undefined;
  /** The judgement cache's bound (ENTROPIC_JUDGE_CACHE_MB); the cache's default when unset. */
  readonly cacheBytes?: number | undefined;
}

/** Reads the providers from the environment: the cheap key falls back to the primary one. */
export function llmConfigFromEnv(env: NodeJS.ProcessEnv = environment()): LlmConfig {
  const e = parseOrThrow(LlmEnvSchema, env, (_, _first, issues) => new Error(`LLM configuration: ${issues.map((issue) => issue.message).join("; ")}`));
  const common = { timeoutMs: (e.LLM_TIMEOUT_SECONDS ?? 60) * 1000, maxRetries: e.LLM_MAX_RETRIES ?? 4, concurrency: e.LLM_CONCURRENCY ?? 8 };
  return {
    primary: { role: "primary", apiKey: e.OPENAI_API_KEY, baseURL: e.LLM_PRIMARY_BASE_URL, model: e.LLM_PRIMARY_MODEL ?? DEFAULT_PRIMARY_MODEL, ...common },
    cheap: {
      role: "cheap",
      apiKey: e.OPENAI_CHEAP_API_KEY ?? e.OPENAI_API_KEY,
      baseURL: e.LLM_CHEAP_BASE_URL ?? e.LLM_PRIMARY_BASE_URL,
      model: e.LLM_CHEAP_MODEL ?? DEFAULT_CHEAP_MODEL,
      ...common,
    },
    cacheDir: e.ENTROPIC_JUDGE_CACHE,
    cacheBytes: e.ENTROPIC_JUDGE_CACHE_MB === undefined ? undefined : Math.floor(e.ENTROPIC_JUDGE_CACHE_MB * 1024 * 1024),
  };
}
