import { join } from "node:path";
import type { Logger } from "pino";
import type { SpendCeiling } from "../assessment/index.js";
import { CACHE_DIR } from "../data/index.js";
import { llmConfigFromEnv } from "../llm/index.js";
import { a2aPurpleClients, type PurpleClientFactory, retryWindowFromEnv } from "../purple/index.js";
import { createJudge, type Judge } from "../scoring/index.js";
import { type UserChoice, type UserSimulator, userSimulatorFor } from "../users/index.js";

/**
 * The judge factory for a process: model judges when OPENAI_API_KEY is set (with the judgement
 * cache in ENTROPIC_JUDGE_CACHE or data/cache/judgements), else the deterministic heuristic.
 */
export function judgeFactoryFromEnv(logger: Logger, env: NodeJS.ProcessEnv = process.env): () => Judge {
  const config = llmConfigFromEnv(env);
  const cacheDir = config.cacheDir ?? join(CACHE_DIR, "judgements");
  if (config.primary.apiKey) {
    logger.info({ primary: config.primary.model, cheap: config.cheap.model, primaryBaseUrl: config.primary.baseURL ?? "OpenAI", cacheDir }, "LLM judge configured");
  } else {
    logger.warn("No OPENAI_API_KEY: exact_match extraction and privacy judging use the deterministic heuristic (flagged in the results).");
  }
  return () => createJudge(config, { cacheDir });
}

/** Interactive mode's simulated user, with the cheap model of the environment when it has one (LLM_CHEAP_* / OPENAI_*). */
export function usersFromEnv(env: NodeJS.ProcessEnv = process.env): (choice: UserChoice) => UserSimulator {
  return (choice) => userSimulatorFor(choice, env);
}

/** A2A clients to purples with the retry window of ENTROPIC_PURPLE_RETRY_SECONDS, read as each is built (a wrong value fails that assessment, naming the variable). */
export function purplesFromEnv(env: NodeJS.ProcessEnv = process.env): PurpleClientFactory {
  return a2aPurpleClients(() => ({ retryWindowMs: retryWindowFromEnv(env) }));
}

/**
 * The operator's ceiling on what a request may ask of its model spend caps: ENTROPIC_MAX_MODEL_CALLS
 * and ENTROPIC_MAX_MODEL_CHARS (whole numbers of at least 1), each when set. A value that is no such
 * number is refused at start, naming the variable.
 */
export function spendCeilingFromEnv(env: NodeJS.ProcessEnv = process.env): SpendCeiling {
  const read = (name: string) => {
    const raw = env[name]?.trim();
    if (!raw) return undefined;
    const value = Number(raw);
    if (!Number.isInteger(value) || value < 1) throw new Error(`${name} must be a whole number of at least 1 (got ${JSON.stringify(raw)}); unset it for no ceiling`);
    return value;
  };
  return { calls: read("ENTROPIC_MAX_MODEL_CALLS"), chars: read("ENTROPIC_MAX_MODEL_CHARS") };
}
