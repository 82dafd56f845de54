import { z } from "zod";
import { DEFAULT_PRIMARY_MODEL } from "../../llm/index.js";
import { EntropicError, type ErrorDetails, environment, parseOrThrow } from "../../util/index.js";

/**
 * How the model acts: native function calling over in-message tool calls, CRMArena-Pro's
 * `<execute>`/`<respond>` tags, or native function calling with the tools taken from the
 * episode's MCP endpoint (the answer in the A2A reply; in-message tools when none is offered).
 */
export type LlmMode = "tools" | "text" | "mcp";
export const LLM_MODES: readonly LlmMode[] = ["tools", "text", "mcp"];

/** What an episode does when the provider still fails after its retries. */
export type FailurePolicy = "answer" | "fail";

export interface LlmPurpleConfig {
  readonly apiKey: string;
  readonly baseURL: string | undefined;
  readonly model: string;
  readonly mode: LlmMode;
  /** Completion budget per model call. */
  readonly maxTokens: number;
  /** The model's context window: prompt plus completion never exceed it. */
  readonly contextTokens: number;
  /** `undefined` leaves the provider's default (some reasoning models accept no other). */
  readonly temperature: number | undefined;
  /** Per model call, before the SDK retries it. */
  readonly timeoutMs: number;
  /** SDK retries on 429, 5xx, timeouts and connection errors (honouring retry-after). */
  readonly maxRetries: number;
  /** Everything one green turn may spend on the model; stays under the green's per-call timeout (300 s by default). */
  readonly turnTimeoutMs: number;
  /** Malformed model replies answered locally (no green turn spent) before one is passed on. */
  readonly formatRetries: number;
  /**
   * `fail` (the default): the A2A task fails with the reason, so the green records purple_error and
   * its summary names it; `answer`: the episode answers {@link FAILURE_ANSWER}, which is right for
   * about a fifth of the real tasks, so a dead endpoint would look like a weak model.
   */
  readonly onFailure: FailurePolicy;
  /** An idle episode's state is dropped after this long. */
  readonly sessionTtlMs: number;
}

/** The answer an episode gives when the provider cannot be reached: CRMArena-Pro's "nothing found". */
export const FAILURE_ANSWER = "None";

const text = z
  .string()
  .optional()
  .transform((value) => (value?.trim() ? value.trim() : undefined));

function number(name: string, min: number, max: number, integer: boolean) {
  return text
    .transform((value) => (value === undefined ? undefined : Number(value)))
    .refine((value) => value === undefined || (Number.isFinite(value) && value >= min && value <= max && (!integer || Number.isInteger(value))), {
      message: `${name} must be a ${integer ? "whole " : ""}number from ${min} to ${max}`,
    });
}

function oneOf<T extends string>(name: string, values: readonly T[]) {
  return text
    .refine((value) => value === undefined || values.includes(value as T), { message: `${name} must be one of ${values.join(", ")}` })
    .transform((value) => value as T | undefined);
}

// z.url() alone accepts any scheme ("node:...", "mailto:..."); an endpoint is http or https.
const url = (name: string) => text.pipe(z.url({ protocol: /^https?$/, error: `${name} must be an http(s) URL` }).optional());

/** The purple's own variables, and the judge's that it falls back to (src/llm/config.ts). */
const EnvSchema = z.object({
  PURPLE_LLM_API_KEY: text,
  PURPLE_LLM_BASE_URL: url("PURPLE_LLM_BASE_URL"),
  PURPLE_LLM_MODEL: text,
  PURPLE_LLM_MODE: oneOf("PURPLE_LLM_MODE", LLM_MODES),
  PURPLE_LLM_MAX_TOKENS: number("PURPLE_LLM_MAX_TOKENS", 16, 200_000, true),
  PURPLE_LLM_CONTEXT_TOKENS: number("PURPLE_LLM_CONTEXT_TOKENS", 2_000, 10_000_000, true),
  PURPLE_LLM_TEMPERATURE: text.refine((value) => value === undefined || value === "omit" || (Number.isFinite(Number(value)) && Number(value) >= 0 && Number(value) <= 2), {
    message: "PURPLE_LLM_TEMPERATURE must be a number from 0 to 2, or omit",
  }),
  PURPLE_LLM_TIMEOUT_SECONDS: number("PURPLE_LLM_TIMEOUT_SECONDS", 1, 3_600, false),
  PURPLE_LLM_MAX_RETRIES: number("PURPLE_LLM_MAX_RETRIES", 0, 10, true),
  PURPLE_LLM_TURN_TIMEOUT_SECONDS: number("PURPLE_LLM_TURN_TIMEOUT_SECONDS", 1, 86_400, false),
  PURPLE_LLM_FORMAT_RETRIES: number("PURPLE_LLM_FORMAT_RETRIES", 0, 10, true),
  PURPLE_LLM_ON_FAILURE: oneOf<FailurePolicy>("PURPLE_LLM_ON_FAILURE", ["answer", "fail"]),
  PURPLE_LLM_SESSION_TTL_SECONDS: number("PURPLE_LLM_SESSION_TTL_SECONDS", 1, 86_400, false),
  OPENAI_API_KEY: text,
  LLM_PRIMARY_BASE_URL: url("LLM_PRIMARY_BASE_URL"),
  LLM_PRIMARY_MODEL: text,
});

/** Command-line overrides (`--model`, `--mode`), which win over the environment. */
export interface LlmPurpleOverrides {
  readonly model?: string;
  readonly mode?: LlmMode;
}

export class LlmPurpleConfigError extends EntropicError {
  override readonly name = "LlmPurpleConfigError";
  constructor(message: string, details: ErrorDetails = {}) {
    super("config", message, details);
  }
}

/**
 * Reads the LLM purple's configuration. Key, endpoint and model fall back to the judge's
 * (OPENAI_API_KEY, LLM_PRIMARY_BASE_URL, LLM_PRIMARY_MODEL), so one set of credentials serves
 * both in a local run; every error names the variable.
 */
export function llmPurpleConfigFromEnv(env: NodeJS.ProcessEnv = environment(), overrides: LlmPurpleOverrides = {}): LlmPurpleConfig {
  const e = parseOrThrow(EnvSchema, env, (_, _first, issues) => new LlmPurpleConfigError(`LLM purple configuration: ${issues.map((issue) => issue.message).join("; ")}`));
  const apiKey = e.PURPLE_LLM_API_KEY ?? e.OPENAI_API_KEY;
  if (!apiKey) {
    throw new LlmPurpleConfigError("LLM purple configuration: PURPLE_LLM_API_KEY is not set (nor OPENAI_API_KEY, its fallback); endpoints that need no key accept any value");
  }
  if (overrides.mode !== undefined && !LLM_MODES.includes(overrides.mode)) throw new LlmPurpleConfigError(`--mode must be one of ${LLM_MODES.join(", ")}`);
  const maxTokens = e.PURPLE_LLM_MAX_TOKENS ?? 2_000;
  const contextTokens = e.PURPLE_LLM_CONTEXT_TOKENS ?? 64_000;
  if (contextTokens < maxTokens * 2) {
    throw new LlmPurpleConfigError(`LLM purple configuration: PURPLE_LLM_CONTEXT_TOKENS (${contextTokens}) must be at least twice PURPLE_LLM_MAX_TOKENS (${maxTokens})`);
  }
  const temperature = e.PURPLE_LLM_TEMPERATURE === "omit" ? undefined : Number(e.PURPLE_LLM_TEMPERATURE ?? 0);
  return {
    apiKey,
    baseURL: e.PURPLE_LLM_BASE_URL ?? e.LLM_PRIMARY_BASE_URL,
    model: overrides.model?.trim() || e.PURPLE_LLM_MODEL || e.LLM_PRIMARY_MODEL || DEFAULT_PRIMARY_MODEL,
    mode: overrides.mode ?? e.PURPLE_LLM_MODE ?? "tools",
    maxTokens,
    contextTokens,
    temperature,
    timeoutMs: (e.PURPLE_LLM_TIMEOUT_SECONDS ?? 120) * 1000,
    maxRetries: e.PURPLE_LLM_MAX_RETRIES ?? 4,
    turnTimeoutMs: (e.PURPLE_LLM_TURN_TIMEOUT_SECONDS ?? 270) * 1000,
    formatRetries: e.PURPLE_LLM_FORMAT_RETRIES ?? 2,
    onFailure: e.PURPLE_LLM_ON_FAILURE ?? "fail",
    sessionTtlMs: (e.PURPLE_LLM_SESSION_TTL_SECONDS ?? 1_800) * 1000,
  };
}
